/**
 * Where each source's archive stands (`GET /api/sync/status`): the runs recorded in the
 * warehouse, with the running scheduler's view of each source when one runs in this process.
 */
import type { SyncStatusResponse } from "@epicenter/contracts";
import { getSyncStatus, type SchedulerState } from "@epicenter/ingest";
import type { Warehouse } from "@epicenter/warehouse";

export interface SyncStatusDeps {
  warehouse: Warehouse;
  syncState?: (() => SchedulerState) | undefined;
}

export function syncStatus(deps: SyncStatusDeps): Promise<SyncStatusResponse> {
  return getSyncStatus(deps.warehouse, deps.syncState?.());
}
