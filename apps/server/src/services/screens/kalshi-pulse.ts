/**
 * Kalshi Pulse: the spec's sample analytic questions written for Kalshi. What differs
 * from Polymarket and shapes the SQL:
 * - A market's text is its `title` plus `yes_sub_title` (the outcome label, e.g. a
 *   temperature bracket), so keywords are matched on both.
 * - `volume`, `volume_24h` and `open_interest` count contracts; prices are dollars 0–1,
 *   so a contract's price is the market's probability and contracts × price is dollars.
 * - Open means `status = 'active'`; settled markets move to determined, then finalized.
 * - `volume` is cumulative, so activity in a window is its rise between snapshots.
 */
import type { DashboardTile } from "@epicenter/contracts";
import { KALSHI, POLYMARKET } from "../queries/market-sql";
import { sharedPulseTiles } from "./pulse-tiles";

const OPEN = KALSHI.open;

export const KALSHI_PULSE_TILES: readonly DashboardTile[] = [
  {
    kind: "tile",
    id: "open-markets",
    title: "Open markets",
    description: "Markets with status active in their latest snapshot.",
    query: `SELECT count() AS open_markets
FROM kalshi.markets_latest FINAL
WHERE ${OPEN}`,
    chart: { kind: "number", column: "open_markets" },
    size: "sm",
    formats: { open_markets: "count" },
  },
  {
    kind: "tile",
    id: "contracts-24h",
    title: "24h volume",
    description: "Contracts traded over the last 24 hours across open markets.",
    query: `SELECT round(sum(ifNull(volume_24h, 0))) AS contracts_24h
FROM kalshi.markets_latest FINAL
WHERE ${OPEN}`,
    chart: { kind: "number", column: "contracts_24h" },
    size: "sm",
    formats: { contracts_24h: "contracts" },
  },
  {
    kind: "tile",
    id: "open-interest",
    title: "Open interest",
    description: "Contracts outstanding across open markets.",
    query: `SELECT round(sum(ifNull(open_interest, 0))) AS open_interest
FROM kalshi.markets_latest FINAL
WHERE ${OPEN}`,
    chart: { kind: "number", column: "open_interest" },
    size: "sm",
    formats: { open_interest: "contracts" },
  },
  {
    kind: "tile",
    id: "markets-traded-24h",
    title: "Markets traded, last 24h",
    description: "Markets whose cumulative volume rose over the last day.",
    query: `SELECT countIf(traded > 0) AS markets_traded
FROM (
  SELECT ticker, max(volume) - min(volume) AS traded
  FROM kalshi.markets
  WHERE sync_timestamp >= now() - INTERVAL 1 DAY
  GROUP BY ticker
)`,
    chart: { kind: "number", column: "markets_traded" },
    size: "sm",
    formats: { markets_traded: "count" },
  },
  ...sharedPulseTiles(KALSHI, [POLYMARKET]),
  {
    kind: "tile",
    id: "top-markets-24h",
    title: "Top markets by 24h volume",
    description: "The busiest active markets right now; prices in dollars, volume in contracts.",
    query: `SELECT
  ticker,
  title,
  yes_sub_title,
  last_price_dollars,
  volume_24h,
  open_interest,
  close_time
FROM kalshi.markets_latest FINAL
WHERE ${OPEN}
ORDER BY volume_24h DESC NULLS LAST
LIMIT 10`,
    chart: { kind: "table" },
    size: "lg",
    formats: {
      last_price_dollars: "price",
      volume_24h: "contracts",
      open_interest: "contracts",
      close_time: "datetime",
    },
  },
];
