/**
 * One market of either venue as the market page and the API read it: the latest
 * snapshot, how much history the archive holds, the price path and volume per interval
 * (the venue's own history, else the snapshots), and a search over both venues.
 *
 * Each venue is read through its reader (`services/venues/`): the statements behind each
 * panel take the id and span as typed parameters and travel with the answer, so "Query in
 * Editor" opens what the page drew, with its values. They run on the app's warehouse
 * connection, like the catalog and the platform statistics: fixed statements, nothing of
 * the caller's but bound values.
 */
import type { HistoryInterval, Market, MarketHistory, MarketSummary, PricePoint, Venue } from "@epicenter/contracts";
import { MAX_MINUTE_SPAN_DAYS, VENUES } from "@epicenter/contracts";
import { isoTimeOf, type Warehouse } from "@epicenter/warehouse";
import { invalid, notFound as missing } from "../errors";
import { type BoundQuery, type Span, VENUE_READERS, type VenueReading } from "../venues";
import { earliest, numberOf, type Row, textOf } from "../venues/venue";
import { readResolution, resolutionQuery } from "./resolution";

export interface MarketDeps {
  warehouse: Warehouse;
  clock: () => Date;
}

/** Most points one history answer carries, all outcomes together. */
export const MAX_HISTORY_POINTS = 50_000;
const DAY_MS = 86_400_000;

const run = <T>(deps: MarketDeps, query: BoundQuery, limit?: number) =>
  deps.warehouse.query<T>(limit === undefined ? query.sql : `${query.sql}\nLIMIT ${limit}`, {
    params: query.params,
  });

const notFound = (venue: Venue, id: string) =>
  missing(`No ${VENUE_READERS[venue].facts.label} market ${id} in the archive.`);

async function latestRow(deps: MarketDeps, venue: Venue, id: string): Promise<{ row: Row; reading: VenueReading }> {
  const reader = VENUE_READERS[venue];
  const [row] = await run<Row>(deps, reader.panels.latest(id));
  if (!row) throw notFound(venue, id);
  return { row, reading: reader.read(row) };
}

export async function getMarket(deps: MarketDeps, venue: Venue, id: string): Promise<Market> {
  const sql = VENUE_READERS[venue].panels;
  const { row, reading } = await latestRow(deps, venue, id);
  const [[event], [coverage], resolution] = await Promise.all([
    run<{ title: string; slug: string }>(deps, sql.event(reading.eventId)),
    run<{
      points: string;
      first: string;
      last: string;
      trades: string;
      ledger: [string, string, string, string | null];
    }>(deps, sql.coverage(id)),
    readResolution(deps.warehouse, venue, id),
  ]);
  const [state, until, error, retryAt] = coverage?.ledger ?? ["", null, "", null];
  const points = Number(coverage?.points ?? 0);
  const to = deps.clock();
  const from = new Date(Date.parse(reading.openedAt ?? isoTimeOf(coverage?.first) ?? to.toISOString()) - DAY_MS);
  return {
    venue,
    id,
    question: reading.question,
    subtitle: reading.subtitle,
    event: { id: reading.eventId, title: textOf(event?.title) },
    status: reading.status,
    outcomes: reading.outcomes,
    result: reading.result,
    opened_at: reading.openedAt,
    closes_at: reading.closesAt,
    resolved_at: reading.resolvedAt,
    volume: reading.volume,
    liquidity: reading.liquidity,
    open_interest: reading.openInterest,
    url: reading.url({ slug: textOf(event?.slug) }),
    snapshot_at: isoTimeOf(row.sync_timestamp) ?? to.toISOString(),
    history: {
      points,
      trades: Number(coverage?.trades ?? 0),
      first: points > 0 ? isoTimeOf(coverage?.first) : null,
      last: points > 0 ? isoTimeOf(coverage?.last) : null,
      state: state === "complete" || state === "current" || state === "upstream error" ? state : "not reached",
      until: state ? isoTimeOf(until) : null,
      error: error ? error : null,
      retry_at: state === "upstream error" ? isoTimeOf(retryAt) : null,
    },
    resolution,
    latest: row,
    queries: {
      latest: sql.latest(id),
      prices: sql.prices(id, "1h", { from, to }),
      volume: sql.volume(id, "1h"),
      trades: sql.trades(id),
      resolution: resolutionQuery(venue, id),
    },
  };
}

/**
 * The span a history request covers: as asked, else the market's life (3 days for
 * 1-minute points, which cover at most `MAX_MINUTE_SPAN_DAYS`).
 */
