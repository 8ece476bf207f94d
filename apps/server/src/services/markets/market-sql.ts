/**
 * The SQL behind each panel of a market page, one builder per venue. The same text runs
 * here and opens in the editor from the page ("Query in Editor"), so what a user edits is
 * what the page drew. Ids and times are inlined as quoted literals: the id has passed the
 * contract's pattern (letters, digits, `.`, `_`, `-`) and every literal goes through
 * `quoteString`, so nothing a caller sends is read as SQL.
 */
import type { HistoryInterval, QueryNode, Venue } from "@epicenter/contracts";
import { quoteString } from "@epicenter/warehouse";

const BUCKET: Record<HistoryInterval, string> = {
  "1m": "INTERVAL 1 MINUTE",
  "1h": "INTERVAL 1 HOUR",
  "1d": "INTERVAL 1 DAY",
};

/** Each interval's length in minutes: the longest Kalshi candle it can be rolled up from. */
export const CANDLE_MINUTES: Record<HistoryInterval, number> = { "1m": 1, "1h": 60, "1d": 1440 };

/**
 * Kalshi's candles of one market rolled up to `interval`: the archive stores 1- and
 * 60-minute candles (not daily ones), so a day is its hours, and an hour its minutes where
 * the span holds no hourly candle. The longest stored length that fits the interval is used.
 */
function kalshiCandles(id: string, interval: HistoryInterval, span: Span | undefined, select: string): string {
  const ticker = quoteString(id);
  const inSpan = span ? `\n  AND end_period_ts > ${at(span.from)} AND end_period_ts <= ${at(span.to)}` : "";
  // The longest length stored within the span: a span only minute candles cover yet is drawn
  // from them. (Within a span holding both, the hours the hourly candles have not reached
  // yet are left out; the history worker fills them at its next refresh.)
  return `WITH (
    SELECT max(period_minutes) FROM kalshi.candles
    WHERE ticker = ${ticker} AND period_minutes <= ${CANDLE_MINUTES[interval]}${inSpan}
  ) AS stored_minutes
SELECT toStartOfInterval(end_period_ts - INTERVAL period_minutes MINUTE, ${BUCKET[interval]}) AS t,
  ${select}
FROM kalshi.candles FINAL
WHERE ticker = ${ticker} AND period_minutes = stored_minutes${inSpan}
GROUP BY t
ORDER BY t`;
}

export interface Span {
  from: Date;
  to: Date;
}

const at = (date: Date) => `toDateTime(${quoteString(date.toISOString().slice(0, 19).replace("T", " "))}, 'UTC')`;

export interface VenueSql {
  /** The latest snapshot, every column. */
  latest(id: string): QueryNode;
  /** The event's title (and what the venue's link needs). */
  event(eventId: string): string;
  /** How much history the archive holds: distinct points, their first and last time, distinct trades. */
  coverage(id: string): string;
  /** When the archived history starts (`first`), null when there is none. */
  firstPoint(id: string): string;
  /** Open, high, low, close per outcome and interval, from the venue's history. */
  prices(id: string, interval: HistoryInterval, span: Span): QueryNode;
  /** The same from the snapshots, where no history is archived yet. */
  snapshotPrices(id: string, interval: HistoryInterval, span: Span): string;
  /** Traded per interval. */
  volume(id: string, interval: HistoryInterval, span?: Span): QueryNode;
  /** The newest trades. */
  trades(id: string): QueryNode;
}

const node = (title: string, sql: string, view?: QueryNode["view"]): QueryNode => ({
  kind: "sql",
  title,
  sql,
  ...(view ? { view } : {}),
});

