/**
 * What an agent is told about the data before it asks: the words of the MCP server's
 * instructions, of its tool descriptions and of the latest-row resource. They repeat the
 * catalog's descriptions (`catalog/descriptions.ts`) and Seismo's grounding
 * (`seismo/grounding.ts`) in the few sentences a tool list has room for; the statements in
 * the latest-row resource are run by the MCP integration test, so none of them can rot.
 */

/** The facts every tool description leans on: units, cadence, what is left out. */
export const DATA_FACTS =
  "Prices are probabilities from 0 to 1 (Polymarket outcomePrices in USDC per share, Kalshi *_dollars columns in dollars). " +
  "Snapshot tables hold one row per market per sync run, about every 10 minutes; the *_latest tables hold the newest row per market (read them with FINAL). " +
  "Kalshi combo (multivariate, KXMVE…) markets are excluded. " +
  "Price and trade history from the venues themselves: polymarket.prices, polymarket.trades, kalshi.candles, kalshi.trades. " +
  "Kalshi volume and open_interest are contracts, not dollars; Polymarket volume and liquidity are USDC. " +
  "Live feeds: <venue>.book_changes holds every book change tick by tick, trades with source = 'stream' came by the feed (each trade once with the REST tape's), <venue>.stream_gaps and stream_sessions say when the capture could not vouch for a book, and book_asof(ts) is exact to the event where it could (captured_by).";

export const INSTRUCTIONS = `Epicenter archives Polymarket and Kalshi prediction markets in a ClickHouse warehouse: a database per venue, polymarket and kalshi, plus crossvenue (market_pairs: the same question on both venues, with relation, orientation and the reasons), queried in ClickHouse SQL (one read-only SELECT per call, market tables only, time- and row-limited).
${DATA_FACTS}
Start with list_tables and describe_table, or search_markets to find a market's id or ticker; run_query runs your own SELECT; list_saved_queries and run_saved_query reuse the queries people saved (with {name:Type} parameters). Read the resource epicenter://docs/latest-row-pattern before counting or summing snapshot tables.`;

export const LATEST_ROW_PATTERN = `# The latest-row pattern

The snapshot tables — polymarket.events, polymarket.markets, kalshi.events, kalshi.markets — hold one row per event or market **per sync run**. A run takes the whole catalog about every 10 minutes and stamps every row it writes with the same \`sync_timestamp\` (UTC). A market open for a week therefore appears about a thousand times: never count or sum a snapshot table without first keeping one row per key (\`id\` on Polymarket, \`ticker\` on kalshi.markets, \`event_ticker\` on kalshi.events).

## The current state: the *_latest tables

polymarket.markets_latest, polymarket.events_latest, kalshi.markets_latest and kalshi.events_latest hold the newest snapshot of each key: every column of their snapshot table except \`raw\` (the upstream JSON is kept in the snapshots only). They are ReplacingMergeTree tables on \`sync_timestamp\`, so read them **with FINAL** to get exactly one row per key:

\`\`\`sql
SELECT id, question, outcomes, outcomePrices, volume
FROM polymarket.markets_latest FINAL
WHERE NOT ifNull(closed, false)
ORDER BY volume DESC NULLS LAST
LIMIT 20
\`\`\`

\`\`\`sql
SELECT ticker, title, yes_sub_title, last_price_dollars, volume
FROM kalshi.markets_latest FINAL
WHERE status = 'active'
ORDER BY volume DESC NULLS LAST
LIMIT 20
\`\`\`

## The newest row from the snapshots: argMax

To ask about the state at another time, or for a column only the snapshots have (\`raw\`), group the snapshots by key and take each column at the newest \`sync_timestamp\` with \`argMax(column, sync_timestamp)\`. Filter on \`sync_timestamp\` first: the tables are ordered by it, so a time window reads only its part of the table.

\`\`\`sql
SELECT id,
       argMax(question, sync_timestamp) AS question,
       argMax(yes_probability, sync_timestamp) AS yes_probability,
       max(sync_timestamp) AS as_of
FROM polymarket.markets
WHERE sync_timestamp <= now()
GROUP BY id
ORDER BY as_of DESC
LIMIT 20
\`\`\`

The same with \`row_number()\`, when you want whole rows:

\`\`\`sql
SELECT ticker, title, last_price_dollars, sync_timestamp
FROM (
  SELECT ticker, title, last_price_dollars, sync_timestamp,
         row_number() OVER (PARTITION BY ticker ORDER BY sync_timestamp DESC) AS rn
  FROM kalshi.markets
  WHERE sync_timestamp <= now()
)
WHERE rn = 1
LIMIT 20
\`\`\`

## Prices over time

Prefer the venues' own history over the snapshots for prices and volume through time: polymarket.prices (one row per market id, outcome token and time \`ts\`; price 0–1), polymarket.trades (one row per fill), kalshi.candles (one row per ticker, \`period_minutes\` 1 or 60 — a day is its hours, rolled up — and \`end_period_ts\`; a period with no trade has NULL trade prices, not 0) and kalshi.trades (one row per \`trade_id\`). These hold each point once, so count and sum them without FINAL. A gap means nothing happened, not missing data. polymarket.daily_closes holds each outcome's last price of each UTC day (argMax(close, last_ts) per id, outcome, day): read it for whole-archive daily questions. polymarket.coverage and kalshi.coverage say where each market's history stands (state, history_until, error; no row means not reached yet).

## Units

Prices are probabilities from 0 to 1. Polymarket volume and liquidity are USDC; Kalshi volume and open_interest are contracts (multiply by last_price_dollars for dollars). Kalshi combo (multivariate, KXMVE…) markets are excluded and never stored.
`;
