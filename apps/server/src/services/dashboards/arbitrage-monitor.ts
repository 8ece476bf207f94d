/**
 * Cross-Platform Arbitrage: the same contract priced on both venues, from the pairs in
 * `crossvenue.market_pairs` and each venue's latest quotes. Its figures use only the
 * `same_contract` pairs someone read both rules for: an admin (`confirmed`) or the
 * adjudicator (`model`). The matcher's own pairs were the same contract 81 % and 95.1 % of
 * the time on two held-out sets of labelled pairs (issue 25), the first under the 95 % a trader can act on, so they are
 * listed apart, as candidates to check. Every figure is in the terms of Polymarket's first outcome: a
 * pair whose orientation is `inverse` reads Kalshi's no side (no bid = 1 − yes ask).
 *
 * What a gap means, from the widest to the narrowest:
 * - `gross_gap`: how far apart the two venues' mid prices are;
 * - `gap_after_spread`: what is left after crossing both spreads, in the better of the two
 *   directions (buy the first outcome on one venue, its opposite on the other: together
 *   they pay 1 whatever happens);
 * - `gap_after_fees`: that, less both venues' taker fees per contract at the prices
 *   paid: Kalshi's published `0.07 × P × (1 − P)` (before its round-up to the cent per
 *   order), Polymarket's `rate × (P × (1 − P))^exponent` from the market's `feeSchedule`
 *   (zero when it has none).
 *
 * None of them is a profit: they ignore the depth behind the best quotes, the two venues'
 * different rules and settlement, and the time between the two fills. The executable gap
 * (`EXECUTABLE_GAP`) counts the depth: the same trade for $100 and $1,000 a leg, each leg
 * at the average price its venue's captured book fills it at (issue 28).
 */
import type { DashboardTile } from "@epicenter/contracts";
import { tile } from "./pulse-tiles";

/** Kalshi's taker fee per contract at price P is this × P × (1 − P) (its fee schedule, general series). */
const KALSHI_TAKER_RATE = 0.07;

/**
 * Open same-contract pairs with both venues' quotes in Polymarket's first-outcome terms,
 * and the gaps. Polymarket's fee schedule is only in the upstream object (`raw`), read
 * from each market's latest snapshot.
 */
const quotes = (methods: string) => `pairs AS (
    SELECT polymarket_id, kalshi_ticker, orientation, method
    FROM crossvenue.market_pairs FINAL
    WHERE relation = 'same_contract' AND method IN (${methods})
  ),
  pm AS (
    SELECT id, question, groupItemTitle, bestBid, bestAsk, endDate, sync_timestamp
    FROM polymarket.markets_latest FINAL
    WHERE id IN (SELECT polymarket_id FROM pairs) AND NOT ifNull(closed, false)
  ),
  fee AS (
    SELECT id,
      JSONExtract(raw, 'feeSchedule', 'rate', 'Float64') AS rate,
      JSONExtract(raw, 'feeSchedule', 'exponent', 'Float64') AS exponent
    FROM polymarket.markets
    WHERE (id, sync_timestamp) IN (SELECT id, sync_timestamp FROM pm)
  ),
  k AS (
    SELECT ticker, yes_bid_dollars, yes_ask_dollars, close_time, expected_expiration_time
    FROM kalshi.markets_latest FINAL
    WHERE ticker IN (SELECT kalshi_ticker FROM pairs) AND status = 'active'
  ),
  quotes AS (
    SELECT
      pairs.polymarket_id AS polymarket_id,
      pairs.kalshi_ticker AS kalshi_ticker,
      pairs.orientation AS orientation,
      pairs.method AS method,
      if(pm.groupItemTitle != '', concat(pm.question, ' (', pm.groupItemTitle, ')'), pm.question) AS question,
      if(pm.groupItemTitle != '', pm.groupItemTitle, pm.question) AS label,
      pm.bestBid AS pm_bid,
      pm.bestAsk AS pm_ask,
      if(pairs.orientation = 'same', k.yes_bid_dollars, 1 - k.yes_ask_dollars) AS kalshi_bid,
      if(pairs.orientation = 'same', k.yes_ask_dollars, 1 - k.yes_bid_dollars) AS kalshi_ask,
      ifNull(fee.rate, 0) AS pm_fee_rate,
      ifNull(fee.exponent, 1) AS pm_fee_exponent,
      least(pm.endDate, ifNull(k.expected_expiration_time, k.close_time)) AS closes_at
    FROM pairs
    INNER JOIN pm ON pm.id = pairs.polymarket_id
    INNER JOIN k ON k.ticker = pairs.kalshi_ticker
    LEFT JOIN fee ON fee.id = pairs.polymarket_id
    -- A pair is comparable only with a two-sided quote on each venue.
    WHERE pm_bid > 0 AND pm_ask > 0 AND pm_ask < 1 AND kalshi_bid > 0 AND kalshi_ask > 0 AND kalshi_ask < 1
  ),
  gaps AS (
    SELECT *,
      abs((pm_bid + pm_ask) / 2 - (kalshi_bid + kalshi_ask) / 2) AS gross_gap,
      -- Buy the first outcome on Polymarket and its opposite on Kalshi, or the other way round.
      kalshi_bid - pm_ask AS buy_polymarket,
      pm_bid - kalshi_ask AS buy_kalshi,
      buy_polymarket >= buy_kalshi AS buys_polymarket,
      greatest(buy_polymarket, buy_kalshi) AS gap_after_spread,
      if(buys_polymarket, pm_ask, pm_bid) AS pm_price,
      if(buys_polymarket, kalshi_bid, kalshi_ask) AS kalshi_price,
      pm_fee_rate * pow(pm_price * (1 - pm_price), pm_fee_exponent) AS pm_fee,
      ${KALSHI_TAKER_RATE} * kalshi_price * (1 - kalshi_price) AS kalshi_fee,
      gap_after_spread - pm_fee - kalshi_fee AS gap_after_fees
    FROM quotes
  )`;

