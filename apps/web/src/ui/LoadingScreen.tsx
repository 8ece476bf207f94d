import styles from "./LoadingScreen.module.css";
import { Spinner } from "./Spinner";

export function LoadingScreen({
  message = "Loading...",
  isFullScreen = false,
}: {
  message?: string;
  isFullScreen?: boolean;
}) {
  return (
    <div className={isFullScreen ? `${styles.screen} ${styles.full}` : styles.screen} role="status" aria-live="polite">
      <Spinner size={28} />
      <p>{message}</p>
    </div>
  );
}
