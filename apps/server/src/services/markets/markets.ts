/**
 * One market of either venue as the market page and the API read it: the latest
 * snapshot, how much history the archive holds, the price path and volume per interval
 * (the venue's own history, else the snapshots), and a search over both venues.
 *
 * These are fixed queries over the market tables with no SQL from the caller (the id has
 * passed the contract's pattern), so they run on the app's warehouse connection, like the
 * catalog and the platform statistics; the SQL behind each panel travels with the answer
 * (`market-sql.ts`) and opens in the editor, where it runs in the sandbox like any other.
 */
import {
  type HistoryInterval,
  MAX_MINUTE_SPAN_DAYS,
  type Market,
  type MarketHistory,
  type MarketStatus,
  type MarketSummary,
  type PricePoint,
  type Venue,
} from "@epicenter/contracts";
import type { Warehouse } from "@epicenter/warehouse";
import { HttpError } from "../../http/errors";
import { MARKET_SQL, type Span } from "./market-sql";

export interface MarketDeps {
  warehouse: Warehouse;
  clock: () => Date;
}

type Row = Record<string, unknown>;

/** Most points one history answer carries, all outcomes together. */
export const MAX_HISTORY_POINTS = 50_000;
const DAY_MS = 86_400_000;

/** `2026-03-01 12:00:00(.000)` as the engine writes a UTC time → ISO 8601; null stays null. */
export function isoOf(value: unknown): string | null {
  if (value === null || value === undefined || value === "") return null;
  const text = String(value);
  if (text.startsWith("1970-01-01 00:00:00")) return null;
  const date = new Date(`${text.replace(" ", "T")}${text.endsWith("Z") ? "" : "Z"}`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

const numberOf = (value: unknown): number | null => {
  if (value === null || value === undefined || value === "") return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
};

const textOf = (value: unknown): string | null =>
  value === null || value === undefined || value === "" ? null : String(value);

/** The venue-specific reading of a latest row into the shared shape. */
interface VenueReading {
  question: string;
  subtitle: string | null;
  eventId: string;
  status: MarketStatus;
  outcomes: Market["outcomes"];
  result: string | null;
  openedAt: string | null;
  closesAt: string | null;
  resolvedAt: string | null;
  volume: number | null;
  liquidity: number | null;
  openInterest: number | null;
  url: (event: { slug: string | null }) => string;
}

function readPolymarket(row: Row): VenueReading {
  const labels = (row.outcomes as string[] | undefined) ?? [];
  const prices = (row.outcomePrices as number[] | undefined) ?? [];
  const tokens = (row.clobTokenIds as string[] | undefined) ?? [];
  const isClosed = row.closed === true;
  // Resolved once the oracle says so, or the prices have settled on one outcome.
  const winner = prices.indexOf(1);
  const isSettled = winner >= 0 && prices.every((price, index) => index === winner || price === 0);
  const isResolved = isClosed && (row.umaResolutionStatus === "resolved" || isSettled);
  return {
    question: String(row.question ?? ""),
    subtitle: textOf(row.groupItemTitle),
    eventId: String(row.event_id ?? ""),
    status: isResolved ? "resolved" : isClosed ? "closed" : "open",
    outcomes: labels.map((label, index) => ({
      label,
      token_id: tokens[index] ?? null,
      price: numberOf(prices[index]),
    })),
    result: isResolved && winner >= 0 ? (labels[winner] ?? null) : null,
    openedAt: isoOf(row.startDate) ?? isoOf(row.createdAt),
    closesAt: isoOf(row.endDate),
    resolvedAt: isResolved ? (isoOf(row.closedTime) ?? isoOf(row.endDate)) : null,
    volume: numberOf(row.volume),
    liquidity: numberOf(row.liquidity),
    openInterest: null,
    url: (event) => `https://polymarket.com/event/${encodeURIComponent(event.slug ?? String(row.slug ?? ""))}`,
  };
}

const KALSHI_OPEN = new Set(["active", "open"]);
const KALSHI_RESOLVED = new Set(["determined", "finalized", "settled"]);

function readKalshi(row: Row): VenueReading {
  const status = String(row.status ?? "");
  const result = String(row.result ?? "").toLowerCase();
  const isResolved = KALSHI_RESOLVED.has(status) && (result === "yes" || result === "no");
  const last = numberOf(row.last_price_dollars);
  return {
    question: String(row.title ?? ""),
    subtitle: textOf(row.yes_sub_title),
    eventId: String(row.event_ticker ?? ""),
    status: isResolved ? "resolved" : KALSHI_OPEN.has(status) ? "open" : "closed",
    outcomes: [
      { label: "Yes", token_id: null, price: last },
      { label: "No", token_id: null, price: last === null ? null : Math.round((1 - last) * 10_000) / 10_000 },
    ],
    result: isResolved ? (result === "yes" ? "Yes" : "No") : null,
    openedAt: isoOf(row.open_time),
    closesAt: isoOf(row.close_time),
    // When it settled; without `settlement_ts`, its close, unless that is a backstop date
    // after the venue's last update (a market settled early): then that update.
    resolvedAt: isResolved
      ? (isoOf(row.settlement_ts) ??
        earliest(isoOf(row.close_time), isoOf(row.updated_time) ?? isoOf(row.sync_timestamp)))
      : null,
    volume: numberOf(row.volume),
    liquidity: numberOf(row.liquidity_dollars),
    openInterest: numberOf(row.open_interest),
    url: (event) => `https://kalshi.com/markets/${encodeURIComponent((event.slug ?? "").toLowerCase())}`,
  };
}

const READ: Record<Venue, (row: Row) => VenueReading> = { polymarket: readPolymarket, kalshi: readKalshi };

const notFound = (venue: Venue, id: string) =>
  new HttpError(
    404,
    "not_found",
    `No ${venue === "polymarket" ? "Polymarket" : "Kalshi"} market ${id} in the archive.`,
  );

async function latestRow(deps: MarketDeps, venue: Venue, id: string): Promise<{ row: Row; reading: VenueReading }> {
  const [row] = await deps.warehouse.query<Row>(MARKET_SQL[venue].latest(id).sql);
  if (!row) throw notFound(venue, id);
  return { row, reading: READ[venue](row) };
}

export async function getMarket(deps: MarketDeps, venue: Venue, id: string): Promise<Market> {
  const sql = MARKET_SQL[venue];
  const { row, reading } = await latestRow(deps, venue, id);
  const [[event], [coverage]] = await Promise.all([
    deps.warehouse.query<{ title: string; slug: string }>(sql.event(reading.eventId)),
    deps.warehouse.query<{ points: string; first: string; last: string; trades: string }>(sql.coverage(id)),
  ]);
  const points = Number(coverage?.points ?? 0);
  const to = deps.clock();
  const from = new Date(Date.parse(reading.openedAt ?? isoOf(coverage?.first) ?? to.toISOString()) - DAY_MS);
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
    snapshot_at: isoOf(row.sync_timestamp) ?? to.toISOString(),
    history: {
      points,
      trades: Number(coverage?.trades ?? 0),
      first: points > 0 ? isoOf(coverage?.first) : null,
      last: points > 0 ? isoOf(coverage?.last) : null,
    },
    latest: row,
    queries: {
      latest: sql.latest(id),
      prices: sql.prices(id, "1h", { from, to }),
      volume: sql.volume(id, "1h"),
      trades: sql.trades(id),
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
    throw new HttpError(400, "bad_request", "Invalid query. from: must be before to.");
  }
  if (interval === "1m" && to.getTime() - from.getTime() > MAX_MINUTE_SPAN_DAYS * DAY_MS) {
    throw new HttpError(
      400,
      "bad_request",
      `Invalid query. 1-minute points cover at most ${MAX_MINUTE_SPAN_DAYS} days per request; narrow from and to, or ask for 1h.`,
    );
  }
  return { from, to };
}

function earliest(...times: Array<string | null>): string | null {
  const known = times.filter((time): time is string => time !== null && !Number.isNaN(Date.parse(time)));
  return known.length === 0 ? null : known.reduce((a, b) => (Date.parse(a) <= Date.parse(b) ? a : b));
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
  const sql = MARKET_SQL[venue];
  const { reading } = await latestRow(deps, venue, id);
  // The whole archived life: from the market's opening, or its first archived point when
  // the archive reaches further back than the venue's open time says.
  const [first] = query.from ? [] : await deps.warehouse.query<{ first: string }>(sql.firstPoint(id));
  const start = earliest(reading.openedAt, isoOf(first?.first));
  const span = spanOf(query.interval, query, start, deps.clock());
  const prices = sql.prices(id, query.interval, span);
  const limited = (text: string) => `${text}\nLIMIT ${MAX_HISTORY_POINTS + 1}`;
  let rows = await deps.warehouse.query<PriceRow>(limited(prices.sql));
  let source: MarketHistory["source"] = "history";
  if (rows.length === 0) {
    rows = await deps.warehouse.query<PriceRow>(limited(sql.snapshotPrices(id, query.interval, span)));
    source = rows.length > 0 ? "snapshots" : "none";
  }
  const volume = await deps.warehouse.query<{ t: string; volume: number | string | null }>(
    limited(sql.volume(id, query.interval, span).sql),
  );
  const truncated = rows.length > MAX_HISTORY_POINTS;
  const byOutcome = new Map<string, PricePoint[]>();
  for (const row of rows.slice(0, MAX_HISTORY_POINTS)) {
    const t = isoOf(row.t);
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
      const t = isoOf(row.t);
      const amount = numberOf(row.volume);
      return t && amount !== null ? [{ t, volume: amount }] : [];
    }),
    resolution: reading.resolvedAt && reading.result ? { at: reading.resolvedAt, outcome: reading.result } : null,
    truncated: truncated || volume.length > MAX_HISTORY_POINTS,
    query: prices,
  };
}