/** Pairs someone read both rules for: an admin, or the adjudicator. */
const QUOTES = quotes("'confirmed', 'model'");
/** The matcher's own, not checked yet. */
const UNCHECKED_QUOTES = quotes("'auto'");

const pairsTable = (withQuotes: string) => `WITH
  ${withQuotes}
SELECT
  -- What a trader decides on first, then the quotes behind it, then the two markets.
  question,
  round(gap_after_fees, 4) AS gap_after_fees,
  round(gap_after_spread, 4) AS gap_after_spread,
  if(buys_polymarket, 'Polymarket', 'Kalshi') AS buy_first_outcome_on,
  closes_at,
  -- Empty once the close date has passed and the market awaits its result.
  if(closes_at > now(), round(dateDiff('hour', now(), closes_at) / 24, 1), NULL) AS days_to_close,
  round(gross_gap, 4) AS gross_gap,
  round(pm_bid, 4) AS polymarket_bid,
  round(pm_ask, 4) AS polymarket_ask,
  round(kalshi_bid, 4) AS kalshi_bid,
  round(kalshi_ask, 4) AS kalshi_ask,
  polymarket_id,
  kalshi_ticker,
  method
FROM gaps
ORDER BY gap_after_fees DESC, gross_gap DESC
LIMIT 50`;

const PAIRS_FORMATS = {
  question: "text",
  polymarket_bid: "cents",
  polymarket_ask: "cents",
  kalshi_bid: "cents",
  kalshi_ask: "cents",
  gross_gap: "cents",
  gap_after_spread: "cents",
  gap_after_fees: "cents",
  closes_at: "datetime",
  days_to_close: "count",
} as const;

const GAP_OVER_TIME = `WITH
  ${QUOTES},
  widest AS (SELECT polymarket_id, kalshi_ticker, orientation, label FROM gaps ORDER BY gross_gap DESC LIMIT 5),
  pm_hourly AS (
    SELECT toStartOfHour(sync_timestamp) AS hour, id, avg((bestBid + bestAsk) / 2) AS mid
    FROM polymarket.markets
    WHERE sync_timestamp >= now() - INTERVAL 7 DAY AND id IN (SELECT polymarket_id FROM widest)
      AND bestBid > 0 AND bestAsk > 0
    GROUP BY hour, id
  ),
  kalshi_hourly AS (
    SELECT toStartOfHour(sync_timestamp) AS hour, ticker, avg((yes_bid_dollars + yes_ask_dollars) / 2) AS mid
    FROM kalshi.markets
    WHERE sync_timestamp >= now() - INTERVAL 7 DAY AND ticker IN (SELECT kalshi_ticker FROM widest)
      AND yes_bid_dollars > 0 AND yes_ask_dollars > 0
    GROUP BY hour, ticker
  )
SELECT
  pm_hourly.hour AS hour,
  widest.label AS pair,
  round(abs(pm_hourly.mid - if(widest.orientation = 'same', kalshi_hourly.mid, 1 - kalshi_hourly.mid)), 4) AS gross_gap
FROM widest
INNER JOIN pm_hourly ON pm_hourly.id = widest.polymarket_id
INNER JOIN kalshi_hourly ON kalshi_hourly.ticker = widest.kalshi_ticker AND kalshi_hourly.hour = pm_hourly.hour
ORDER BY hour, pair`;

