import { endpoints } from "@epicenter/contracts";
import type { Warehouse } from "@epicenter/warehouse";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import { recentSyncRuns } from "../../services/admin/admin";

export function getAdminSyncRuns(app: Hono<AppEnv>, deps: { warehouse: Warehouse }): void {
  mount(app, endpoints.adminSyncRuns, async ({ query }) => ({
    runs: await recentSyncRuns(deps.warehouse, { limit: 100, hideIdleBackfill: query.hide_idle_backfill === "true" }),
  }));
}
