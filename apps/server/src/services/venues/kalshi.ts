/**
 * Kalshi on the read side: a market is a row of `kalshi.markets_latest` keyed by its ticker,
 * with a Yes price in dollars (0–1; No is its complement); it is resolved once settled with
 * a yes or no result; its history is 1- and 60-minute candles and its volume counts contracts.
 */
import { type HistoryInterval, VENUE_FACTS } from "@epicenter/contracts";
import { isoTimeOf } from "@epicenter/warehouse";
import {
  BUCKET,
  bound,
  earliest,
  type MarketPanels,
  numberOf,
  type Row,
  type Span,
  spanParams,
  textOf,
  type VenueReader,
  type VenueReading,
} from "./venue";

const OPEN = new Set(["active", "open"]);
const RESOLVED = new Set(["determined", "finalized", "settled"]);

/** Each interval's length in minutes: the longest candle it can be rolled up from. */
export const CANDLE_MINUTES: Record<HistoryInterval, number> = { "1m": 1, "1h": 60, "1d": 1440 };

function read(row: Row): VenueReading {
  const status = String(row.status ?? "");
  const result = String(row.result ?? "").toLowerCase();
  const isResolved = RESOLVED.has(status) && (result === "yes" || result === "no");
  const last = numberOf(row.last_price_dollars);
  return {
    question: String(row.title ?? ""),
    subtitle: textOf(row.yes_sub_title),
    eventId: String(row.event_ticker ?? ""),
    status: isResolved ? "resolved" : OPEN.has(status) ? "open" : "closed",
    outcomes: [
      { label: "Yes", token_id: null, price: last },
      { label: "No", token_id: null, price: last === null ? null : Math.round((1 - last) * 10_000) / 10_000 },
    ],
    result: isResolved ? (result === "yes" ? "Yes" : "No") : null,
    openedAt: isoTimeOf(row.open_time),
    closesAt: isoTimeOf(row.close_time),
    // When it settled; without `settlement_ts`, its close, unless that is a backstop date
    // after the venue's last update (a market settled early): then that update.
    resolvedAt: isResolved
      ? (isoTimeOf(row.settlement_ts) ??
        earliest(isoTimeOf(row.close_time), isoTimeOf(row.updated_time) ?? isoTimeOf(row.sync_timestamp)))
      : null,
    volume: numberOf(row.volume),
    liquidity: numberOf(row.liquidity_dollars),
    openInterest: numberOf(row.open_interest),
    url: (event) => `${VENUE_FACTS.kalshi.site}/markets/${encodeURIComponent((event.slug ?? "").toLowerCase())}`,
  };
}

/**
 * One market's candles rolled up to `interval`: the archive stores 1- and 60-minute candles
 * (not daily ones), so a day is its hours, and an hour its minutes where the span holds no
 * hourly candle. The longest stored length that fits the interval is used.
 */
function candles(interval: HistoryInterval, span: Span | undefined, select: string): string {
  const inSpan = span ? "\n  AND end_period_ts > {from:DateTime('UTC')} AND end_period_ts <= {to:DateTime('UTC')}" : "";
  // The longest length stored within the span: a span only minute candles cover yet is drawn
  // from them. (Within a span holding both, the hours the hourly candles have not reached
  // yet are left out; the history worker fills them at its next refresh.)
  return `WITH (
    SELECT max(period_minutes) FROM kalshi.candles
    WHERE ticker = {id:String} AND period_minutes <= ${CANDLE_MINUTES[interval]}${inSpan}
  ) AS stored_minutes
SELECT toStartOfInterval(end_period_ts - INTERVAL period_minutes MINUTE, ${BUCKET[interval]}) AS t,
  ${select}
FROM kalshi.candles FINAL
WHERE ticker = {id:String} AND period_minutes = stored_minutes${inSpan}
GROUP BY t
ORDER BY t`;
}