/** The order sizes of the executable gap, in dollars (USDC) a leg. */
const FILL_SIZES_SQL = "[100, 1000]";

/**
 * Dollars of an order of `usd` that the levels (`prices`, `sizes`, best first) take, and
 * the shares they take it at: walking the levels, each takes what it holds until the
 * order is spent.
 */
const before = (prices: string, sizes: string) =>
  `arrayResize(arrayPushFront(arrayCumSum(arrayMap((p, q) -> p * q, ${prices}, ${sizes})), 0), length(${prices}))`;
const filledUsd = (prices: string, sizes: string, usd: string) =>
  `arraySum(arrayMap((p, q, b) -> least(p * q, greatest(0, ${usd} - b)), ${prices}, ${sizes}, ${before(prices, sizes)}))`;
const filledShares = (prices: string, sizes: string, usd: string) =>
  `arraySum(arrayMap((p, q, b) -> least(q, greatest(0, ${usd} - b) / p), ${prices}, ${sizes}, ${before(prices, sizes)}))`;
/** The average price of `usd` through the levels, or NULL when they do not hold it all. */
const fillPrice = (prices: string, sizes: string, usd: string) =>
  `if(${filledUsd(prices, sizes, usd)} >= ${usd} - 1e-9, ${filledUsd(prices, sizes, usd)} / ${filledShares(prices, sizes, usd)}, NULL)`;

/** A venue's newest book of each of `keys`, captured in the last 70 minutes and not closed since. */
const latestBooks = (database: string, key: string, keys: string) => `SELECT ${key},
      argMax(tuple(arrayMap(x -> toFloat64(x), bid_price), bid_size, arrayMap(x -> toFloat64(x), ask_price), ask_size), sync_timestamp) AS book,
      max(sync_timestamp) AS captured_at
    FROM ${database}.books
    WHERE ${key} IN (${keys}) AND sync_timestamp > now() - INTERVAL 70 MINUTE
    GROUP BY ${key}
    HAVING argMax(state, sync_timestamp) != 'closed'`;

