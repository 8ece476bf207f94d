/**
 * One SQL block of an answer: the statement, whether Seismo's check ran it, and Run
 * (results inline, through the same query endpoint as the editor) and Open in Editor.
 */
import type { RunQueryResponse, SqlBlock } from "@epicenter/contracts";
import { Check, Copy, ExternalLink, Play, TriangleAlert } from "lucide-react";
import { useState } from "react";
import { useNavigate } from "react-router";
import { Button } from "../../../ui/Button";
import { editorUrl, runSql } from "../api";
import styles from "./answer.module.css";
import { ResultTable } from "./ResultTable";

type RunState =
  | { status: "idle" }
  | { status: "running" }
  | { status: "done"; response: RunQueryResponse }
  | { status: "failed"; message: string };

const rowsLabel = (count: number, isTruncated = false) =>
  `${count}${isTruncated ? "+" : ""} ${count === 1 && !isTruncated ? "row" : "rows"}`;

export function SqlBlockView({ sql, title, check }: { sql: string; title: string; check?: SqlBlock }) {
  const navigate = useNavigate();
  const [run, setRun] = useState<RunState>({ status: "idle" });
  const [isCopied, setIsCopied] = useState(false);

  const onRun = async () => {
    setRun({ status: "running" });
    try {
      setRun({ status: "done", response: await runSql(sql) });
    } catch (error) {
      setRun({ status: "failed", message: error instanceof Error ? error.message : String(error) });
    }
  };

  const onCopy = async () => {
    await navigator.clipboard?.writeText(sql).catch(() => {});
    setIsCopied(true);
    setTimeout(() => setIsCopied(false), 2000);
  };

  return (
    <figure className={styles.sqlBlock} data-testid="sql-block">
      <figcaption className={styles.sqlHeader}>
        <span className={styles.sqlLabel}>SQL</span>
        {check ? (
          check.status === "checked" ? (
            <span className={styles.badgeOk} title="Seismo ran this statement with a small limit">
              <Check size={12} /> Checked{check.row_count !== null ? ` · ${rowsLabel(check.row_count)}` : ""}
            </span>
          ) : (
            <span className={styles.badgeBad} title={check.error ?? undefined}>
              <TriangleAlert size={12} /> Rejected by the engine
            </span>
          )
        ) : null}
        <span className={styles.sqlActions}>
          <Button
            variant="ghost"
            size="xs"
            icon={<Copy size={12} />}
            onClick={() => void onCopy()}
            aria-label="Copy SQL"
          >
            {isCopied ? "Copied!" : null}
          </Button>
          <Button
            variant="secondary"
            size="xs"
            icon={<ExternalLink size={12} />}
            onClick={() => void navigate(editorUrl(sql, title))}
          >
            Open in Editor
          </Button>
          <Button
            variant="accent"
            size="xs"
            icon={<Play size={12} />}
            isLoading={run.status === "running"}
            onClick={() => void onRun()}
          >
            Run
          </Button>
        </span>
      </figcaption>
      <pre className={styles.sqlCode}>
        <code>{sql}</code>
      </pre>
      {run.status === "done" ? (
        <div className={styles.runResult} data-testid="sql-result">
          <div className={styles.runMeta}>
            {rowsLabel(run.response.result.row_count, run.response.result.truncated)} ·{" "}
            {Math.round(run.response.result.execution_time_ms)} ms
          </div>
          <ResultTable
            columns={run.response.result.columns.map((column) => column.name)}
            rows={run.response.result.data.map((row) => run.response.result.columns.map((column) => row[column.name]))}
          />
        </div>
      ) : null}
      {run.status === "failed" ? (
        <div className={styles.runError} role="alert">
          {run.message}
        </div>
      ) : null}
    </figure>
  );
}
