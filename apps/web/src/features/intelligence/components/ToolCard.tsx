/** A tool call as a compact card: what ran, how it went, how long; expands to the SQL and rows. */
import { ChevronRight, Database, FileText, Globe, ListChecks, SearchCheck, Table2, X } from "lucide-react";
import { Spinner } from "../../../ui/Spinner";
import { ResultTable } from "../../queries/ResultTable";
import type { ToolPart } from "../use-conversation";
import styles from "./tools.module.css";

function labelOf(part: ToolPart): string {
  switch (part.tool) {
    case "execute_query":
      return part.isCheck ? "Checked the answer's SQL" : "Ran a query";
    case "sample_data":
      return `Sampled ${String(part.input.table ?? "a table")}`;
    case "web_search":
      return `Searched the web for “${String(part.input.query ?? "")}”`;
    case "produce_report":
      return "Wrote the report";
    default: {
      const unknown: never = part.tool;
      return String(unknown);
    }
  }
}

const ICONS = { execute_query: Database, sample_data: Table2, web_search: Globe, produce_report: FileText } as const;

export function ToolCard({ part }: { part: ToolPart }) {
  const Icon = part.isCheck ? SearchCheck : ICONS[part.tool];
  const result = part.result;
  const state = result === null ? "running" : result.ok ? "ok" : "failed";
  const sql = result?.query?.sql ?? (typeof part.input.sql === "string" ? part.input.sql : null);
  return (
    <details className={styles.toolCard} data-state={state} data-testid="tool-card">
      <summary>
        <ChevronRight size={14} className={styles.chevron} />
        <Icon size={14} className={styles.toolIcon} />
        <span className={styles.toolLabel}>{labelOf(part)}</span>
        <span className={styles.toolSummary}>
          {result === null ? (
            <Spinner size={12} />
          ) : (
            <>
              {result.ok ? <ListChecks size={12} /> : <X size={12} />}
              {result.summary}
              {result.duration_ms > 0 ? <span className={styles.toolTime}> · {result.duration_ms} ms</span> : null}
            </>
          )}
        </span>
      </summary>
      <div className={styles.toolBody}>
        {sql ? (
          <pre className={styles.toolSql}>
            <code>{sql}</code>
          </pre>
        ) : null}
        {result?.error ? <div className={styles.toolError}>{result.error.message}</div> : null}
        {result?.query && result.query.columns.length > 0 ? (
          <ResultTable
            columns={result.query.columns}
            rows={result.query.rows}
            sql={result.query.sql}
            variant="answer"
          />
        ) : null}
        {result?.search_results?.length ? (
          <ul className={styles.searchResults}>
            {result.search_results.map((hit) => (
              <li key={hit.url}>
                <a href={hit.url} target="_blank" rel="noreferrer">
                  {hit.title || hit.url}
                </a>
                <p>{hit.snippet}</p>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </details>
  );
}
