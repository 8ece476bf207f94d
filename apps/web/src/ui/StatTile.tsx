import type { ReactNode } from "react";
import styles from "./StatTile.module.css";

/** One figure with its label: a dashboard number, a status metric. */
export function StatTile({
  label,
  value,
  hint,
  icon,
  testId,
}: {
  label: ReactNode;
  value: ReactNode;
  hint?: ReactNode;
  icon?: ReactNode;
  testId?: string;
}) {
  return (
    <div className={styles.tile} data-testid={testId}>
      <div className={styles.label}>
        {icon}
        <span>{label}</span>
      </div>
      <div className={styles.value}>{value}</div>
      {hint ? <div className={styles.hint}>{hint}</div> : null}
    </div>
  );
}
