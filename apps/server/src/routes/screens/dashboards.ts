// The dashboards: the list, one dashboard's tiles, and one tile's rows.
import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import { principalOf } from "../../http/access";
import type { AppEnv } from "../../http/env";
import { notFound, readParams } from "../../http/errors";
import { mount } from "../../http/mount";
import { queryHttpError } from "../../http/query-errors";
import type { QueryServiceDeps } from "../../services/queries/run-query";
import { findDashboard, findTile, listDashboards, runTile } from "../../services/screens/dashboards";

export function dashboardRoutes(app: Hono<AppEnv>, deps: QueryServiceDeps): void {
  mount(app, endpoints.listDashboards, (c) => {
    const dashboards = listDashboards();
    return c.json({ dashboards, count: dashboards.length }, 200);
  });

  const dashboardParams = endpoints.getDashboard.params;
  mount(app, endpoints.getDashboard, (c) => {
    const { id } = readParams(c, dashboardParams);
    const dashboard = findDashboard(id);
    if (!dashboard) throw notFound(`No dashboard ${id}.`);
    return c.json(dashboard, 200);
  });

  const tileParams = endpoints.runDashboardTile.params;
  mount(app, endpoints.runDashboardTile, async (c) => {
    const { id, tileId } = readParams(c, tileParams);
    const tile = findTile(id, tileId);
    if (!tile) throw notFound(`No tile ${tileId} on dashboard ${id}.`);
    const principal = principalOf(c);
    try {
      const result = await runTile(deps, {
        dashboardId: id,
        tile,
        userId: principal.user.id,
        apiKeyId: principal.apiKeyId ?? null,
        signal: c.req.raw.signal,
      });
      c.header("cache-control", "no-store");
      return c.json(result, 200);
    } catch (error) {
      throw queryHttpError(error);
    }
  });
}
