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
