import type { ReactNode } from "react";
import styles from "./EmptyState.module.css";

/** What a list or panel shows when there is nothing (or something went wrong) to show. */
export function EmptyState({
  icon,
  title,
  children,
  action,
  tone = "neutral",
}: {
  icon?: ReactNode;
  title: ReactNode;
  children?: ReactNode;
  action?: ReactNode;
  tone?: "neutral" | "danger";
}) {
  return (
    <div
      className={`${styles.empty} ${tone === "danger" ? styles.danger : ""}`}
      role={tone === "danger" ? "alert" : undefined}
    >
      {icon ? <div className={styles.icon}>{icon}</div> : null}
      <h2 className={styles.title}>{title}</h2>
      {children ? <div className={styles.text}>{children}</div> : null}
      {action ? <div className={styles.action}>{action}</div> : null}
    </div>
  );
}
