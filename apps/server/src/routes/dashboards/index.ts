/** The platform statistics (at the path and the older one) and the dashboards with their tiles. */
import type { AreaHandlers } from "../../http/mount";
import { getDashboard } from "./get-dashboard";
import { getDashboardTile } from "./get-dashboard-tile";
import { getDashboards } from "./get-dashboards";
import { getStats } from "./get-stats";

export interface DashboardsRouteDeps {
  stats: Parameters<typeof getStats>[0];
  queries: Parameters<typeof getDashboardTile>[0];
}

export function dashboardsRoutes(
  deps: DashboardsRouteDeps,
): AreaHandlers<"platformStats" | "platformStatsLegacy" | "listDashboards" | "getDashboard" | "runDashboardTile"> {
  const stats = getStats(deps.stats);
  return {
    platformStats: stats,
    platformStatsLegacy: stats,
    listDashboards: getDashboards(),
    getDashboard: getDashboard(),
    runDashboardTile: getDashboardTile(deps.queries),
  };
}
