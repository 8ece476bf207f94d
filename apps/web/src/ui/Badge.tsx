import { VENUE_FACTS, VENUES, type Venue } from "@epicenter/contracts";
import type { ReactNode } from "react";
import styles from "./Badge.module.css";

/** Each venue has a tone of its own, named after it (`Badge.module.css`). */
export type BadgeTone = "neutral" | "success" | "warning" | "danger" | "info" | "accent" | Venue;

/** The tone of a table's source as the catalog names it: a venue's own, else neutral. */
export function sourceTone(source: string): BadgeTone {
  return VENUES.find((venue) => VENUE_FACTS[venue].label === source) ?? "neutral";
}

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
