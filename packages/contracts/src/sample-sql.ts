/**
 * SQL the product shows people as an example to copy, kept where both the SPA (which shows
 * it) and the server's tests (which run it and check its rows) can read it.
 */

/** The landing page's sample: the ten most traded open Polymarket markets, each once. */
export const LANDING_SAMPLE_SQL = `SELECT question,
       round(yes_probability * 100, 1) AS yes_pct,
       volume24hr
FROM polymarket.markets_latest FINAL
WHERE NOT ifNull(closed, false)
ORDER BY volume24hr DESC
LIMIT 10`;

/** Docs: the newest snapshot of each market from the snapshots, by row_number. */
export const DOCS_LATEST_ROW_SQL = `SELECT id, question, yes_probability, volume24hr, sync_timestamp
FROM (
  SELECT
    *,
    row_number() OVER (PARTITION BY id ORDER BY sync_timestamp DESC) AS rn
  FROM polymarket.markets
  WHERE sync_timestamp >= now() - INTERVAL 1 DAY
)
WHERE rn = 1
ORDER BY volume24hr DESC NULLS LAST
LIMIT 20`;

/** Docs: the latest-row pattern's rows from the latest-state twin, the rewrite the editor offers. */
export const DOCS_LATEST_WINDOW_SQL = `SELECT id, question, yes_probability, volume24hr, sync_timestamp
FROM polymarket.markets_latest FINAL
WHERE sync_timestamp >= now() - INTERVAL 1 DAY
ORDER BY volume24hr DESC NULLS LAST
LIMIT 20`;

/** Docs: the same from a *_latest table, with FINAL. */
export const DOCS_LATEST_TABLE_SQL = `SELECT ticker, title, yes_sub_title, last_price_dollars, volume_24h
FROM kalshi.markets_latest FINAL
WHERE status = 'active'
ORDER BY volume_24h DESC NULLS LAST
LIMIT 20`;

/** Docs: a market's price path from the venue's own history. */
export const DOCS_HISTORY_SQL = `SELECT ts, outcome, price
FROM polymarket.prices
WHERE id = '253591'
ORDER BY outcome, ts`;

/** Docs: Kalshi's hourly closes, a quiet hour carried forward from the last trade. */
export const DOCS_FORWARD_FILL_SQL = `SELECT end_period_ts,
  coalesce(price_close, price_previous) AS price
FROM kalshi.candles
WHERE ticker = 'KXNBAGAME-26JUN13NYKSAS-SAS'
  AND period_minutes = 60
ORDER BY end_period_ts`;

/** Hub → Connect: the saved query that the "saved query as an API" example stands for. */
export const PARAMETERISED_QUERY = `SELECT toStartOfDay(ts) AS day, outcome, avg(price) AS price
FROM polymarket.prices
WHERE id = {market_id:String}
  AND ts >= now() - INTERVAL {days:UInt16} DAY
GROUP BY day, outcome
ORDER BY outcome, day`;

/** The API reference's example body for POST /api/query. */
export const API_EXAMPLE_SQL =
  "SELECT question, yes_probability, volume24hr FROM polymarket.markets_latest FINAL WHERE NOT ifNull(closed, false) ORDER BY volume24hr DESC NULLS LAST LIMIT 5";
