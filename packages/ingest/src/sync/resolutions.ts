/**
 * Feeds the resolutions ledger (`@epicenter/warehouse` `resolutionsSql`) after a run: the
 * markets a snapshot run saw settled in a state the ledger does not hold, and the settled
 * markets whose price history a history step stored (their last price before the close),
 * get their rows derived again. A failure here is logged and leaves the run's snapshots as
 * they are: the next run that captures those markets settled (the pending window keeps them
 * in every snapshot for days) derives them then, and `rebuildResolutions` derives everything.
 */
import { RESOLUTION_VENUES, type ResolutionVenue, resolutionsSql, type Warehouse } from "@epicenter/warehouse";
import type { Logger } from "../logger";

/**
 * The rows a run changes: after a run that wrote snapshots (`after: "snapshot"`), the
 * markets it saw settled anew; after a history step, the settled markets whose history it
 * stored. `syncTimestamp` is the run's (the step's start).
 */
export async function recordResolutions(
  warehouse: Warehouse,
  venue: ResolutionVenue,
  syncTimestamp: string,
  after: "snapshot" | "history" = "snapshot",
): Promise<void> {
  await warehouse.command(resolutionsSql(venue, after === "snapshot" ? "run" : "history"), {
    params: { run: syncTimestamp },
  });
}

/** `recordResolutions`, logging instead of throwing: the run it follows has succeeded. */
export async function recordResolutionsAfterRun(
  warehouse: Warehouse,
  venue: ResolutionVenue,
  syncTimestamp: string,
  after: "snapshot" | "history",
  logger: Logger,
): Promise<void> {
  const started = performance.now();
  try {
    await recordResolutions(warehouse, venue, syncTimestamp, after);
    logger.info({ source: venue, ms: Math.round(performance.now() - started) }, "resolutions recorded");
  } catch (error) {
    logger.error(
      { source: venue, sync_timestamp: syncTimestamp, error: error instanceof Error ? error.message : String(error) },
      "recording resolutions failed; the next run tries these markets again",
    );
  }
}

/**
 * Derives every market's row again from the whole archive (what the migration did when the
 * ledger was created): for an archive loaded by other means than sync runs.
 */
export async function rebuildResolutions(warehouse: Warehouse): Promise<void> {
  for (const venue of RESOLUTION_VENUES) await warehouse.command(resolutionsSql(venue, "all"));
}
