import type { ReactNode } from "react";
import styles from "./Badge.module.css";

export type BadgeTone = "neutral" | "success" | "warning" | "danger" | "info" | "accent" | "polymarket" | "kalshi";

/** A small pill label; with `hasDot` it reads as a status light. */
export function Badge({
  tone = "neutral",
  hasDot = false,
  children,
  title,
}: {
  tone?: BadgeTone;
  hasDot?: boolean;
  children: ReactNode;
  title?: string;
}) {
  return (
    <span className={`${styles.badge} ${styles[tone]}`} title={title}>
      {hasDot ? <span className={styles.dot} aria-hidden="true" /> : null}
      {children}
    </span>
  );
}
