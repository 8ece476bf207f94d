/**
 * One SQL block of an answer: the statement, whether Seismo's check ran it, and Run
 * (results inline, through the same query endpoint as the editor) and Open in Editor.
 */
import type { QueryResult, SqlBlock } from "@epicenter/contracts";
import { Check, ExternalLink, Play, TriangleAlert } from "lucide-react";
import { useState } from "react";
import { useNavigate } from "react-router";
import { Button } from "../../../ui/Button";
import { CopyButton } from "../../../ui/CopyButton";
import { editorUrl } from "../../../ui/editor-link";
import { ResultTable } from "../../queries/ResultTable";
import { runSql } from "../api";
import styles from "./answer.module.css";

type RunState =
  | { status: "idle" }
  | { status: "running" }
  | { status: "done"; result: QueryResult }
  | { status: "failed"; message: string };

const rowsLabel = (count: number, isTruncated = false) =>
  `${count}${isTruncated ? "+" : ""} ${count === 1 && !isTruncated ? "row" : "rows"}`;

export function SqlBlockView({ sql, title, check }: { sql: string; title: string; check?: SqlBlock }) {
  const navigate = useNavigate();
  const [run, setRun] = useState<RunState>({ status: "idle" });

  const onRun = async () => {
    setRun({ status: "running" });
    try {
      setRun({ status: "done", result: await runSql(sql) });
    } catch (error) {
      setRun({ status: "failed", message: error instanceof Error ? error.message : String(error) });
    }
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
          <CopyButton text={sql} label={null} ariaLabel="Copy SQL" />
          <Button
            variant="secondary"
            size="xs"
            icon={<ExternalLink size={12} />}
            onClick={() => void navigate(editorUrl({ sql, title }))}
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
            {rowsLabel(run.result.row_count, run.result.truncated)} · {Math.round(run.result.execution_time_ms)} ms
          </div>
          <ResultTable columns={run.result.columns} rows={run.result.rows} sql={sql} variant="answer" />
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