export function spanOf(
  interval: HistoryInterval,
  asked: { from?: string | undefined; to?: string | undefined },
  openedAt: string | null,
  now: Date,
): Span {
  const to = asked.to ? new Date(asked.to) : now;
  const from = asked.from
    ? new Date(asked.from)
    : interval === "1m"
      ? new Date(to.getTime() - 3 * DAY_MS)
      : new Date(Date.parse(openedAt ?? to.toISOString()) - DAY_MS);
  if (from.getTime() >= to.getTime()) {
    throw invalid("Invalid query. from: must be before to.");
  }
  if (interval === "1m" && to.getTime() - from.getTime() > MAX_MINUTE_SPAN_DAYS * DAY_MS) {
    throw invalid(
      `Invalid query. 1-minute points cover at most ${MAX_MINUTE_SPAN_DAYS} days per request; narrow from and to, or ask for 1h.`,
    );
  }
  return { from, to };
}

interface PriceRow {
  outcome: string;
  t: string;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number | null;
}

export async function getMarketHistory(
  deps: MarketDeps,
  venue: Venue,
  id: string,
  query: { interval: HistoryInterval; from?: string | undefined; to?: string | undefined },
): Promise<MarketHistory> {
  const sql = VENUE_READERS[venue].panels;
  const { reading } = await latestRow(deps, venue, id);
  // The whole archived life: from the market's opening, or its first archived point when
  // the archive reaches further back than the venue's open time says.
  const [first] = query.from ? [] : await run<{ first: string }>(deps, sql.firstPoint(id));
  const start = earliest(reading.openedAt, isoTimeOf(first?.first));
  const span = spanOf(query.interval, query, start, deps.clock());
  const prices = sql.prices(id, query.interval, span);
  const limit = MAX_HISTORY_POINTS + 1;
  let rows = await run<PriceRow>(deps, prices, limit);
  let source: MarketHistory["source"] = "history";
  if (rows.length === 0) {
    rows = await run<PriceRow>(deps, sql.snapshotPrices(id, query.interval, span), limit);
    source = rows.length > 0 ? "snapshots" : "none";
  }
  const volume = await run<{ t: string; volume: number | string | null }>(
    deps,
    sql.volume(id, query.interval, span),
    limit,
  );
  const truncated = rows.length > MAX_HISTORY_POINTS;
  const byOutcome = new Map<string, PricePoint[]>();
  for (const row of rows.slice(0, MAX_HISTORY_POINTS)) {
    const t = isoTimeOf(row.t);
    if (!t) continue;
    const points = byOutcome.get(row.outcome) ?? [];
    points.push({
      t,
      open: numberOf(row.open),
      high: numberOf(row.high),
      low: numberOf(row.low),
      close: numberOf(row.close),
    });
    byOutcome.set(row.outcome, points);
  }
  // The venue's order of outcomes (Yes before No), then any other label the history holds.
  const labels = [...reading.outcomes.map((outcome) => outcome.label), ...byOutcome.keys()];
  const outcomes = [...new Set(labels)]
    .filter((label) => byOutcome.has(label))
    .map((label) => ({ label, points: byOutcome.get(label) ?? [] }));
  return {
    venue,
    id,
    interval: query.interval,
    source,
    outcomes,
    volume: volume.slice(0, MAX_HISTORY_POINTS).flatMap((row) => {
      const t = isoTimeOf(row.t);
      const amount = numberOf(row.volume);
      return t && amount !== null ? [{ t, volume: amount }] : [];
    }),
    resolution: reading.resolvedAt && reading.result ? { at: reading.resolvedAt, outcome: reading.result } : null,
    truncated: truncated || volume.length > MAX_HISTORY_POINTS,
    query: prices,
  };
}

export async function searchMarkets(
  deps: MarketDeps,
  query: { q: string; venue?: Venue | undefined; limit: number },
): Promise<MarketSummary[]> {
  const words = query.q.split(/\s+/).filter(Boolean).slice(0, 8);
  const venues: readonly Venue[] = query.venue ? [query.venue] : VENUES;
  const found = await Promise.all(
    venues.map(async (venue) => {
      const reader = VENUE_READERS[venue];
      const rows = await deps.warehouse.query<Row>(reader.panels.search, {
        params: { q: query.q, words, limit: query.limit },
      });
      return rows.map((row): MarketSummary => {
        const reading = reader.read(row);
        return {
          venue,
          id: String(row.id),
          question: reading.question,
          subtitle: reading.subtitle,
          status: reading.status,
          volume: reading.volume,
          closes_at: isoTimeOf(row.closes),
        };
      });
    }),
  );
  // Each venue's list is open markets first, then by volume; volumes are in different
  // units (money, contracts), so the venues alternate rather than one drowning the other.
  const merged: MarketSummary[] = [];
  for (let index = 0; merged.length < query.limit && found.some((list) => index < list.length); index++) {
    for (const list of found) {
      const market = list[index];
      if (market && merged.length < query.limit) merged.push(market);
    }
  }
  return merged;
}
