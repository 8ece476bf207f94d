import type { ReactNode } from "react";
import styles from "./Page.module.css";

/** The content column every page sits in. */
export function Page({ children, width = "default" }: { children: ReactNode; width?: "default" | "wide" | "full" }) {
  return <div className={`${styles.page} ${styles[width]}`}>{children}</div>;
}
