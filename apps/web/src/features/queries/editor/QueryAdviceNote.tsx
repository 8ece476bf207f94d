/**
 * A faster form of the statement in the editor, when it matches a pattern the engine
 * cannot speed up by itself (`adviseQuery`): what is slow, and the rewrite a click away
 * when it gives exactly the same rows. Computed from the text as it is typed; nothing is
 * sent to the server.
 */
import { adviseQuery } from "@epicenter/contracts";
import { Zap } from "lucide-react";
import { useMemo } from "react";
import styles from "./editor.module.css";

export function QueryAdviceNote({
  sql,
  tables,
  onRewrite,
}: {
  sql: string;
  /** `database.table` of every table the catalog lists. */
  tables: readonly string[];
  onRewrite: (sql: string) => void;
}) {
  const advice = useMemo(() => adviseQuery(sql, tables), [sql, tables]);
  if (advice.length === 0) return null;
  return (
    <div className={styles.advice} role="note" data-testid="query-advice">
      {advice.map((item) => (
        <div key={item.kind} className={styles.adviceItem}>
          <Zap size={14} aria-hidden="true" />
          <div>
            <strong>{item.title}</strong> <span>{item.message}</span>
          </div>
          {item.rewrite ? (
            <button type="button" onClick={() => onRewrite(item.rewrite as string)}>
              Use the faster query
            </button>
          ) : null}
        </div>
      ))}
    </div>
  );
}
