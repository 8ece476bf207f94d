/**
 * One Polymarket snapshot: every open event with its nested markets
 * (`/events/keyset?closed=false`), then the events that closed within the pending-closed
 * window (`closed=true` with `end_date_min` seven days back) so their final state is
 * captured. Pages are mapped and handed to the run's writer as they arrive.
 */
import type { Warehouse } from "@epicenter/warehouse";
import {
  PENDING_CLOSED_WINDOW_MS,
  type RunCounts,
  reportRejections,
  type SourceRunContext,
} from "../../sync/source-run";
import { type GammaEventFilters, listGammaEventPages, listGammaEvents } from "./client";
import { mapGammaEventForWrite, type PolymarketMapContext, type PreviousMarketState } from "./map";
import { GammaBatchWriter } from "./page-batch";

export const POLYMARKET_EVENTS = "polymarket.events";
export const POLYMARKET_MARKETS = "polymarket.markets";

/** The latest volume and observed trade time per market, for `lastTradeTime`. */
export async function loadPreviousMarketState(warehouse: Warehouse): Promise<Map<string, PreviousMarketState>> {
  const rows = await warehouse.query<{ id: string; volume: number | null; lastTradeTime: string | null }>(
    "SELECT id, volume, toString(lastTradeTime) AS lastTradeTime FROM polymarket.markets_latest FINAL",
  );
  return new Map(rows.map((row) => [row.id, { volume: row.volume, lastTradeTime: row.lastTradeTime }]));
}

export async function writeGammaEventsPage(
  ctx: SourceRunContext,
  mapContext: PolymarketMapContext,
  page: { url: string; events: unknown[] },
  counts: RunCounts,
): Promise<void> {
  counts.pages += 1;
  for (const raw of page.events) {
    const mapped = mapGammaEventForWrite(raw, mapContext);
    reportRejections(ctx, page.url, mapped.rejections, counts);
    if (!mapped.event) continue;
    await ctx.writer.add(POLYMARKET_EVENTS, mapped.event.id, mapped.event);
    for (const market of mapped.markets) await ctx.writer.add(POLYMARKET_MARKETS, market.id, market);
  }
}

export async function snapshotPolymarket(ctx: SourceRunContext, counts: RunCounts): Promise<void> {
  const passes: GammaEventFilters[] = [
    { closed: false },
    { closed: true, end_date_min: new Date(ctx.startedAt - PENDING_CLOSED_WINDOW_MS).toISOString() },
  ];
  if (GammaBatchWriter.supports(ctx.warehouse) && ctx.mapping !== "javascript") {
    await snapshotInEngine(ctx, counts, passes);
    return;
  }
  const previous = await loadPreviousMarketState(ctx.warehouse);
  const mapContext: PolymarketMapContext = { syncTimestamp: ctx.syncTimestamp, previous: (id) => previous.get(id) };
  for (const filters of passes) {
    for await (const page of listGammaEvents(ctx.fetchPage, ctx.baseUrl, filters, { signal: ctx.signal })) {
      await writeGammaEventsPage(ctx, mapContext, page, counts);
    }
  }
}

/** The snapshot with the mapping done by the engine over the page text (`page-batch.ts`). */
async function snapshotInEngine(ctx: SourceRunContext, counts: RunCounts, passes: GammaEventFilters[]) {
  const batches = new GammaBatchWriter(ctx.warehouse, {
    syncTimestamp: ctx.syncTimestamp,
    batchBytes: ctx.writer.limits.engineBatchBytes,
    onRejection: ({ url, ...rejected }) => reportRejections(ctx, url, [rejected], counts),
  });
  try {
    for (const filters of passes) {
      for await (const page of listGammaEventPages(ctx.fetchPage, ctx.baseUrl, filters, { signal: ctx.signal })) {
        counts.pages += 1;
        await batches.add(page);
      }
    }
    await batches.flush();
    ctx.latestPublished = true;
    ctx.logger.info("polymarket pages mapped by the engine", {
      pages: counts.pages,
      batches: batches.batches,
      engine_ms: Math.round(batches.engineMs),
    });
    ctx.writer.addWritten(POLYMARKET_EVENTS, await batches.written(POLYMARKET_EVENTS));
    ctx.writer.addWritten(POLYMARKET_MARKETS, await batches.written(POLYMARKET_MARKETS));
  } catch (error) {
    await batches.settle();
    throw error;
  } finally {
    await batches.close();
  }
}
