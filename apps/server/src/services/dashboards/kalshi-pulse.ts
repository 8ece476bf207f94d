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
import { VENUE_READERS } from "../venues";

const POLYMARKET = VENUE_READERS.polymarket.tables;
const KALSHI = VENUE_READERS.kalshi.tables;

import { sharedNumberTiles, sharedPulseTiles, tile } from "./pulse-tiles";

const OPEN = KALSHI.open;

export const KALSHI_PULSE_TILES: readonly DashboardTile[] = [
  ...sharedNumberTiles(KALSHI),
  tile({
    id: "open-interest",
    title: "Open interest",
    description: "Contracts outstanding across open markets.",
    sql: `SELECT round(sum(ifNull(open_interest, 0))) AS open_interest
FROM kalshi.markets_latest FINAL
WHERE ${OPEN}`,
    view: { kind: "number", column: "open_interest" },
    size: "sm",
    formats: { open_interest: "contracts" },
  }),
  ...sharedPulseTiles(KALSHI, [POLYMARKET]),
  tile({
    id: "top-markets-24h",
    title: "Top markets by 24h volume",
    description: "The busiest active markets right now; prices in dollars, volume in contracts.",
    sql: `SELECT
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
    view: { kind: "table" },
    size: "lg",
    formats: {
      last_price_dollars: "price",
      volume_24h: "contracts",
      open_interest: "contracts",
      close_time: "datetime",
    },
  }),
];