const polymarket: VenueSql = {
  latest: (id) =>
    node(
      `Polymarket market ${id}: latest snapshot`,
      `SELECT *\nFROM polymarket.markets_latest FINAL\nWHERE id = ${quoteString(id)}`,
    ),
  event: (eventId) =>
    `SELECT title, slug FROM polymarket.events_latest FINAL WHERE id = ${quoteString(eventId)} LIMIT 1`,
  coverage: (id) => `SELECT
    (SELECT uniqExact(token_id, ts) FROM polymarket.prices WHERE id = ${quoteString(id)}) AS points,
    (SELECT toString(min(ts)) FROM polymarket.prices WHERE id = ${quoteString(id)}) AS first,
    (SELECT toString(max(ts)) FROM polymarket.prices WHERE id = ${quoteString(id)}) AS last,
    (SELECT uniqExact(transaction_hash, trade_index) FROM polymarket.trades WHERE id = ${quoteString(id)}) AS trades`,
  firstPoint: (id) =>
    `SELECT toString(min(ts)) AS first FROM polymarket.prices WHERE id = ${quoteString(id)} HAVING count() > 0`,
  prices: (id, interval, span) =>
    node(
      `Polymarket market ${id}: price per ${interval}`,
      `SELECT outcome, toStartOfInterval(ts, ${BUCKET[interval]}) AS t,
  argMin(price, ts) AS open, max(price) AS high, min(price) AS low, argMax(price, ts) AS close
FROM polymarket.prices
WHERE id = ${quoteString(id)} AND ts >= ${at(span.from)} AND ts < ${at(span.to)}
GROUP BY outcome, t
ORDER BY outcome, t`,
      { kind: "chart", type: "line", x: "t", y: ["close"] },
    ),
  snapshotPrices: (
    id,
    interval,
    span,
  ) => `SELECT pair.1 AS outcome, toStartOfInterval(sync_timestamp, ${BUCKET[interval]}) AS t,
  argMin(pair.2, sync_timestamp) AS open, max(pair.2) AS high, min(pair.2) AS low, argMax(pair.2, sync_timestamp) AS close
FROM polymarket.markets
ARRAY JOIN arrayZip(outcomes, arrayResize(outcomePrices, length(outcomes))) AS pair
WHERE id = ${quoteString(id)} AND sync_timestamp >= ${at(span.from)} AND sync_timestamp < ${at(span.to)}
GROUP BY outcome, t
ORDER BY outcome, t`,
  volume: (id, interval, span) =>
    node(
      `Polymarket market ${id}: volume per ${interval} (USDC)`,
      `SELECT toStartOfInterval(ts, ${BUCKET[interval]}) AS t, sum(size * price) AS volume
FROM polymarket.trades
WHERE id = ${quoteString(id)}${span ? ` AND ts >= ${at(span.from)} AND ts < ${at(span.to)}` : ""}
GROUP BY t
ORDER BY t`,
      { kind: "chart", type: "bar", x: "t", y: ["volume"] },
    ),
  trades: (id) =>
    node(
      `Polymarket market ${id}: newest trades`,
      `SELECT ts, outcome, side, price, size, transaction_hash, proxy_wallet\nFROM polymarket.trades\nWHERE id = ${quoteString(id)}\nORDER BY ts DESC\nLIMIT 100`,
    ),
};

const kalshi: VenueSql = {
  latest: (id) =>
    node(
      `Kalshi market ${id}: latest snapshot`,
      `SELECT *\nFROM kalshi.markets_latest FINAL\nWHERE ticker = ${quoteString(id)}`,
    ),
  event: (eventId) =>
    `SELECT title, series_ticker AS slug FROM kalshi.events_latest FINAL WHERE event_ticker = ${quoteString(eventId)} LIMIT 1`,
  coverage: (id) => `SELECT
    (SELECT uniqExact(period_minutes, end_period_ts) FROM kalshi.candles WHERE ticker = ${quoteString(id)}) AS points,
    (SELECT toString(min(end_period_ts)) FROM kalshi.candles WHERE ticker = ${quoteString(id)}) AS first,
    (SELECT toString(max(end_period_ts)) FROM kalshi.candles WHERE ticker = ${quoteString(id)}) AS last,
    (SELECT uniqExact(trade_id) FROM kalshi.trades WHERE ticker = ${quoteString(id)}) AS trades`,
  firstPoint: (id) =>
    `SELECT toString(min(end_period_ts - INTERVAL period_minutes MINUTE)) AS first
    FROM kalshi.candles WHERE ticker = ${quoteString(id)} HAVING count() > 0`,
  // A quiet period has no trade prices; its close is the last trade before it (price_previous).
  prices: (id, interval, span) =>
    node(
      `Kalshi market ${id}: price per ${interval}`,
      kalshiCandles(
        id,
        interval,
        span,
        `'Yes' AS outcome,
  argMinIf(price_open, end_period_ts, price_open IS NOT NULL) AS open, max(price_high) AS high, min(price_low) AS low,
  argMax(ifNull(price_close, price_previous), end_period_ts) AS close`,
      ),
      { kind: "chart", type: "line", x: "t", y: ["close"] },
    ),
  snapshotPrices: (
    id,
    interval,
    span,
  ) => `SELECT 'Yes' AS outcome, toStartOfInterval(sync_timestamp, ${BUCKET[interval]}) AS t,
  argMin(last_price_dollars, sync_timestamp) AS open, max(last_price_dollars) AS high,
  min(last_price_dollars) AS low, argMax(last_price_dollars, sync_timestamp) AS close
FROM kalshi.markets
WHERE ticker = ${quoteString(id)} AND sync_timestamp >= ${at(span.from)} AND sync_timestamp < ${at(span.to)}
GROUP BY t
ORDER BY t`,
  volume: (id, interval, span) =>
    node(
      `Kalshi market ${id}: contracts traded per ${interval}`,
      kalshiCandles(id, interval, span, "sum(volume) AS volume"),
      { kind: "chart", type: "bar", x: "t", y: ["volume"] },
    ),
  trades: (id) =>
    node(
      `Kalshi market ${id}: newest trades`,
      `SELECT created_time, taker_side, yes_price, no_price, count, trade_id\nFROM kalshi.trades\nWHERE ticker = ${quoteString(id)}\nORDER BY created_time DESC\nLIMIT 100`,
    ),
};

export const MARKET_SQL: Record<Venue, VenueSql> = { polymarket, kalshi };
