/**
 * The market page's decisions that are plain data, kept out of the components so they
 * are tested without a browser: which interval a market opens at, the span asked for
 * 1-minute points, the rows the price and volume charts share, where the resolution sits
 * on the chart's time axis, and the latest snapshot's fields as a searchable list.
 */
import {
  type HistoryInterval,
  type Market,
  type MarketHistory,
  type MarketStatus,
  VENUE_FACTS,
  VENUES,
  type Venue,
  type VolumeUnit,
} from "@epicenter/contracts";
import type { BadgeTone } from "../../ui/Badge";
import { formatValue } from "../../ui/format";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Above this many days of life, hourly points are too many for one chart: days first. */
const HOURLY_DAYS = 60;
/** The span one 1-minute chart shows (the API's own default). */
export const MINUTE_SPAN_DAYS = 3;

export const INTERVAL_TABS: ReadonlyArray<{ id: HistoryInterval; label: string }> = [
  { id: "1d", label: "1d" },
  { id: "1h", label: "1h" },
  { id: "1m", label: "1m" },
];

/** Each venue's name as the product writes it. */
export const VENUE_NAMES = Object.fromEntries(VENUES.map((venue) => [venue, VENUE_FACTS[venue].label])) as Record<
  Venue,
  string
>;

export const STATUS_TONES: Record<MarketStatus, BadgeTone> = { open: "success", closed: "warning", resolved: "info" };
export const STATUS_LABELS: Record<MarketStatus, string> = { open: "Open", closed: "Closed", resolved: "Resolved" };

type Life = Pick<Market, "opened_at" | "closes_at" | "resolved_at" | "status" | "history" | "snapshot_at">;

const timeOf = (value: string | null | undefined): number | null => {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : time;
};

/**
 * The header's date: when an open market closes, when a closed one closed, when a
 * resolved one resolved. An open market past its close date says it awaits its result
 * rather than that it closes in the past.
 */
export function closeLine(
  market: Pick<Market, "status" | "closes_at" | "resolved_at">,
  now: number,
): { label: string; at: string | null; note: string | null } {
  if (market.status === "resolved")
    return { label: "Resolved", at: market.resolved_at ?? market.closes_at, note: null };
  if (market.status === "closed") return { label: "Closed", at: market.closes_at, note: null };
  const closes = timeOf(market.closes_at);
  if (closes !== null && closes <= now) {
    return { label: "Close date passed", at: market.closes_at, note: "still open on the venue, awaiting its result" };
  }
  return { label: "Closes", at: market.closes_at, note: null };
}

/** When the market stopped trading, for one that has: resolved, else closed, else its last point. */
function endOf(market: Life, now: number): number {
  if (market.status === "open") return now;
  const end =
    timeOf(market.resolved_at) ?? timeOf(market.closes_at) ?? timeOf(market.history.last) ?? timeOf(market.snapshot_at);
  return Math.min(now, end ?? now);
}

/** Days in a market's life, or for one still trading the days it has traded so far. */
export function lifeDays(market: Life, now: number): number {
  const start = timeOf(market.history.first) ?? timeOf(market.opened_at) ?? timeOf(market.snapshot_at) ?? now;
  return Math.max(0, endOf(market, now) - start) / DAY_MS;
}

/** The interval the page opens at: hours for a life the chart can hold hour by hour, days beyond. */
export function defaultInterval(market: Life, now: number): HistoryInterval {
  return lifeDays(market, now) > HOURLY_DAYS ? "1d" : "1h";
}

/**
 * The span asked for 1-minute points, which cover days, not a life: the last days of an
 * open market (the API's default, so nothing is sent), or the days before a closed one
 * stopped trading, where its last minutes are.
 */
export function minuteSpan(market: Life, now: number): { from: string; to: string } | undefined {
  if (market.status === "open") return undefined;
  // A little past the end, so the last minutes and the resolution are in the span.
  const to = Math.min(now, endOf(market, now) + HOUR_MS);
  return { from: new Date(to - MINUTE_SPAN_DAYS * DAY_MS).toISOString(), to: new Date(to).toISOString() };
}

/** One row of the charts: the interval's start, each outcome's close under its series key, the volume. */
export type ChartRow = Record<string, string | number | null>;

export interface ChartData {
  rows: ChartRow[];
  /** The price chart's series: a key per outcome (`o0`, `o1`…: labels can be any text) and its label. */
  series: { key: string; label: string }[];
  hasVolume: boolean;
  /** The time of the row the resolution falls in, for the marker; null when unresolved or outside the span. */
  resolutionAt: string | null;
}

/** The key the x axis reads: a day as a date (`2026-03-01`), anything finer as the instant. */
export const X_KEY = "t";
export const VOLUME_KEY = "volume";

function xOf(iso: string, interval: HistoryInterval): string {
  return interval === "1d" ? iso.slice(0, 10) : iso;
}

