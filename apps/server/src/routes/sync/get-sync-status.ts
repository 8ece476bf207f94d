import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import { type SyncStatusDeps, syncStatus } from "../../services/sync/sync-status";

/** `GET /api/sync/status`, and the same answer at the older `GET /sync/status`. */
export function getSyncStatusRoutes(app: Hono<AppEnv>, deps: SyncStatusDeps): void {
  for (const endpoint of [endpoints.syncStatus, endpoints.syncStatusLegacy]) {
    mount(app, endpoint, () => syncStatus(deps));
  }
}
