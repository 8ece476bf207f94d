/**
 * The words of the matcher's status line (Admin → Cross-venue): its last full pass and last
 * run, and how far the one-time pass over closed markets has gone. Pure, for the tests.
 */
import type { MatcherRun, MatcherStatus } from "@epicenter/contracts";
import { formatRelative } from "../../lib/time";
import { formatCount, formatDate, formatDuration } from "../../ui/format";

export function matcherStatusText(status: MatcherStatus, now: Date = new Date()): string {
  return `${runsText(status, now)} ${closedText(status.closed_pass)}`;
}

function runText(run: MatcherRun, now: Date): string {
  const changes = [
    `${formatCount(run.written)} written`,
    ...(run.retired > 0 ? [`${formatCount(run.retired)} retired`] : []),
  ].join(", ");
  // Most runs take well under a second: tenths of one, then the product's durations.
  const took =
    run.duration_ms < 60_000 ? `${(run.duration_ms / 1000).toFixed(1)} s` : formatDuration(run.duration_ms / 1000);
  // In the middle of a sentence: "just now", "3 minutes ago".
  const when = formatRelative(run.started_at, now);
  return `${when.charAt(0).toLowerCase()}${when.slice(1)}: ${formatCount(run.candidates)} candidates scored, ${changes}, in ${took}`;
}

function runsText({ last_full, last_run }: MatcherStatus, now: Date): string {
  if (!last_full && !last_run)
    return "The matcher has not run yet: it pairs the markets after the first snapshot of each venue.";
  const parts = [];
  if (last_full) parts.push(`Last full pass ${runText(last_full, now)}.`);
  if (last_run && last_run.pass !== "full") parts.push(`Last run ${runText(last_run, now)}.`);
  return parts.join(" ");
}

function closedText(closed: MatcherStatus["closed_pass"]): string {
  switch (closed.state) {
    case "waiting":
      return "Closed markets: paired once the backfills are in.";
    case "running":
      return `Closed markets: paired through ${formatDate(closed.paired_through)}, one more week of close dates after each run.`;
    case "done":
      return "Closed markets: all paired once.";
  }
}
