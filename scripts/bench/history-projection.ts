/**
 * From the measured requests per market to the time the whole archive's history would
 * take at the venues' documented limits. Pure arithmetic, kept apart so the assumptions
 * are in one place and the report states them as they are used:
 *
 * - a market's first fetch costs what it cost on average in the benchmark, for its class
 *   (open or closed), on each host; the replay server's market lives decide that, so the
 *   figure moves with how long real markets live;
 * - each host is used at its limit as the product's limiter enforces it (Polymarket CLOB
 *   900 and Data API 270 per 10 s, Kalshi 18 per s), and the slowest host for a class
 *   sets its pace; Kalshi's limit is shared with its snapshots (one every 10 minutes, pages
 *   per market as measured, over all open markets);
 * - open markets first, then closed ones; with the hourly refresh of every open market
 *   running beside the closed ones (the worker's default), only what the refresh leaves of
 *   each host goes to them.
 */
import type { MarketClass, RequestTally, VenueBackfill } from "./history-backfill";

export const ARCHIVE = { open: 150_000, closed: 1_000_000 } as const;
const SNAPSHOT_INTERVAL_S = 600;
const REFRESH_INTERVAL_S = 3_600;

export interface VenueProjection {
  venue: string;
  /** Requests per market by host: first fetch by class, and an open market's refresh. */
  perMarket: Record<MarketClass | "refresh", Record<string, number>>;
  /** Each host's limit, requests per second, and the part of it snapshots take. */
  limits: Array<{ host: string; perSecond: number; snapshotPerSecond: number; refreshPerSecond: number }>;
  /** Markets per hour at the limits, and the host that sets the pace. */
  atLimit: Record<MarketClass, { perHour: number; bottleneck: string }>;
  openHours: number;
  closedHours: number;
  /** Closed markets' hours with every open market refreshed hourly beside them; null if the refresh alone is over a limit. */
  closedHoursWithRefresh: number | null;
  /** The benchmark's own pace (replay server, this machine), markets per minute. */
  measuredPerMinute: Record<MarketClass | "refresh", number>;
  measuredHours: number;
}

const perMarket = (tally: RequestTally): Record<string, number> =>
  Object.fromEntries(
    Object.entries(tally.requests).map(([host, n]) => [host, tally.markets > 0 ? n / tally.markets : 0]),
  );

function pace(requests: Record<string, number>, capacity: Record<string, number>) {
  let perSecond = Number.POSITIVE_INFINITY;
  let bottleneck = "–";
  for (const [host, n] of Object.entries(requests)) {
    if (n <= 0) continue;
    const rate = (capacity[host] ?? 0) / n;
    if (rate < perSecond) {
      perSecond = rate;
      bottleneck = host;
    }
  }
  return { perSecond: Math.max(0, perSecond), bottleneck };
}

export function projectVenue(v: VenueBackfill): VenueProjection {
  const first = { open: perMarket(v.initial.open), closed: perMarket(v.initial.closed) };
  const refresh = perMarket(v.refresh);
  const snapshotPages = v.snapshot.markets > 0 ? (v.snapshot.pages / v.snapshot.markets) * ARCHIVE.open : 0;
  const limits = v.hosts.map((host) => ({
    host: host.name,
    perSecond: host.perSecond,
    snapshotPerSecond: v.snapshot.sharesHost && host.name === v.venue ? snapshotPages / SNAPSHOT_INTERVAL_S : 0,
    refreshPerSecond: ((refresh[host.name] ?? 0) * ARCHIVE.open) / REFRESH_INTERVAL_S,
  }));
  const capacity = Object.fromEntries(limits.map((l) => [l.host, l.perSecond - l.snapshotPerSecond]));
  const left = Object.fromEntries(limits.map((l) => [l.host, l.perSecond - l.snapshotPerSecond - l.refreshPerSecond]));
  const open = pace(first.open, capacity);
  const closed = pace(first.closed, capacity);
  const closedWithRefresh = pace(first.closed, left);
  const rate = (markets: number, seconds: number) => (seconds > 0 ? (markets / seconds) * 60 : Number.NaN);
  const byName = (name: string) => v.segments.find((s) => s.name === name);
  const measuredPerMinute = {
    open: rate(byName("open first")?.markets.open ?? 0, byName("open first")?.seconds ?? 0),
    closed: rate(byName("closed")?.markets.closed ?? 0, byName("closed")?.seconds ?? 0),
    refresh: rate(byName("refresh")?.markets.open ?? 0, byName("refresh")?.seconds ?? 0),
  };
  return {
    venue: v.venue,
    perMarket: { ...first, refresh },
    limits,
    atLimit: {
      open: { perHour: open.perSecond * 3600, bottleneck: open.bottleneck },
      closed: { perHour: closed.perSecond * 3600, bottleneck: closed.bottleneck },
    },
    openHours: ARCHIVE.open / (open.perSecond * 3600),
    closedHours: ARCHIVE.closed / (closed.perSecond * 3600),
    closedHoursWithRefresh:
      closedWithRefresh.perSecond > 0 && Object.values(left).every((x) => x > 0)
        ? ARCHIVE.closed / (closedWithRefresh.perSecond * 3600)
        : null,
    measuredPerMinute,
    measuredHours: ARCHIVE.open / measuredPerMinute.open / 60 + ARCHIVE.closed / measuredPerMinute.closed / 60,
  };
}