const panels: MarketPanels = {
  latest: (id) =>
    bound(
      `Kalshi market ${id}: latest snapshot`,
      "SELECT *\nFROM kalshi.markets_latest FINAL\nWHERE ticker = {id:String}",
      { id },
    ),
  event: (eventId) =>
    bound(
      `Kalshi event ${eventId}`,
      "SELECT title, series_ticker AS slug FROM kalshi.events_latest FINAL WHERE event_ticker = {id:String} LIMIT 1",
      { id: eventId },
    ),
  coverage: (id) =>
    bound(
      `Kalshi market ${id}: history archived`,
      `SELECT
    (SELECT uniqExact(period_minutes, end_period_ts) FROM kalshi.candles WHERE ticker = {id:String}) AS points,
    (SELECT min(end_period_ts) FROM kalshi.candles WHERE ticker = {id:String}) AS first,
    (SELECT max(end_period_ts) FROM kalshi.candles WHERE ticker = {id:String}) AS last,
    (SELECT uniqExact(trade_id) FROM kalshi.trades WHERE ticker = {id:String}) AS trades,
    (SELECT tuple(any(state), any(history_until), any(error), any(retry_at))
       FROM (SELECT * FROM kalshi.coverage FINAL WHERE ticker = {id:String})) AS ledger`,
      { id },
    ),
  firstPoint: (id) =>
    bound(
      `Kalshi market ${id}: first candle`,
      `SELECT min(end_period_ts - INTERVAL period_minutes MINUTE) AS first
    FROM kalshi.candles WHERE ticker = {id:String} HAVING count() > 0`,
      { id },
    ),
  // A quiet period has no trade prices; its close is the last trade before it (price_previous).
  prices: (id, interval, span) =>
    bound(
      `Kalshi market ${id}: price per ${interval}`,
      candles(
        interval,
        span,
        `'Yes' AS outcome,
  argMinIf(price_open, end_period_ts, price_open IS NOT NULL) AS open, max(price_high) AS high, min(price_low) AS low,
  argMax(ifNull(price_close, price_previous), end_period_ts) AS close`,
      ),
      { id, ...spanParams(span) },
      { kind: "chart", type: "line", x: "t", y: ["close"] },
    ),
  snapshotPrices: (id, interval, span) =>
    bound(
      `Kalshi market ${id}: price per ${interval} from the snapshots`,
      `SELECT 'Yes' AS outcome, toStartOfInterval(sync_timestamp, ${BUCKET[interval]}) AS t,
  argMin(last_price_dollars, sync_timestamp) AS open, max(last_price_dollars) AS high,
  min(last_price_dollars) AS low, argMax(last_price_dollars, sync_timestamp) AS close
FROM kalshi.markets
WHERE ticker = {id:String} AND sync_timestamp >= {from:DateTime('UTC')} AND sync_timestamp < {to:DateTime('UTC')}
GROUP BY t
ORDER BY t`,
      { id, ...spanParams(span) },
    ),
  volume: (id, interval, span) =>
    bound(
      `Kalshi market ${id}: contracts traded per ${interval}`,
      candles(interval, span, "sum(volume) AS volume"),
      { id, ...spanParams(span) },
      { kind: "chart", type: "bar", x: "t", y: ["volume"] },
    ),
  trades: (id) =>
    bound(
      `Kalshi market ${id}: newest trades`,
      "SELECT created_time, taker_side, yes_price, no_price, count, trade_id\nFROM kalshi.trades\nWHERE ticker = {id:String}\nORDER BY created_time DESC\nLIMIT 100",
      { id },
    ),
  search: `SELECT ticker AS id, title, yes_sub_title, status, result, volume,
    close_time AS closes
  FROM kalshi.markets_latest FINAL
  WHERE ticker = upper({q:String})
     OR arrayAll(word -> positionCaseInsensitiveUTF8(concat(title, ' ', yes_sub_title, ' ', ticker), word) > 0, {words:Array(String)})
  ORDER BY status NOT IN ('active', 'open'), volume DESC NULLS LAST
  LIMIT {limit:UInt32}`,
  // Yes at the last trade, No its complement.
  outcomePrices: `SELECT ticker AS id, title, yes_sub_title AS subtitle, ['Yes', 'No'] AS labels,
      [last_price_dollars, if(isNull(last_price_dollars), NULL, round(1 - last_price_dollars, 4))] AS prices
    FROM kalshi.markets_latest FINAL WHERE ticker IN {ids:Array(String)}`,
};

export const kalshiReader: VenueReader = {
  venue: "kalshi",
  facts: VENUE_FACTS.kalshi,
  read,
  panels,
  counts: `SELECT
      (SELECT uniqExact(ticker) FROM kalshi.markets_latest) AS markets,
      (SELECT uniqExact(event_ticker) FROM kalshi.events_latest) AS events,
      (SELECT countIf(status = 'active') FROM kalshi.markets_latest FINAL) AS open_markets,
      (SELECT countIf(ifNull(volume, 0) = 0) FROM kalshi.markets_latest FINAL) AS zero_volume_markets`,
  tables: {
    name: VENUE_FACTS.kalshi.label,
    snapshots: "kalshi.markets",
    latest: "kalshi.markets_latest FINAL",
    key: "ticker",
    text: "concat(title, ' ', yes_sub_title)",
    open: "status = 'active'",
    volume24h: "ifNull(volume_24h, 0)",
    yesPrice: "last_price_dollars",
    unit: "contracts",
    wording: {
      traded: "Contracts",
      tradedTitle: "Contracts traded",
      text: "the title and yes_sub_title",
      price: "Mean last Yes price (dollars, 0–1)",
      venueVolume: "volume_24h",
      open: "Markets with status active in their latest snapshot.",
    },
  },
};
