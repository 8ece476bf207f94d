/**
 * The dashboards of SPEC §2 as data, and running one tile. A tile's SQL goes through the
 * one query service (`runQuery`, origin "dashboard"), the same sandbox and run record as
 * the editor, so a dashboard can show nothing a user could not query themselves and its
 * runs count in the statistics like any other.
 */
import type { Dashboard, DashboardSummary, DashboardTile, TileResult } from "@epicenter/contracts";
import { type QueryServiceDeps, runQuery } from "../queries/run-query";
import { ARBITRAGE_MONITOR_TILES } from "./arbitrage-monitor";
import { KALSHI_PULSE_TILES } from "./kalshi-pulse";
import { POLYMARKET_PULSE_TILES } from "./polymarket-pulse";

/**
 * Tiles are summaries: a top-N table never needs more rows than this. A chart may (five
 * series of a week's hours is 840 points), up to what a chart plots at all; a tile cut
 * by its limit says so (`DashboardTile.tsx`).
 */
const TILE_ROW_LIMIT = 500;
const CHART_TILE_ROW_LIMIT = 5_000;

const FIVE_MINUTES = 300;

export const DASHBOARDS: readonly Dashboard[] = [
  {
    kind: "dashboard",
    id: "polymarket-pulse",
    title: "Polymarket Pulse",
    description:
      "Open markets by category and region, trading per hour and per day, and the busiest markets on Polymarket. Money in USDC.",
    category: "monitoring",
    refresh: "5min",
    refresh_seconds: FIVE_MINUTES,
    availability: "available",
    source: "polymarket",
    tile_count: POLYMARKET_PULSE_TILES.length,
    tiles: [...POLYMARKET_PULSE_TILES],
  },
  {
    kind: "dashboard",
    id: "kalshi-pulse",
    title: "Kalshi Pulse",
    description:
      "Open markets by category and region, contracts traded per hour and per day, open interest and the busiest markets on Kalshi.",
    category: "monitoring",
    refresh: "5min",
    refresh_seconds: FIVE_MINUTES,
    availability: "available",
    source: "kalshi",
    tile_count: KALSHI_PULSE_TILES.length,
    tiles: [...KALSHI_PULSE_TILES],
  },
  {
    kind: "dashboard",
    id: "arbitrage-monitor",
    title: "Cross-Platform Arbitrage",
    description:
      "The same contract on Polymarket and Kalshi, side by side: both venues' quotes, the gap before and after spreads and fees, and how it moved. A gap is not a profit: it ignores depth, the venues' different rules and settlement, and timing. Its figures use only checked pairs: confirmed by an admin, or settled by the adjudicator reading both rules (method model). The matcher's own pairs (method auto) are listed apart as candidates: on two held-out sets of pairs 81 % and 95.1 % were the same contract, one under the 95 % bar.",
    category: "monitoring",
    refresh: "5min",
    refresh_seconds: FIVE_MINUTES,
    availability: "available",
    source: "both",
    tile_count: ARBITRAGE_MONITOR_TILES.length,
    tiles: [...ARBITRAGE_MONITOR_TILES],
  },
];

export function listDashboards(): DashboardSummary[] {
  return DASHBOARDS.map(({ tiles: _tiles, ...summary }) => summary);
}

export function findDashboard(id: string): Dashboard | undefined {
  return DASHBOARDS.find((dashboard) => dashboard.id === id);
}

export function findTile(dashboardId: string, tileId: string): DashboardTile | undefined {
  return findDashboard(dashboardId)?.tiles.find((tile) => tile.id === tileId);
}

export async function runTile(
  deps: QueryServiceDeps,
  request: {
    dashboardId: string;
    tile: DashboardTile;
    userId: string | null;
    apiKeyId: string | null;
    signal?: AbortSignal;
  },
): Promise<TileResult> {
  const result = await runQuery(deps, {
    sql: request.tile.node.sql,
    limit: request.tile.node.view.kind === "chart" ? CHART_TILE_ROW_LIMIT : TILE_ROW_LIMIT,
    userId: request.userId,
    apiKeyId: request.apiKeyId,
    origin: "dashboard",
    ...(request.signal ? { signal: request.signal } : {}),
  });
  return { ...result, dashboard_id: request.dashboardId, tile_id: request.tile.id, ran_at: deps.clock().toISOString() };
}
