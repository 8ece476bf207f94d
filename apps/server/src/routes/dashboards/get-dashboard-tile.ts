import type { endpoints } from "@epicenter/contracts";
import { principalOf } from "../../http/access";
import { notFound } from "../../http/errors";
import type { Handler } from "../../http/mount";
import { findTile, runTile } from "../../services/dashboards/dashboards";
import type { QueryServiceDeps } from "../../services/queries/run-query";

export function getDashboardTile(deps: QueryServiceDeps): Handler<typeof endpoints.runDashboardTile> {
  return async ({ params, c }) => {
    const tile = findTile(params.id, params.tileId);
    if (!tile) throw notFound(`No tile ${params.tileId} on dashboard ${params.id}.`);
    const principal = principalOf(c);
    c.header("cache-control", "no-store");
    return runTile(deps, {
      dashboardId: params.id,
      tile,
      userId: principal.user.id,
      apiKeyId: principal.apiKeyId ?? null,
      signal: c.req.raw.signal,
    });
  };
}
