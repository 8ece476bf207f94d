import { AlertTriangle } from "lucide-react";
import { Button } from "./Button";
import styles from "./ErrorScreen.module.css";

/** The generic error screen of the specification, with its exact texts. */
export function ErrorScreen({ error }: { error: unknown }) {
  const text = error instanceof Error ? error.message : typeof error === "string" ? error : JSON.stringify(error);
  return (
    <div className={styles.screen} role="alert">
      <div className={styles.icon}>
        <AlertTriangle size={26} />
      </div>
      <h1>Something went wrong</h1>
      <p className={styles.lead}>An unexpected error occurred. Please try refreshing the page.</p>
      {text ? <pre className={styles.detail}>{text}</pre> : null}
      <Button variant="accent" onClick={() => window.location.reload()}>
        Refresh Page
      </Button>
    </div>
  );
}
