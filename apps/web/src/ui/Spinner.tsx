import styles from "./Spinner.module.css";

/** A spinning ring; decorative unless a label is given, then announced as a status. */
export function Spinner({ size = 16, label }: { size?: number; label?: string }) {
  const ring = <span className={styles.spinner} style={{ width: size, height: size }} aria-hidden="true" />;
  if (!label) return ring;
  return (
    <span role="status">
      {ring}
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
