/** Where each source's archive stands, at the path and the older one. */
import type { AreaHandlers } from "../../http/mount";
import { getSyncStatus } from "./get-sync-status";

export interface SyncRouteDeps {
  sync: Parameters<typeof getSyncStatus>[0];
}

export function syncRoutes(deps: SyncRouteDeps): AreaHandlers<"syncStatus" | "syncStatusLegacy"> {
  const syncStatus = getSyncStatus(deps.sync);
  return {
    syncStatus: syncStatus,
    syncStatusLegacy: syncStatus,
  };
}
