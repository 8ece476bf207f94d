/**
 * The system's example queries, seeded at every start under fixed ids (so a changed
 * example replaces the old one): the spec's sample analytic questions written for our
 * tables, plus the latest-row pattern every user needs.
 *
 * The analytic SQL itself is shared with the Pulse dashboards (`market-sql.ts`).
 * `*_latest` tables are ReplacingMergeTree; `FINAL` gives exactly one row per market.
 */
import type { ChartSpec } from "@epicenter/contracts";
import {
  dailyActivity,
  KALSHI,
  marketsPerRegion,
  openByCategory,
  POLYMARKET,
  platformComparison,
  tradingPerHour,
} from "./market-sql";

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
    sql: platformComparison([POLYMARKET, KALSHI]),
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
];
