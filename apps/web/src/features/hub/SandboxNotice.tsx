import type { HealthResponse } from "@epicenter/contracts";
import styles from "./status.module.css";

/**
 * Whether user SQL runs confined on this install, and so who may run it (issue 23): a
 * quiet line when it is, a warning when it is not. `isQuietWhenConfined` leaves the first out.
 */
export function SandboxNotice({
  sandbox,
  isQuietWhenConfined = false,
}: {
  sandbox: NonNullable<HealthResponse["sandbox"]>;
  isQuietWhenConfined?: boolean;
}) {
  if (sandbox.confined) {
    if (isQuietWhenConfined) return null;
    return (
      <p className={styles.footnote} data-testid="sandbox-status">
        User SQL runs confined: no access to the server's files, network or processes.
      </p>
    );
  }
  return (
    <p className={styles.sandboxWarning} data-testid="sandbox-status" role="status">
      User SQL is not confined on this install (bubblewrap is not installed).{" "}
      {sandbox.user_sql === "admins"
        ? "Only administrators can run queries until it is."
        : "The operator lets everyone run queries anyway (SANDBOX_UNCONFINED=allow)."}
    </p>
  );
}
