import type { ReactNode } from "react";
import styles from "./CodeBlock.module.css";
import { CopyButton } from "./CopyButton";

/** A block of code with a caption, a Copy action and optional further actions. */
export function CodeBlock({
  code,
  caption,
  actions,
  testId,
}: {
  code: string;
  caption?: ReactNode;
  actions?: ReactNode;
  testId?: string;
}) {
  return (
    <figure className={styles.block} data-testid={testId}>
      <figcaption className={styles.bar}>
        <span className={styles.caption}>{caption}</span>
        <span className={styles.actions}>
          {actions}
          <CopyButton text={code} />
        </span>
      </figcaption>
      <pre className={styles.code}>
        <code>{code}</code>
      </pre>
    </figure>
  );
}
