/**
 * One Polymarket snapshot: every open event with its nested markets
 * (`/events/keyset?closed=false`), then the events that closed within the pending-closed
 * window (`closed=true` with `end_date_min` seven days back) so their final state is
 * captured. Pages go to the engine's mapping as they arrive (`page-batch.ts`), which the
 * backfill shares (`backfill.ts`).
 */
import { PENDING_CLOSED_WINDOW_MS, type RunOutcome, RunTally, type SourceRun } from "../../source";
import { type GammaEventFilters, type GammaPageText, listGammaEventPages } from "./client";
import { GammaBatchWriter } from "./page-batch";

/**
 * Runs `body` with a way to hand pages to the engine's mapping for this run, then writes
 * what is left and answers the run's outcome. The rows go to the latest-state tables as
 * they are written.
 */
export async function writeGammaPages(
  run: SourceRun,
  body: (add: (page: GammaPageText) => Promise<void>) => Promise<void>,
): Promise<RunOutcome> {
  const tally = new RunTally(run.logger);
  const batches = new GammaBatchWriter(run.warehouse, {
    syncTimestamp: run.syncTimestamp,
    feed: run.feed,
    batchBytes: run.limits.engineBatchBytes,
    onRejection: ({ url, ...rejected }) => tally.reject(url, [rejected]),
  });
  try {
    await body(async (page) => {
      tally.pages += 1;
      await batches.add(page);
    });
    await batches.flush();
    run.logger.info(
      { pages: tally.pages, batches: batches.batches, engine_ms: Math.round(batches.engineMs) },
      "polymarket pages mapped by the engine",
    );
    return tally.outcome(await batches.written(), true);
  } catch (error) {
    await batches.settle();
    throw tally.failed(error);
  } finally {
    await batches.close();
  }
}

export function snapshotPolymarket(run: SourceRun): Promise<RunOutcome> {
  const passes: GammaEventFilters[] = [
    { closed: false },
    { closed: true, end_date_min: new Date(run.startedAt - PENDING_CLOSED_WINDOW_MS).toISOString() },
  ];
  return writeGammaPages(run, async (add) => {
    for (const filters of passes) {
      for await (const page of listGammaEventPages(run.fetchPage, run.baseUrl, filters, { signal: run.signal })) {
        await add(page);
      }
    }
  });
}