const EXECUTABLE_GAP = `WITH
  ${QUOTES},
  pm_book AS (${latestBooks("polymarket", "id", "SELECT polymarket_id FROM gaps")}),
  k_book AS (${latestBooks("kalshi", "ticker", "SELECT kalshi_ticker FROM gaps")}),
  legs AS (
    SELECT gaps.*, usd,
      pm_book.book.1 AS pm_bid_p, pm_book.book.2 AS pm_bid_q, pm_book.book.3 AS pm_ask_p, pm_book.book.4 AS pm_ask_q,
      -- Kalshi in the first outcome's terms: an inverse pair reads its no side (no bid = 1 − yes ask).
      if(orientation = 'same', k_book.book.1, arrayMap(x -> 1 - x, k_book.book.3)) AS k_bid_p,
      if(orientation = 'same', k_book.book.2, k_book.book.4) AS k_bid_q,
      if(orientation = 'same', k_book.book.3, arrayMap(x -> 1 - x, k_book.book.1)) AS k_ask_p,
      if(orientation = 'same', k_book.book.4, k_book.book.2) AS k_ask_q,
      least(pm_book.captured_at, k_book.captured_at) AS books_from
    FROM gaps
    INNER JOIN pm_book ON pm_book.id = gaps.polymarket_id
    INNER JOIN k_book ON k_book.ticker = gaps.kalshi_ticker
    ARRAY JOIN ${FILL_SIZES_SQL} AS usd
  ),
  fills AS (
    SELECT *,
      ${fillPrice("pm_ask_p", "pm_ask_q", "usd")} AS pm_buy,
      ${fillPrice("pm_bid_p", "pm_bid_q", "usd")} AS pm_sell,
      ${fillPrice("k_ask_p", "k_ask_q", "usd")} AS k_buy,
      ${fillPrice("k_bid_p", "k_bid_q", "usd")} AS k_sell,
      -- Buy the first outcome on one venue, sell it (buy its opposite) on the other.
      k_sell - pm_buy - pm_fee_rate * pow(pm_buy * (1 - pm_buy), pm_fee_exponent) - ${KALSHI_TAKER_RATE} * k_sell * (1 - k_sell) AS via_polymarket,
      pm_sell - k_buy - pm_fee_rate * pow(pm_sell * (1 - pm_sell), pm_fee_exponent) - ${KALSHI_TAKER_RATE} * k_buy * (1 - k_buy) AS via_kalshi
    FROM legs
  )
SELECT
  question,
  usd AS order_usd,
  round(gap_after_fees, 4) AS top_of_book_gap_after_fees,
  round(greatest(ifNull(via_polymarket, -1), ifNull(via_kalshi, -1)), 4) AS executable_gap_after_fees,
  multiIf(via_polymarket IS NULL AND via_kalshi IS NULL, 'not enough depth',
          ifNull(via_polymarket, -1) >= ifNull(via_kalshi, -1), 'Polymarket', 'Kalshi') AS buy_first_outcome_on,
  round(if(ifNull(via_polymarket, -1) >= ifNull(via_kalshi, -1), pm_buy, pm_sell), 4) AS polymarket_fill,
  round(if(ifNull(via_polymarket, -1) >= ifNull(via_kalshi, -1), k_sell, k_buy), 4) AS kalshi_fill,
  books_from,
  polymarket_id,
  kalshi_ticker
FROM fills
WHERE via_polymarket IS NOT NULL OR via_kalshi IS NOT NULL
ORDER BY executable_gap_after_fees DESC, order_usd
LIMIT 50`;

const cents = "cents" as const;

const NO_CHECKED_PAIRS =
  "No checked pairs open with quotes yet. An admin confirms the matcher's unchecked candidates in Admin → Cross-venue; where a model endpoint is configured, the adjudicator settles them from both rules.";

