/** Routes the catalog, dashboards, hub and landing screens need beyond the query service. */
import type { Hono } from "hono";
import type { AppDeps } from "../../app";
import type { AppEnv } from "../../http/env";
import { dashboardRoutes } from "./dashboards";
import { getStatsRoutes } from "./get-stats";

export function screenRoutes(app: Hono<AppEnv>, deps: AppDeps): void {
  getStatsRoutes(app, { warehouse: deps.warehouse, clock: deps.clock });
  dashboardRoutes(app, {
    sandbox: deps.sandbox,
    admission: deps.queryAdmission,
    db: deps.appDatabase.db,
    queryRuns: deps.queryRuns,
    logger: deps.logger,
    clock: deps.clock,
  });
}
