/**
 * One line above the pairs saying where the matcher stands: its last full pass and last
 * run (what they scored and wrote, how long they took), and how far the one-time pass over
 * closed markets has gone — the long work behind the candidates.
 */
import type { MatcherRun, MatcherStatus as Status } from "@epicenter/contracts";
import { formatRelative } from "../../lib/time";
import { formatCount, formatDate, formatDuration } from "../../ui/format";
import { useMatcherStatus } from "./api";
import venue from "./cross-venue.module.css";

export function MatcherStatus() {
  const status = useMatcherStatus();
  if (status.isPending) return <p className={venue.matcher}>Reading the matcher's runs…</p>;
  if (status.isError) return <p className={venue.matcher}>Could not read the matcher's runs: {status.error.message}</p>;
  return (
    <p className={venue.matcher} data-testid="matcher-status">
      {runsText(status.data)} {closedText(status.data.closed_pass)}
    </p>
  );
}

function runText(run: MatcherRun): string {
  const changes = [
    `${formatCount(run.written)} written`,
    ...(run.retired > 0 ? [`${formatCount(run.retired)} retired`] : []),
  ].join(", ");
  // Most runs take well under a second: tenths of one, then the product's durations.
  const took =
    run.duration_ms < 60_000 ? `${(run.duration_ms / 1000).toFixed(1)} s` : formatDuration(run.duration_ms / 1000);
  // In the middle of a sentence: "just now", "3 minutes ago".
  const when = formatRelative(run.started_at);
  return `${when.charAt(0).toLowerCase()}${when.slice(1)}: ${formatCount(run.candidates)} candidates scored, ${changes}, in ${took}`;
}

function runsText({ last_full, last_run }: Status): string {
  if (!last_full && !last_run)
    return "The matcher has not run yet: it pairs the markets after the first snapshot of each venue.";
  const parts = [];
  if (last_full) parts.push(`Last full pass ${runText(last_full)}.`);
  if (last_run && last_run.pass !== "full") parts.push(`Last run ${runText(last_run)}.`);
  return parts.join(" ");
}

function closedText(closed: Status["closed_pass"]): string {
  switch (closed.state) {
    case "waiting":
      return "Closed markets: paired once the backfills are in.";
    case "running":
      return `Closed markets: paired through ${formatDate(closed.paired_through)}, a week after each run.`;
    case "done":
      return "Closed markets: all paired once.";
  }
}