const SEARCH: Record<Venue, string> = {
  polymarket: `SELECT id, question, groupItemTitle, closed, umaResolutionStatus, outcomePrices,
    volume, endDate AS closes
  FROM polymarket.markets_latest FINAL
  WHERE id = {q:String}
     OR arrayAll(word -> positionCaseInsensitiveUTF8(concat(question, ' ', groupItemTitle), word) > 0, {words:Array(String)})
  ORDER BY ifNull(closed, false), volume DESC NULLS LAST
  LIMIT {limit:UInt32}`,
  kalshi: `SELECT ticker AS id, title, yes_sub_title, status, result, volume,
    close_time AS closes
  FROM kalshi.markets_latest FINAL
  WHERE ticker = upper({q:String})
     OR arrayAll(word -> positionCaseInsensitiveUTF8(concat(title, ' ', yes_sub_title, ' ', ticker), word) > 0, {words:Array(String)})
  ORDER BY status NOT IN ('active', 'open'), volume DESC NULLS LAST
  LIMIT {limit:UInt32}`,
};

export async function searchMarkets(
  deps: MarketDeps,
  query: { q: string; venue?: Venue | undefined; limit: number },
): Promise<MarketSummary[]> {
  const words = query.q.split(/\s+/).filter(Boolean).slice(0, 8);
  const venues: Venue[] = query.venue ? [query.venue] : ["polymarket", "kalshi"];
  const found = await Promise.all(
    venues.map(async (venue) => {
      const rows = await deps.warehouse.query<Row>(SEARCH[venue], {
        params: { q: query.q, words, limit: query.limit },
      });
      return rows.map((row): MarketSummary => {
        const reading = READ[venue](row);
        return {
          venue,
          id: String(row.id),
          question: reading.question,
          subtitle: reading.subtitle,
          status: reading.status,
          volume: reading.volume,
          closes_at: isoOf(row.closes),
        };
      });
    }),
  );
  // Each venue's list is open markets first, then by volume; volumes are in different
  // units (USDC, contracts), so the venues alternate rather than one drowning the other.
  const merged: MarketSummary[] = [];
  for (let index = 0; merged.length < query.limit && found.some((list) => index < list.length); index++) {
    for (const list of found) {
      const market = list[index];
      if (market && merged.length < query.limit) merged.push(market);
    }
  }
  return merged;
}
