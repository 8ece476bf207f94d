/**
 * The market page's line from the resolutions ledger: how the market settled, through
 * whom, the steps of its resolution the archive saw, and the last price before the close
 * ("Resolved YES on Dec 31, 2025 09:10 UTC via UMA, proposed Dec 30 14:00 UTC, disputed
 * Dec 30 20:00 UTC; last price 0.88"). Every time is UTC, as in the ledger.
 */
import type { MarketResolution } from "@epicenter/contracts";

export function formatUtc(iso: string): string {
  const date = new Date(iso);
  const day = date.toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
  const time = date.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: "UTC" });
  return `${day} ${time} UTC`;
}

const price = (value: number) => String(Math.round(value * 1000) / 1000);

/** What it settled at, as a reader says it. */
function outcomeWords(resolution: MarketResolution): string {
  const { outcome_type: type, winning_outcome: winner, payouts } = resolution;
  if (type === "yes" || type === "no") {
    const label = winner ?? (type === "yes" ? "Yes" : "No");
    return `Resolved ${/^(yes|no)$/i.test(label) ? label.toUpperCase() : label}`;
  }
  if (type === "split")
    return payouts.every((p) => p === 0.5) ? "Resolved 50-50" : `Resolved split ${payouts.map(price).join(" / ")}`;
  if (type === "scalar") return `Settled at ${price(resolution.scalar_value ?? payouts[0] ?? 0)} per Yes contract`;
  return "Voided, positions returned at cost";
}

/** Through whom: the UMA oracle, or the venue itself (Kalshi's settlement, Polymarket before UMA). */
const via = (resolution: MarketResolution) => (resolution.source === "UMA" ? "via UMA" : `by ${resolution.source}`);

export function resolutionLine(resolution: MarketResolution): string {
  const parts = [outcomeWords(resolution)];
  const settled = resolution.resolved_at ?? resolution.closed_at;
  parts[0] += `${settled ? ` on ${formatUtc(settled)}` : ""} ${via(resolution)}`;
  if (resolution.proposed_at) parts.push(`proposed ${formatUtc(resolution.proposed_at)}`);
  if (resolution.disputed_at) parts.push(`disputed ${formatUtc(resolution.disputed_at)}`);
  else if (resolution.disputed) parts.push("disputed");
  let line = parts.join(", ");
  if (resolution.end_date && settled && Date.parse(settled) > Date.parse(resolution.end_date)) {
    line += `, after its scheduled end (${formatUtc(resolution.end_date)})`;
  }
  if (resolution.flipped) line += "; the outcome changed after it was first published";
  const last = resolution.last_prices[0];
  line +=
    last === undefined || !resolution.last_price_at
      ? "; no price captured before the close"
      : `; last price ${price(last)} (${formatUtc(resolution.last_price_at)}, ${resolution.last_price_from === "history" ? "price history" : "snapshot"})`;
  return `${line}.`;
}
