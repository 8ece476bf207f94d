import { endpoints } from "@epicenter/contracts";
import { getSyncStatus, type SchedulerState } from "@epicenter/ingest";
import type { Warehouse } from "@epicenter/warehouse";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";

/** `GET /api/sync/status`, and the same answer at the older `GET /sync/status`. */
export function getSyncStatusRoutes(
  app: Hono<AppEnv>,
  deps: { warehouse: Warehouse; syncState?: (() => SchedulerState) | undefined },
): void {
  for (const endpoint of [endpoints.syncStatus, endpoints.syncStatusLegacy]) {
    mount(app, endpoint, () => getSyncStatus(deps.warehouse, deps.syncState?.()));
  }
}