export const ARBITRAGE_MONITOR_TILES: readonly DashboardTile[] = [
  tile({
    id: "same-contract-pairs",
    title: "Checked same-contract pairs",
    description:
      "Pairs an admin confirmed, or the adjudicator settled from both rules, as the same contract. The figures below use only these.",
    sql: `SELECT count() AS pairs
FROM crossvenue.market_pairs FINAL
WHERE relation = 'same_contract' AND method IN ('confirmed', 'model')`,
    view: { kind: "number", column: "pairs" },
    size: "sm",
    formats: { pairs: "count" },
  }),
  tile({
    id: "open-quoted-pairs",
    title: "Open pairs with quotes",
    description: "Of those, pairs open on both venues with a bid and an ask on each.",
    sql: `WITH
  ${QUOTES}
SELECT count() AS pairs
FROM gaps`,
    view: { kind: "number", column: "pairs" },
    size: "sm",
    formats: { pairs: "count" },
  }),
  tile({
    id: "pairs-gap-after-fees",
    title: "Pairs with a gap after fees",
    description: "Open pairs whose quotes still differ after both spreads and both taker fees.",
    sql: `WITH
  ${QUOTES}
SELECT countIf(gap_after_fees > 0) AS pairs
FROM gaps`,
    view: { kind: "number", column: "pairs" },
    size: "sm",
    formats: { pairs: "count" },
  }),
  tile({
    id: "widest-gap-after-fees",
    title: "Widest gap after fees",
    description: "Per contract paying $1, at the best quotes only: the depth behind them is not counted.",
    sql: `WITH
  ${QUOTES}
SELECT round(max(gap_after_fees), 4) AS gap_after_fees
FROM gaps`,
    view: { kind: "number", column: "gap_after_fees" },
    size: "sm",
    formats: { gap_after_fees: cents },
  }),
  tile({
    id: "open-pairs",
    title: "Open pairs, widest gap first",
    description:
      "Checked pairs only. Quotes in terms of Polymarket's first outcome. Gross gap: the mids apart. After spread: buying the first outcome on one venue and its opposite on the other at the best quotes. After fees: less Kalshi's taker fee (0.07 × P × (1 − P)) and Polymarket's fee schedule where the market has one. None of these is a profit: they ignore depth, the venues' different rules and settlement, and the time between fills. Days to close is empty once the close date has passed and the market awaits its result. Method: confirmed when an admin checked the pair, model when the adjudicator read both rules (its quotes are in the pair's reasons).",
    sql: pairsTable(QUOTES),
    view: { kind: "table" },
    size: "lg",
    formats: PAIRS_FORMATS,
    empty: NO_CHECKED_PAIRS,
  }),
  tile({
    id: "unchecked-pairs",
    title: "Unchecked candidates, widest gap first",
    description:
      "Pairs the matcher alone calls the same contract, from both venues' questions and rules, not yet checked by an admin or the adjudicator. On two held-out sets of labelled pairs 81 % and 95.1 % of such pairs were the same contract, one under the 95 % bar: read both rules before acting on one, or check it in Admin → Cross-venue.",
    sql: pairsTable(UNCHECKED_QUOTES),
    view: { kind: "table" },
    size: "lg",
    formats: PAIRS_FORMATS,
  }),
  tile({
    id: "executable-gap",
    title: "Executable gap at $100 and $1,000",
    description:
      "The same trade as the top-of-book gap, for $100 and $1,000 a leg: each leg at the average price its venue's last captured book (within 70 minutes) fills it at, less both taker fees at those prices. Top of book beside it. A size the ten captured levels cannot fill on either side is left out. Still not a profit: the venues' rules and settlement differ, and books move between the two fills.",
    sql: EXECUTABLE_GAP,
    view: { kind: "table" },
    size: "lg",
    formats: {
      question: "text",
      order_usd: "usd",
      top_of_book_gap_after_fees: cents,
      executable_gap_after_fees: cents,
      polymarket_fill: cents,
      kalshi_fill: cents,
      books_from: "datetime",
    },
    empty: NO_CHECKED_PAIRS,
  }),
  tile({
    id: "gap-over-time",
    title: "Gap over time, widest pairs",
    description:
      "Hourly gap between the two venues' mids for the five checked pairs with the widest gap now, over 7 days.",
    sql: GAP_OVER_TIME,
    view: { kind: "chart", type: "line", x: "hour", y: ["gross_gap"], series: "pair" },
    empty: NO_CHECKED_PAIRS,
    size: "lg",
    formats: { hour: "datetime", gross_gap: cents },
  }),
  tile({
    id: "pairs-by-method",
    title: "Pairs by method",
    description:
      "Who decided: the matcher (auto), the adjudicator reading both rules (model) or an admin (confirmed, rejected); same contract or only related.",
    sql: `SELECT
  method,
  countIf(relation = 'same_contract') AS same_contract,
  countIf(relation = 'related') AS related
FROM crossvenue.market_pairs FINAL
GROUP BY method
ORDER BY method`,
    view: { kind: "chart", type: "bar", x: "method", y: ["same_contract", "related"] },
    size: "md",
    formats: { same_contract: "count", related: "count" },
  }),
  tile({
    id: "event-pairs",
    title: "Events on both venues",
    description: "Polymarket and Kalshi events that hold paired markets, most pairs first.",
    sql: `SELECT
  pe.title AS polymarket_event,
  ke.title AS kalshi_event,
  ep.market_pairs AS market_pairs,
  ep.same_contract_pairs AS same_contract_pairs
FROM crossvenue.event_pairs AS ep FINAL
LEFT JOIN (SELECT id, title FROM polymarket.events_latest FINAL) AS pe ON pe.id = ep.polymarket_event_id
LEFT JOIN (SELECT event_ticker, title FROM kalshi.events_latest FINAL) AS ke ON ke.event_ticker = ep.kalshi_event_ticker
ORDER BY same_contract_pairs DESC, market_pairs DESC
LIMIT 20`,
    view: { kind: "table" },
    size: "md",
    formats: { market_pairs: "count", same_contract_pairs: "count" },
  }),
];
