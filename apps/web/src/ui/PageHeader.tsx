import type { ReactNode } from "react";
import styles from "./PageHeader.module.css";

/** A page's heading: an optional eyebrow and icon, the title, a sentence, and the page's actions. */
export function PageHeader({
  title,
  description,
  actions,
  eyebrow,
  icon,
  className,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  eyebrow?: ReactNode;
  /** Drawn before the title (a source's mark). */
  icon?: ReactNode;
  className?: string;
}) {
  return (
    <header className={className ? `${styles.header} ${className}` : styles.header}>
      <div className={styles.heading}>
        {icon}
        <div className={styles.text}>
          {eyebrow ? <div className={styles.eyebrow}>{eyebrow}</div> : null}
          <h1>{title}</h1>
          {description ? <p>{description}</p> : null}
        </div>
      </div>
      {actions ? <div className={styles.actions}>{actions}</div> : null}
    </header>
  );
}
