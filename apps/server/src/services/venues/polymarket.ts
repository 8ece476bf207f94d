/**
 * Polymarket on the read side: a market is a row of `polymarket.markets_latest` with its
 * outcomes as arrays (labels, prices, CLOB token ids); it is resolved once UMA says so or
 * its prices have settled on one outcome; its history is price points per outcome token
 * and its volume the trades' USDC.
 */
import { VENUE_FACTS } from "@epicenter/contracts";
import { isoTimeOf } from "@epicenter/warehouse";
import {
  BUCKET,
  bound,
  type MarketPanels,
  numberOf,
  type Row,
  spanParams,
  textOf,
  type VenueReader,
  type VenueReading,
} from "./venue";

function read(row: Row): VenueReading {
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
    openedAt: isoTimeOf(row.startDate) ?? isoTimeOf(row.createdAt),
    closesAt: isoTimeOf(row.endDate),
    resolvedAt: isResolved ? (isoTimeOf(row.closedTime) ?? isoTimeOf(row.endDate)) : null,
    volume: numberOf(row.volume),
    liquidity: numberOf(row.liquidity),
    openInterest: null,
    url: (event) => `${VENUE_FACTS.polymarket.site}/event/${encodeURIComponent(event.slug ?? String(row.slug ?? ""))}`,
  };
}

const panels: MarketPanels = {
  latest: (id) =>
    bound(
      `Polymarket market ${id}: latest snapshot`,
      "SELECT *\nFROM polymarket.markets_latest FINAL\nWHERE id = {id:String}",
      { id },
    ),
  event: (eventId) =>
    bound(
      `Polymarket event ${eventId}`,
      "SELECT title, slug FROM polymarket.events_latest FINAL WHERE id = {id:String} LIMIT 1",
      { id: eventId },
    ),
  coverage: (id) =>
    bound(
      `Polymarket market ${id}: history archived`,
      `SELECT
    (SELECT uniqExact(token_id, ts) FROM polymarket.prices WHERE id = {id:String}) AS points,
    (SELECT min(ts) FROM polymarket.prices WHERE id = {id:String}) AS first,
    (SELECT max(ts) FROM polymarket.prices WHERE id = {id:String}) AS last,
    (SELECT uniqExact(transaction_hash, trade_index) FROM polymarket.trades WHERE id = {id:String}) AS trades,
    (SELECT tuple(any(state), any(history_until), any(error), any(retry_at))
       FROM (SELECT * FROM polymarket.coverage FINAL WHERE id = {id:String})) AS ledger`,
      { id },
    ),
  firstPoint: (id) =>
    bound(
      `Polymarket market ${id}: first price point`,
      "SELECT min(ts) AS first FROM polymarket.prices WHERE id = {id:String} HAVING count() > 0",
      { id },
    ),
  prices: (id, interval, span) =>
    bound(
      `Polymarket market ${id}: price per ${interval}`,
      `SELECT outcome, toStartOfInterval(ts, ${BUCKET[interval]}) AS t,
  argMin(price, ts) AS open, max(price) AS high, min(price) AS low, argMax(price, ts) AS close
FROM polymarket.prices
WHERE id = {id:String} AND ts >= {from:DateTime('UTC')} AND ts < {to:DateTime('UTC')}
GROUP BY outcome, t
ORDER BY outcome, t`,
      { id, ...spanParams(span) },
      { kind: "chart", type: "line", x: "t", y: ["close"] },
    ),
  snapshotPrices: (id, interval, span) =>
    bound(
      `Polymarket market ${id}: price per ${interval} from the snapshots`,
      `SELECT pair.1 AS outcome, toStartOfInterval(sync_timestamp, ${BUCKET[interval]}) AS t,
  argMin(pair.2, sync_timestamp) AS open, max(pair.2) AS high, min(pair.2) AS low, argMax(pair.2, sync_timestamp) AS close
FROM polymarket.markets
ARRAY JOIN arrayZip(outcomes, arrayResize(outcomePrices, length(outcomes))) AS pair
WHERE id = {id:String} AND sync_timestamp >= {from:DateTime('UTC')} AND sync_timestamp < {to:DateTime('UTC')}
GROUP BY outcome, t
ORDER BY outcome, t`,
      { id, ...spanParams(span) },
    ),
  volume: (id, interval, span) =>
    bound(
      `Polymarket market ${id}: volume per ${interval} (USDC)`,
      `SELECT toStartOfInterval(ts, ${BUCKET[interval]}) AS t, sum(size * price) AS volume
FROM polymarket.trades
WHERE id = {id:String}${span ? ` AND ts >= {from:DateTime('UTC')} AND ts < {to:DateTime('UTC')}` : ""}
GROUP BY t
ORDER BY t`,
      { id, ...spanParams(span) },
      { kind: "chart", type: "bar", x: "t", y: ["volume"] },
    ),
  trades: (id) =>
    bound(
      `Polymarket market ${id}: newest trades`,
      "SELECT ts, outcome, side, price, size, transaction_hash, proxy_wallet\nFROM polymarket.trades\nWHERE id = {id:String}\nORDER BY ts DESC\nLIMIT 100",
      { id },
    ),
  search: `SELECT id, question, groupItemTitle, closed, umaResolutionStatus, outcomePrices,
    volume, endDate AS closes
  FROM polymarket.markets_latest FINAL
  WHERE id = {q:String}
     OR arrayAll(word -> positionCaseInsensitiveUTF8(concat(question, ' ', groupItemTitle), word) > 0, {words:Array(String)})
  ORDER BY ifNull(closed, false), volume DESC NULLS LAST
  LIMIT {limit:UInt32}`,
  outcomePrices: `SELECT id, question AS title, groupItemTitle AS subtitle, outcomes AS labels, outcomePrices AS prices
    FROM polymarket.markets_latest FINAL WHERE id IN {ids:Array(String)}`,
};

export const polymarketReader: VenueReader = {
  venue: "polymarket",
  facts: VENUE_FACTS.polymarket,
  read,
  panels,
  counts: `SELECT
      (SELECT uniqExact(id) FROM polymarket.markets_latest) AS markets,
      (SELECT uniqExact(id) FROM polymarket.events_latest) AS events,
      (SELECT countIf(NOT ifNull(closed, false)) FROM polymarket.markets_latest FINAL) AS open_markets,
      (SELECT countIf(ifNull(volume, 0) = 0) FROM polymarket.markets_latest FINAL) AS zero_volume_markets`,
  tables: {
    name: VENUE_FACTS.polymarket.label,
    snapshots: "polymarket.markets",
    latest: "polymarket.markets_latest FINAL",
    key: "id",
    text: "question",
    open: "NOT ifNull(closed, false)",
    volume24h: "ifNull(volume24hr, 0)",
    yesPrice: "yes_probability",
    unit: "volume",
    wording: {
      traded: "USDC",
      tradedTitle: "Volume traded (USDC)",
      text: "the question",
      price: "Mean price of Yes (0–1)",
      venueVolume: "volume24hr",
      open: "Markets still trading in their latest snapshot.",
    },
  },
};
