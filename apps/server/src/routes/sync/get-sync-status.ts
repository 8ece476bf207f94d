import type { SyncStatusResponse } from "@epicenter/contracts";
import { type SyncStatusDeps, syncStatus } from "../../services/sync/sync-status";

/** `GET /api/sync/status`, and the same answer at the older `GET /sync/status`: one handler for both. */
export function getSyncStatus(deps: SyncStatusDeps): () => Promise<SyncStatusResponse> {
  return () => syncStatus(deps);
}
