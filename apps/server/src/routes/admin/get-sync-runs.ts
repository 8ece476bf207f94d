import type { endpoints } from "@epicenter/contracts";
import type { Warehouse } from "@epicenter/warehouse";
import type { Handler } from "../../http/mount";
import { recentSyncRuns } from "../../services/admin/admin";

export function getAdminSyncRuns(deps: { warehouse: Warehouse }): Handler<typeof endpoints.adminSyncRuns> {
  return async ({ query }) => ({
    runs: await recentSyncRuns(deps.warehouse, { limit: 100, hideIdleBackfill: query.hide_idle_backfill === "true" }),
  });
}
