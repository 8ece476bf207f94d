/**
 * One line above the pairs saying where the matcher stands: its last full pass and last
 * run (what they scored and wrote, how long they took), and how far the one-time pass over
 * closed markets has gone — the long work behind the candidates.
 */
import { useMatcherStatus } from "./api";
import venue from "./cross-venue.module.css";
import { matcherStatusText } from "./matcher-status-model";

export function MatcherStatus() {
  const status = useMatcherStatus();
  if (status.isPending) return <p className={venue.matcher}>Reading the matcher's runs…</p>;
  if (status.isError) return <p className={venue.matcher}>Could not read the matcher's runs: {status.error.message}</p>;
  return (
    <p className={venue.matcher} data-testid="matcher-status">
      {matcherStatusText(status.data)}
    </p>
  );
}
