/**
 * One Kalshi snapshot: every open event with nested markets
 * (`/events?status=open&with_nested_markets=true`), then the pending-closed window:
 * events past close but not yet settled (`status=closed`) and those settled within the
 * last seven days (`status=settled&min_close_ts=`), so each event's final state is
 * captured. Combo (KXMVE) objects are dropped by the mapper on every path.
 */
import {
  PENDING_CLOSED_WINDOW_MS,
  type RunCounts,
  reportRejections,
  type SourceRunContext,
} from "../../sync/source-run";
import { type KalshiEventFilters, listKalshiEvents } from "./client";
import { type KalshiMapContext, mapKalshiEvent } from "./map";

export const KALSHI_EVENTS = "kalshi.events";
export const KALSHI_MARKETS = "kalshi.markets";

export async function writeKalshiEventsPage(
  ctx: SourceRunContext,
  mapContext: KalshiMapContext,
  page: { url: string; items: unknown[] },
  counts: RunCounts,
): Promise<void> {
  counts.pages += 1;
  for (const raw of page.items) {
    const mapped = mapKalshiEvent(raw, mapContext);
    counts.combosExcluded += mapped.combosExcluded;
    reportRejections(ctx, page.url, mapped.rejections, counts);
    if (!mapped.event) continue;
    await ctx.writer.add(KALSHI_EVENTS, mapped.event.event_ticker, mapped.event);
    for (const market of mapped.markets) await ctx.writer.add(KALSHI_MARKETS, market.ticker, market);
  }
}

export async function snapshotKalshi(ctx: SourceRunContext, counts: RunCounts): Promise<void> {
  const mapContext: KalshiMapContext = { syncTimestamp: ctx.syncTimestamp };
  const passes: KalshiEventFilters[] = [
    { status: "open" },
    { status: "closed" },
    { status: "settled", min_close_ts: Math.floor((ctx.startedAt - PENDING_CLOSED_WINDOW_MS) / 1000) },
  ];
  for (const filters of passes) {
    for await (const page of listKalshiEvents(ctx.fetchPage, ctx.baseUrl, filters, { signal: ctx.signal })) {
      await writeKalshiEventsPage(ctx, mapContext, page, counts);
    }
  }
}
