/**
 * The system's example queries, seeded at every start under fixed ids (so a changed
 * example replaces the old one): the spec's sample analytic questions written for our
 * tables, plus the latest-row pattern every user needs.
 *
 * Notes on the tables that shape the SQL:
 * - `*_latest` tables are ReplacingMergeTree; `FINAL` gives exactly one row per market.
 * - Polymarket `closed` and volumes can be NULL (the API omits zero-valued fields).
 * - Polymarket volumes are USDC; Kalshi `volume*` are contracts, prices are dollars.
 * - "Trades" are not in the snapshots; a market counts as traded in a window when its
 *   cumulative volume rose within it, and the rise is the window's volume.
 */
import type { ChartSpec } from "@epicenter/contracts";

export interface ExampleQuery {
  id: string;
  title: string;
  description: string;
  sql: string;
  chart: ChartSpec | null;
}

const POLITICS =
  "election|president|trump|biden|harris|senate|congress|governor|mayor|parliament|prime minister|vote|party|nominee|democrat|republican";
const CRYPTO = "bitcoin|btc|ethereum|eth|crypto|solana|xrp|doge|token|coin|stablecoin|memecoin";
const SPORTS =
  "nba|nfl|mlb|nhl|ufc|fifa|world cup|super bowl|premier league|champions league|tennis|golf|grand prix|match|game \\\\d|win the|series|playoffs";
const FINANCE =
  "fed|interest rate|rates|inflation|cpi|gdp|recession|s&p|nasdaq|dow|stock|earnings|ipo|oil|gold|treasury|tariff";

export const categoryExpression = (column: string) => `multiIf(
    match(lower(${column}), '${POLITICS}'), 'Politics',
    match(lower(${column}), '${CRYPTO}'), 'Crypto',
    match(lower(${column}), '${SPORTS}'), 'Sports',
    match(lower(${column}), '${FINANCE}'), 'Finance',
    'Other')`;

export const regionExpression = (column: string) => `multiIf(
    match(lower(${column}), 'united states|\\\\bu\\\\.?s\\\\.?a?\\\\b|america|trump|biden|harris|senate|congress|nfl|nba|fed\\\\b'), 'USA',
    match(lower(${column}), '\\\\buk\\\\b|britain|british|england|london|starmer|scotland|wales'), 'UK',
    match(lower(${column}), 'china|chinese|beijing|xi jinping|taiwan|hong kong|shanghai'), 'China',
    match(lower(${column}), 'europe|\\\\beu\\\\b|germany|france|italy|spain|poland|ecb|macron|merz|eurozone'), 'Europe',
    'Global')`;

export const EXAMPLE_QUERIES: readonly ExampleQuery[] = [
  {
    id: "5e1a0000-0000-4000-8000-000000000001",
    title: "Open markets by category",
    description:
      "Open Polymarket markets grouped into Politics, Crypto, Sports, Finance and Other by keywords in the question, with their count and total 24 h volume.",
    sql: `SELECT
  ${categoryExpression("question")} AS category,
  count() AS markets,
  round(sum(ifNull(volume24hr, 0))) AS volume_24h
FROM polymarket.markets_latest FINAL
WHERE NOT ifNull(closed, false)
GROUP BY category
ORDER BY volume_24h DESC`,
    chart: { kind: "chart", type: "bar", x: "category", y: ["volume_24h"] },
  },
  {
    id: "5e1a0000-0000-4000-8000-000000000002",
    title: "Trading per hour, last 24 hours",
    description:
      "Markets traded and volume traded per hour over the last day, from the rise of each market's cumulative volume between snapshots.",
    sql: `WITH per_market AS (
  SELECT
    id,
    toStartOfHour(sync_timestamp) AS hour,
    max(volume) - min(volume) AS traded
  FROM polymarket.markets
  WHERE sync_timestamp >= now() - INTERVAL 1 DAY
  GROUP BY id, hour
)
SELECT
  hour,
  countIf(traded > 0) AS markets_traded,
  round(sum(traded)) AS volume
FROM per_market
GROUP BY hour
ORDER BY hour`,
    chart: { kind: "chart", type: "area", x: "hour", y: ["volume"] },
  },
  {
    id: "5e1a0000-0000-4000-8000-000000000003",
    title: "Markets per region",
    description: "Open Polymarket markets by region (USA, UK, China, Europe, Global), from keywords in the question.",
    sql: `SELECT
  ${regionExpression("question")} AS region,
  count() AS markets,
  round(sum(ifNull(volume24hr, 0))) AS volume_24h
FROM polymarket.markets_latest FINAL
WHERE NOT ifNull(closed, false)
GROUP BY region
ORDER BY markets DESC`,
    chart: { kind: "chart", type: "bar", x: "region", y: ["markets"] },
  },
  {
    id: "5e1a0000-0000-4000-8000-000000000004",
    title: "Open markets and volume per platform",
    description:
      "How many markets are open on each venue and their 24 h volume (Polymarket in USDC, Kalshi in contracts × last price, i.e. dollars).",
    sql: `SELECT
  'Polymarket' AS platform,
  count() AS open_markets,
  round(sum(ifNull(volume24hr, 0))) AS volume_24h_usd
FROM polymarket.markets_latest FINAL
WHERE NOT ifNull(closed, false)
UNION ALL
SELECT
  'Kalshi' AS platform,
  count() AS open_markets,
  round(sum(ifNull(volume_24h, 0) * ifNull(last_price_dollars, 0))) AS volume_24h_usd
FROM kalshi.markets_latest FINAL
WHERE status = 'active'`,
    chart: { kind: "chart", type: "bar", x: "platform", y: ["open_markets"] },
  },
  {
    id: "5e1a0000-0000-4000-8000-000000000005",
    title: "Daily activity, last 7 days",
    description:
      "Per day: Polymarket markets traded, volume traded, and the average yes probability across markets, over the last 7 days.",
    sql: `WITH daily AS (
  SELECT
    toDate(sync_timestamp) AS day,
    id,
    max(volume) - min(volume) AS traded,
    avg(yes_probability) AS yes_probability
  FROM polymarket.markets
  WHERE sync_timestamp >= now() - INTERVAL 7 DAY
  GROUP BY day, id
)
SELECT
  day,
  countIf(traded > 0) AS markets_traded,
  round(sum(traded)) AS volume,
  round(avg(yes_probability), 4) AS avg_yes_probability
FROM daily
GROUP BY day
ORDER BY day`,
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
];
