import type { InputHTMLAttributes, ReactNode } from "react";
import styles from "./Field.module.css";

/** A labelled text input; the primitive every form in the product uses. */
export function Field({
  label,
  hint,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { label: ReactNode; hint?: ReactNode }) {
  return (
    <label className={styles.field}>
      <span className={styles.label}>{label}</span>
      <input className={styles.input} {...input} />
      {hint ? <span className={styles.hint}>{hint}</span> : null}
    </label>
  );
}

export const inputClassName = styles.input;
