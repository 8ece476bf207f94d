/**
 * Polymarket Pulse: the spec's sample analytic questions (SPEC §2 /dashboards) for
 * Polymarket, as tiles. Money is USDC; `volume` is cumulative since the market opened,
 * so activity in a window is the rise of `volume` between the window's snapshots (the
 * snapshots carry no trade list).
 */
import type { DashboardTile } from "@epicenter/contracts";
import { VENUE_READERS } from "../venues";

const POLYMARKET = VENUE_READERS.polymarket.tables;
const KALSHI = VENUE_READERS.kalshi.tables;

import { sharedNumberTiles, sharedPulseTiles, tile } from "./pulse-tiles";

const OPEN = POLYMARKET.open;

export const POLYMARKET_PULSE_TILES: readonly DashboardTile[] = [
  ...sharedNumberTiles(POLYMARKET),
  tile({
    id: "open-events",
    title: "Open events",
    description: "Events (question groups) not yet closed.",
    sql: `SELECT count() AS open_events
FROM polymarket.events_latest FINAL
WHERE NOT ifNull(closed, false)`,
    view: { kind: "number", column: "open_events" },
    size: "sm",
    formats: { open_events: "count" },
  }),
  ...sharedPulseTiles(POLYMARKET, [KALSHI]),
  tile({
    id: "top-markets-24h",
    title: "Top markets by 24h volume",
    description: "The busiest open markets right now.",
    sql: `SELECT
  question,
  round(yes_probability, 3) AS yes_probability,
  round(volume24hr) AS volume_24h,
  round(liquidity) AS liquidity,
  endDate AS end_date
FROM polymarket.markets_latest FINAL
WHERE ${OPEN}
ORDER BY volume24hr DESC NULLS LAST
LIMIT 10`,
    view: { kind: "table" },
    size: "lg",
    formats: { yes_probability: "probability", volume_24h: "usd", liquidity: "usd", end_date: "datetime" },
  }),
];
