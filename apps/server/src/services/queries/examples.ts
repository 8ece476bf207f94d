/**
 * The system's example queries, seeded at every start under fixed ids (so a changed
 * example replaces the old one): the spec's sample analytic questions written for our
 * tables, plus the latest-row pattern every user needs.
 *
 * The analytic SQL itself is shared with the Pulse dashboards (`market-sql.ts`).
 * `*_latest` tables are ReplacingMergeTree; `FINAL` gives exactly one row per market.
 */
import type { ChartSpec } from "@epicenter/contracts";
import { VENUE_READERS, venueReaders } from "../venues";
import { dailyActivity, marketsPerRegion, openByCategory, platformComparison, tradingPerHour } from "./market-sql";

const POLYMARKET = VENUE_READERS.polymarket.tables;

// The scripts that generate benchmark data classify questions the same way.
export { categoryExpression, regionExpression } from "./market-sql";

export interface ExampleQuery {
  id: string;
  title: string;
  description: string;
  sql: string;
  chart: ChartSpec | null;
}

export const EXAMPLE_QUERIES: readonly ExampleQuery[] = [
  {
    id: "5e1a0000-0000-4000-8000-000000000001",
    title: "Open markets by category",
    description:
      "Open Polymarket markets grouped into Politics, Crypto, Sports, Finance and Other by keywords in the question, with their count and total 24 h volume.",
    sql: openByCategory(POLYMARKET),
    chart: { kind: "chart", type: "bar", x: "category", y: ["volume_24h"] },
  },
  {
    id: "5e1a0000-0000-4000-8000-000000000002",
    title: "Trading per hour, last 24 hours",
    description:
      "Markets traded and volume traded per hour over the last day, from the rise of each market's cumulative volume between snapshots.",
    sql: tradingPerHour(POLYMARKET),
    chart: { kind: "chart", type: "area", x: "hour", y: ["volume"] },
  },
  {
    id: "5e1a0000-0000-4000-8000-000000000003",
    title: "Markets per region",
    description: "Open Polymarket markets by region (USA, UK, China, Europe, Global), from keywords in the question.",
    sql: marketsPerRegion(POLYMARKET),
    chart: { kind: "chart", type: "bar", x: "region", y: ["markets"] },
  },
  {
    id: "5e1a0000-0000-4000-8000-000000000004",
    title: "Open markets and volume per platform",
    description:
      "How many markets are open on each venue and their 24 h volume (Polymarket in USDC, Kalshi in contracts × last price, i.e. dollars).",
    sql: platformComparison(venueReaders().map((reader) => reader.tables)),
    chart: { kind: "chart", type: "bar", x: "platform", y: ["open_markets"] },
  },
  {
    id: "5e1a0000-0000-4000-8000-000000000005",
    title: "Daily activity, last 7 days",
    description:
      "Per day: Polymarket markets traded, volume traded, and the average yes probability across markets, over the last 7 days (today and the six whole days before, UTC).",
    sql: dailyActivity(POLYMARKET),
    chart: { kind: "chart", type: "line", x: "day", y: ["markets_traded"] },
  },
  {
    id: "5e1a0000-0000-4000-8000-000000000006",
    title: "Latest snapshot per market (the row-number pattern)",
    description:
      "The required pattern for the current state from the snapshot tables: number each market's rows by sync_timestamp, newest first, and keep row 1. The *_latest tables answer the same question faster.",
    sql: `SELECT id, question, yes_probability, volume24hr, sync_timestamp
FROM (
  SELECT
    id, question, yes_probability, volume24hr, sync_timestamp,
    row_number() OVER (PARTITION BY id ORDER BY sync_timestamp DESC) AS rn
  FROM polymarket.markets
  WHERE sync_timestamp >= now() - INTERVAL 1 DAY
)
WHERE rn = 1
ORDER BY volume24hr DESC NULLS LAST
LIMIT 20`,
    chart: null,
  },
  {
    id: "5e1a0000-0000-4000-8000-000000000007",
    title: "Top Polymarket markets by 24 h volume",
    description: "The busiest open markets right now, from the latest-state table.",
    sql: `SELECT question, round(yes_probability, 3) AS yes_probability, round(volume24hr) AS volume_24h, endDate
FROM polymarket.markets_latest FINAL
WHERE NOT ifNull(closed, false)
ORDER BY volume24hr DESC NULLS LAST
LIMIT 20`,
    chart: null,
  },
  {
    id: "5e1a0000-0000-4000-8000-000000000008",
    title: "Kalshi markets with the most open interest",
    description:
      "Active Kalshi markets ranked by open interest (contracts outstanding), with the yes price in dollars.",
    sql: `SELECT ticker, yes_sub_title, last_price_dollars, volume_24h, open_interest, close_time
FROM kalshi.markets_latest FINAL
WHERE status = 'active'
ORDER BY open_interest DESC NULLS LAST
LIMIT 50`,
    chart: null,
  },
  {
    id: "5e1a0000-0000-4000-8000-000000000009",
    title: "One market's price path to resolution",
    description:
      "Every archived price point of one Polymarket market's outcomes, from its first day to its resolution, from the venue's own history. The market here is the most traded resolved one; put any market id in market_id.",
    sql: `WITH (
  SELECT id FROM polymarket.markets_latest FINAL
  WHERE closed AND has(outcomePrices, 1)
  ORDER BY volume DESC NULLS LAST
  LIMIT 1
) AS market_id  -- or a literal id, e.g. '253591'
SELECT ts, outcome, price
FROM polymarket.prices
WHERE id = market_id
ORDER BY outcome, ts`,
    chart: { kind: "chart", type: "line", x: "ts", y: ["price"] },
  },
  {
    id: "5e1a0000-0000-4000-8000-000000000010",
    title: "Calibration: are 80% favourites right 80% of the time?",
    description:
      "Polymarket markets that settled yes or no (the resolutions ledger), bucketed by their Yes price at the last daily close before the day 24 hours before they closed, against how often Yes won. A calibrated market's yes_rate matches its bucket. 50-50s and voids are left out; crossvenue.resolutions has both venues. It reads the daily closes, a row per market and day, so it answers over the whole archive in about a second.",
    sql: `WITH resolved AS (
  SELECT market_id AS id, outcomes[1] AS yes_outcome, outcome_type = 'yes' AS yes_won,
    toDateTime(closed_at, 'UTC') - INTERVAL 24 HOUR AS asked_at
  FROM polymarket.resolutions FINAL
  WHERE outcome_type IN ('yes', 'no') AND length(outcomes) = 2 AND closed_at IS NOT NULL
),
before AS (
  -- Each market's last whole day before the day asked, within the week before it.
  SELECT d.id AS id, argMax(d.close, d.last_ts) AS price
  FROM polymarket.daily_closes AS d
  INNER JOIN resolved AS r ON d.id = r.id AND d.outcome = r.yes_outcome
  WHERE d.day < toDate(r.asked_at) AND d.day >= toDate(r.asked_at) - 7
  GROUP BY d.id
)
SELECT least(floor(price * 10) / 10, 0.9) AS bucket, count() AS markets,
  round(avg(price), 3) AS avg_price, round(avg(yes_won), 3) AS yes_rate
FROM before INNER JOIN resolved USING (id)
GROUP BY bucket
ORDER BY bucket`,
    chart: { kind: "chart", type: "line", x: "bucket", y: ["avg_price", "yes_rate"] },
  },
  {
    id: "5e1a0000-0000-4000-8000-000000000011",
    title: "Volume by hour from trades, last 7 days",
    description:
      "Dollars traded per hour on each venue over the last week, summed from every trade (Polymarket: shares × price in USDC; Kalshi: contracts × yes price).",
    sql: `SELECT hour, round(sumIf(amount, venue = 'Polymarket')) AS polymarket_usd,
  round(sumIf(amount, venue = 'Kalshi')) AS kalshi_usd
FROM (
  SELECT toStartOfHour(ts) AS hour, 'Polymarket' AS venue, size * price AS amount
  FROM polymarket.trades WHERE ts >= now() - INTERVAL 7 DAY
  UNION ALL
  SELECT toStartOfHour(created_time), 'Kalshi', count * yes_price
  FROM kalshi.trades WHERE created_time >= now() - INTERVAL 7 DAY
)
GROUP BY hour
ORDER BY hour`,
    chart: { kind: "chart", type: "area", x: "hour", y: ["polymarket_usd", "kalshi_usd"] },
  },
  {
    id: "5e1a0000-0000-4000-8000-000000000012",
    title: "Biggest one-hour moves of the last week",
    description:
      "The largest changes of a market's Yes price from one hour to the next over the last 7 days, on both venues (Polymarket price history; Kalshi hourly candles, carrying the last trade over quiet hours).",
    sql: `WITH hourly AS (
  SELECT 'Polymarket' AS venue, id AS market, toStartOfHour(ts) AS hour, argMax(price, ts) AS close
  FROM polymarket.prices
  WHERE ts >= now() - INTERVAL 8 DAY AND outcome = 'Yes'
  GROUP BY id, hour
  UNION ALL
  SELECT 'Kalshi', ticker, end_period_ts - INTERVAL 1 HOUR, ifNull(price_close, price_previous)
  FROM kalshi.candles
  WHERE period_minutes = 60 AND end_period_ts >= now() - INTERVAL 8 DAY
),
moves AS (
  SELECT venue, market, hour, close,
    close - lagInFrame(close) OVER (PARTITION BY venue, market ORDER BY hour ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS move,
    row_number() OVER (PARTITION BY venue, market ORDER BY hour) AS n
  FROM hourly
)
SELECT venue, market, hour, round(close, 3) AS price, round(move, 3) AS move
FROM moves
WHERE n > 1 AND hour >= now() - INTERVAL 7 DAY
ORDER BY abs(move) DESC
LIMIT 20`,
    chart: null,
  },
  {
    id: "5e1a0000-0000-4000-8000-000000000013",
    title: "A market's hourly price history, by id",
    description:
      "One Polymarket market's price per outcome, hour by hour, from the venue's history. market_id is a parameter: set it above the results (or send it as params.market_id to POST /api/query) — the way to build a small API on a saved query.",
    sql: `SELECT toStartOfHour(ts) AS hour, outcome, argMax(price, ts) AS price
FROM polymarket.prices
WHERE id = {market_id:String}
GROUP BY hour, outcome
ORDER BY hour, outcome`,
    chart: { kind: "chart", type: "line", x: "hour", y: ["price"], series: "outcome" },
  },
  {
    id: "5e1a0000-0000-4000-8000-000000000014",
    title: "Dollars traded per day in a date window",
    description:
      "Trades and dollars traded per day on each venue between two dates (from and to, both included), summed from every trade. from and to are parameters.",
    sql: `SELECT day, countIf(venue = 'Polymarket') AS polymarket_trades, round(sumIf(amount, venue = 'Polymarket')) AS polymarket_usd,
  countIf(venue = 'Kalshi') AS kalshi_trades, round(sumIf(amount, venue = 'Kalshi')) AS kalshi_usd
FROM (
  SELECT toDate(ts) AS day, 'Polymarket' AS venue, size * price AS amount
  FROM polymarket.trades WHERE ts >= {from:Date} AND ts < {to:Date} + 1
  UNION ALL
  SELECT toDate(created_time), 'Kalshi', count * yes_price
  FROM kalshi.trades WHERE created_time >= {from:Date} AND created_time < {to:Date} + 1
)
GROUP BY day
ORDER BY day`,
    chart: { kind: "chart", type: "bar", x: "day", y: ["polymarket_usd", "kalshi_usd"] },
  },
  {
    id: "5e1a0000-0000-4000-8000-000000000015",
    title: "The same contract on both venues, and the price gap",
    description:
      "Markets paired as the same contract on Polymarket and Kalshi and checked (an admin confirmed them, or the adjudicator read both rules: method model; the matcher's unchecked pairs are method auto), with each venue's Yes price now (Kalshi's turned round when its yes is Polymarket's second outcome) and the gap. The gap ignores fees, the spread, the depth of each book, settlement differences and timing: it is where to look, not a profit.",
    sql: `SELECT p.question AS question, pairs.kalshi_ticker AS kalshi_ticker, pairs.orientation AS orientation,
  round(p.yes_probability, 3) AS polymarket_yes,
  round(if(pairs.orientation = 'same', k.last_price_dollars, 1 - k.last_price_dollars), 3) AS kalshi_yes,
  round(abs(polymarket_yes - kalshi_yes), 3) AS gap,
  pairs.method AS method, pairs.reasons AS reasons
FROM crossvenue.market_pairs AS pairs FINAL
INNER JOIN polymarket.markets_latest AS p FINAL ON p.id = pairs.polymarket_id
INNER JOIN kalshi.markets_latest AS k FINAL ON k.ticker = pairs.kalshi_ticker
WHERE pairs.relation = 'same_contract' AND pairs.method IN ('confirmed', 'model')
  AND NOT ifNull(p.closed, false) AND k.status IN ('active', 'open')
ORDER BY gap DESC
LIMIT 50`,
    chart: null,
  },
  {
    id: "5e1a0000-0000-4000-8000-000000000016",
    title: "Pairs whose gap widened most today",
    description:
      "Checked same-contract pairs (confirmed by an admin or settled by the adjudicator) with the gap between the venues' Yes prices at the day's first snapshot and at the latest one (UTC), widest change first. From the 10-minute snapshots of both venues; Kalshi's price turned round where its yes is Polymarket's second outcome.",
    sql: `WITH
  pairs AS (
    SELECT polymarket_id, kalshi_ticker, orientation
    FROM crossvenue.market_pairs FINAL
    WHERE relation = 'same_contract' AND method IN ('confirmed', 'model')
  ),
  pm AS (
    SELECT id, any(question) AS question,
      argMin(yes_probability, sync_timestamp) AS opened, argMax(yes_probability, sync_timestamp) AS latest
    FROM polymarket.markets
    WHERE sync_timestamp >= toStartOfDay(now()) AND id IN (SELECT polymarket_id FROM pairs)
    GROUP BY id
  ),
  k AS (
    SELECT ticker, argMin(last_price_dollars, sync_timestamp) AS opened, argMax(last_price_dollars, sync_timestamp) AS latest
    FROM kalshi.markets
    WHERE sync_timestamp >= toStartOfDay(now()) AND ticker IN (SELECT kalshi_ticker FROM pairs)
    GROUP BY ticker
  )
SELECT pm.question AS question, pairs.polymarket_id AS polymarket_id, pairs.kalshi_ticker AS kalshi_ticker,
  round(abs(pm.opened - if(pairs.orientation = 'same', k.opened, 1 - k.opened)), 4) AS gap_at_day_start,
  round(abs(pm.latest - if(pairs.orientation = 'same', k.latest, 1 - k.latest)), 4) AS gap_now,
  round(gap_now - gap_at_day_start, 4) AS widened_by
FROM pairs
INNER JOIN pm ON pm.id = pairs.polymarket_id
INNER JOIN k ON k.ticker = pairs.kalshi_ticker
ORDER BY widened_by DESC
LIMIT 25`,
    chart: null,
  },
  {
    id: "5e1a0000-0000-4000-8000-000000000017",
    title: "One pair's price on both venues, from the full history",
    description:
      "A paired Polymarket market's hourly price next to its Kalshi twin's hourly candle close, from each venue's price history (back to the market's start, not only the archive's snapshots), over the last days. polymarket_id and days are parameters; the Kalshi market is the one it is paired with as the same contract, checked by an admin or the adjudicator.",
    sql: `WITH pair AS (
  SELECT kalshi_ticker, orientation
  FROM crossvenue.market_pairs FINAL
  WHERE polymarket_id = {polymarket_id:String} AND relation = 'same_contract' AND method IN ('confirmed', 'model')
  LIMIT 1
)
SELECT hour, venue, price
FROM (
  SELECT toStartOfHour(prices.ts) AS hour, 'Polymarket' AS venue, argMax(prices.price, prices.ts) AS price
  FROM polymarket.prices AS prices
  -- The first outcome's price: the one Kalshi's yes (or no, when inverse) stands for.
  INNER JOIN (
    SELECT id, outcomes[1] AS first_outcome FROM polymarket.markets_latest FINAL WHERE id = {polymarket_id:String}
  ) AS market ON market.id = prices.id AND market.first_outcome = prices.outcome
  WHERE prices.id = {polymarket_id:String} AND prices.ts >= now() - toIntervalDay({days:UInt16})
  GROUP BY hour
  UNION ALL
  SELECT toStartOfHour(candles.end_period_ts - 1) AS hour, 'Kalshi' AS venue,
    argMax(if(pair.orientation = 'same', candles.price_close, 1 - candles.price_close), candles.end_period_ts) AS price
  FROM kalshi.candles AS candles
  INNER JOIN pair ON pair.kalshi_ticker = candles.ticker
  WHERE candles.ticker IN (SELECT kalshi_ticker FROM pair) AND candles.period_minutes = 60
    AND candles.price_close IS NOT NULL AND candles.end_period_ts >= now() - toIntervalDay({days:UInt16})
  GROUP BY hour
)
ORDER BY hour, venue`,
    chart: { kind: "chart", type: "line", x: "hour", y: ["price"], series: "venue" },
  },
  {
    id: "5e1a0000-0000-4000-8000-000000000018",
    title: "Replay one market's order book, capture by capture",
    description:
      "A Kalshi market's best bid and ask and the contracts resting on each side (top 10 levels) at every capture of the last day, from the archive's own books: Kalshi keeps no book history. ticker is a parameter. The levels themselves are in kalshi.book_levels.",
    sql: `SELECT
  sync_timestamp AS captured_at,
  toFloat64(bid_price[1]) AS best_bid,
  toFloat64(ask_price[1]) AS best_ask,
  round(arraySum(bid_size)) AS bid_depth,
  round(arraySum(ask_size)) AS ask_depth
FROM kalshi.books
WHERE ticker = {ticker:String} AND state != 'closed' AND sync_timestamp >= now() - INTERVAL 1 DAY
ORDER BY captured_at`,
    chart: { kind: "chart", type: "line", x: "captured_at", y: ["best_bid", "best_ask"] },
  },
  {
    id: "5e1a0000-0000-4000-8000-000000000019",
    title: "What $1,000 of Yes costs, market by market, an hour ago",
    description:
      "Every Kalshi market's book as of an hour ago (book_asof), and the average price a $1,000 buy of Yes would have paid walking up its asks: the executable price, next to the best ask. Empty where the ten captured levels hold less than $1,000.",
    sql: `WITH asks AS (
  SELECT
    ticker,
    any(captured_at) AS captured_at,
    arrayMap(l -> toFloat64(l.2), arraySort(groupArrayIf((level, price), side = 'ask'))) AS p,
    arrayMap(l -> l.2, arraySort(groupArrayIf((level, size), side = 'ask'))) AS q
  FROM kalshi.book_asof(now() - INTERVAL 1 HOUR)
  GROUP BY ticker
)
SELECT
  ticker,
  captured_at,
  p[1] AS best_ask,
  arrayCumSum(arrayMap((price, size) -> price * size, p, q)) AS cost,
  arrayFirstIndex(c -> c >= 1000, cost) AS levels,
  if(levels = 0, NULL,
     round(1000 / (arraySum(arraySlice(q, 1, levels - 1)) + (1000 - if(levels = 1, 0, cost[levels - 1])) / p[levels]), 4)) AS price_to_fill_1000
FROM asks
WHERE length(p) > 0
ORDER BY price_to_fill_1000 - best_ask DESC
LIMIT 50`,
    chart: null,
  },
  {
    id: "5e1a0000-0000-4000-8000-000000000020",
    title: "How markets settled, on both venues",
    description:
      "The resolutions ledger by venue and outcome: how many markets settled yes, no, 50-50 (split), at a scalar value or void; how many were disputed, or changed after the outcome was first published; and how long after its scheduled end the outcome became final (median hours; a negative figure is a market settled early).",
    sql: `SELECT
  venue,
  outcome_type,
  count() AS markets,
  countIf(disputed) AS disputed,
  countIf(flipped) AS changed_after_publication,
  round(quantileIf(0.5)(dateDiff('minute', end_date, resolved_at) / 60, end_date IS NOT NULL AND resolved_at IS NOT NULL), 1) AS median_hours_after_end
FROM crossvenue.resolutions
GROUP BY venue, outcome_type
ORDER BY venue, markets DESC`,
    chart: null,
  },
];