/**
 * The price series and the volume bars on one time axis, so the two charts line up: a row
 * per interval that has a price or a volume, in time order. A missing close stays null (a
 * gap), never 0.
 */
export function chartDataOf(history: MarketHistory): ChartData {
  const byTime = new Map<string, ChartRow>();
  const rowAt = (iso: string) => {
    let row = byTime.get(iso);
    if (!row) {
      row = { [X_KEY]: xOf(iso, history.interval) };
      byTime.set(iso, row);
    }
    return row;
  };
  const series = history.outcomes.map((outcome, index) => ({ key: `o${index}`, label: outcome.label }));
  history.outcomes.forEach((outcome, index) => {
    for (const point of outcome.points) rowAt(point.t)[`o${index}`] = point.close;
  });
  for (const bar of history.volume) rowAt(bar.t)[VOLUME_KEY] = bar.volume;
  const times = [...byTime.keys()].sort();
  const rows = times.map((time) => {
    const row = byTime.get(time) as ChartRow;
    for (const { key } of series) if (!(key in row)) row[key] = null;
    if (!(VOLUME_KEY in row)) row[VOLUME_KEY] = null;
    return row;
  });
  return {
    rows,
    series,
    hasVolume: history.volume.length > 0,
    resolutionAt: history.resolution ? resolutionRow(times, history.resolution.at, history.interval) : null,
  };
}

/**
 * The x value of the interval the resolution falls in: the last row starting at or before
 * it, when it is within the drawn span (at most one interval past the last row).
 */
export function resolutionRow(times: readonly string[], at: string, interval: HistoryInterval): string | null {
  const when = Date.parse(at);
  const step = interval === "1d" ? DAY_MS : interval === "1h" ? HOUR_MS : 60_000;
  let found: string | null = null;
  for (const time of times) {
    if (Date.parse(time) <= when) found = time;
    else break;
  }
  if (found === null || when - Date.parse(found) >= step * 2) return null;
  return xOf(found, interval);
}

/** The note under the chart's title when the prices are not the venue's own record. */
export function sourceNote(source: MarketHistory["source"]): string | null {
  switch (source) {
    case "history":
      return null;
    case "snapshots":
      return "No venue history archived yet; drawn from Epicenter's 10-minute snapshots.";
    case "none":
      return "No prices in this span: the archive holds no venue history and no snapshots for it.";
    default: {
      const unknown: never = source;
      return String(unknown);
    }
  }
}

/** Longest value shown in the field list; the rest is one click away in the editor. */
export const FIELD_TEXT_LIMIT = 400;

export interface LatestField {
  name: string;
  text: string;
  /** NULL or an empty string or list: drawn faint, as a word rather than as nothing. */
  isBlank: boolean;
}

/** The latest snapshot's columns as name and text, in the table's order. */
export function latestFields(latest: Record<string, unknown>): LatestField[] {
  return Object.entries(latest).map(([name, value]) => {
    if (value === null || value === undefined) return { name, text: "NULL", isBlank: true };
    if (value === "") return { name, text: "(empty)", isBlank: true };
    const raw = typeof value === "string" ? value : JSON.stringify(value);
    const text = raw.length > FIELD_TEXT_LIMIT ? `${raw.slice(0, FIELD_TEXT_LIMIT)}…` : raw;
    return { name, text, isBlank: raw === "[]" };
  });
}

/** Money as the venue counts it: whole dollars, with cents below $100 so $0.01 does not read as $0. */
export function formatMoney(value: number | null): string {
  if (value === null) return "—";
  if (Math.abs(value) >= 100) return `$${Math.round(value).toLocaleString("en-US")}`;
  return `$${value.toFixed(2)}`;
}

/** A market's lifetime volume in its venue's unit: money as dollars, contracts as a count. */
export function formatVolume(value: number | null, unit: VolumeUnit): string {
  return unit === "usd" ? formatMoney(value) : formatValue(value, "contracts");
}

/** The search over the field list: the column's name or its value, ignoring case. */
export function matchesField(field: LatestField, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return field.name.toLowerCase().includes(needle) || field.text.toLowerCase().includes(needle);
}

/**
 * The coverage ledger's word on the market's history, one sentence: complete, up to date
 * (until when), refused by the venue (its answer, and when it is tried again), or not
 * fetched yet.
 */
export function coverageSentence(history: Market["history"], format: (iso: string) => string): string {
  switch (history.state) {
    case "complete":
      return "History complete: the market's whole life is archived.";
    case "current":
      return history.until ? `History up to date to ${format(history.until)} UTC.` : "History up to date.";
    case "upstream error":
      return `History incomplete: the venue answered “${history.error ?? "an error"}”${
        history.retry_at ? `; tried again at ${format(history.retry_at)} UTC` : ""
      }.`;
    default:
      return "History not archived yet: open markets are fetched first, closing soonest first.";
  }
}
