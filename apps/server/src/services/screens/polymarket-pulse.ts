/**
 * Polymarket Pulse: the spec's sample analytic questions (SPEC §2 /dashboards) for
 * Polymarket, as tiles. Money is USDC; `volume` is cumulative since the market opened,
 * so activity in a window is the rise of `volume` between the window's snapshots (the
 * snapshots carry no trade list).
 */
import type { DashboardTile } from "@epicenter/contracts";
import { KALSHI, POLYMARKET } from "../queries/market-sql";
import { sharedPulseTiles } from "./pulse-tiles";

const OPEN = POLYMARKET.open;

export const POLYMARKET_PULSE_TILES: readonly DashboardTile[] = [
  {
    kind: "tile",
    id: "open-markets",
    title: "Open markets",
    description: "Markets still trading in their latest snapshot.",
    query: `SELECT count() AS open_markets
FROM polymarket.markets_latest FINAL
WHERE ${OPEN}`,
    chart: { kind: "number", column: "open_markets" },
    size: "sm",
    formats: { open_markets: "count" },
  },
  {
    kind: "tile",
    id: "volume-24h",
    title: "24h volume",
    description: "Sum of volume24hr over open markets, in USDC.",
    query: `SELECT round(sum(ifNull(volume24hr, 0))) AS volume_24h
FROM polymarket.markets_latest FINAL
WHERE ${OPEN}`,
    chart: { kind: "number", column: "volume_24h" },
    size: "sm",
    formats: { volume_24h: "usd" },
  },
  {
    kind: "tile",
    id: "markets-traded-24h",
    title: "Markets traded, last 24h",
    description: "Markets whose cumulative volume rose over the last day.",
    query: `SELECT countIf(traded > 0) AS markets_traded
FROM (
  SELECT id, max(volume) - min(volume) AS traded
  FROM polymarket.markets
  WHERE sync_timestamp >= now() - INTERVAL 1 DAY
  GROUP BY id
)`,
    chart: { kind: "number", column: "markets_traded" },
    size: "sm",
    formats: { markets_traded: "count" },
  },
  {
    kind: "tile",
    id: "open-events",
    title: "Open events",
    description: "Events (question groups) not yet closed.",
    query: `SELECT count() AS open_events
FROM polymarket.events_latest FINAL
WHERE NOT ifNull(closed, false)`,
    chart: { kind: "number", column: "open_events" },
    size: "sm",
    formats: { open_events: "count" },
  },
  ...sharedPulseTiles(POLYMARKET, [KALSHI]),
  {
    kind: "tile",
    id: "top-markets-24h",
    title: "Top markets by 24h volume",
    description: "The busiest open markets right now.",
    query: `SELECT
  question,
  round(yes_probability, 3) AS yes_probability,
  round(volume24hr) AS volume_24h,
  round(liquidity) AS liquidity,
  endDate AS end_date
FROM polymarket.markets_latest FINAL
WHERE ${OPEN}
ORDER BY volume24hr DESC NULLS LAST
LIMIT 10`,
    chart: { kind: "table" },
    size: "lg",
    formats: { yes_probability: "probability", volume_24h: "usd", liquidity: "usd", end_date: "datetime" },
  },
];
