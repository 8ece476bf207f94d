/**
 * One Kalshi snapshot: every open event with nested markets
 * (`/events?status=open&with_nested_markets=true`), then the pending-closed window:
 * events past close but not yet settled (`status=closed`) and those settled within the
 * last seven days (`status=settled&min_close_ts=`), so each event's final state is
 * captured. Combo (KXMVE) objects are dropped by the mapper on every path. Rows are mapped
 * in JavaScript (`map.ts`) and written in batches by the row writer, which the backfill
 * shares (`backfill.ts`).
 */
import { PENDING_CLOSED_WINDOW_MS, type RunOutcome, RunTally, type SourceRun } from "../../source";
import { SnapshotWriter } from "../../write/snapshot-writer";
import { type KalshiEventFilters, type KalshiPage, listKalshiEvents } from "./client";
import { type KalshiMapContext, mapKalshiEvent } from "./map";

export const KALSHI_EVENTS = "kalshi.events";
export const KALSHI_MARKETS = "kalshi.markets";

/** Runs `body` with this run's row writer and counts, then writes what is left and answers the outcome. */
export async function writeKalshiRows(
  run: SourceRun,
  body: (writer: SnapshotWriter, tally: RunTally) => Promise<void>,
): Promise<RunOutcome> {
  const tally = new RunTally(run.logger);
  const writer = new SnapshotWriter(run.warehouse, run.limits, run.feed);
  try {
    await body(writer, tally);
    await writer.flush();
  } catch (error) {
    await writer.settle();
    throw tally.failed(error);
  }
  return tally.outcome({ events: writer.count(KALSHI_EVENTS), markets: writer.count(KALSHI_MARKETS) }, false);
}

export async function writeKalshiEventsPage(
  writer: SnapshotWriter,
  tally: RunTally,
  mapContext: KalshiMapContext,
  page: KalshiPage,
): Promise<void> {
  tally.pages += 1;
  for (const raw of page.items) {
    const mapped = mapKalshiEvent(raw, mapContext);
    tally.combosExcluded += mapped.combosExcluded;
    tally.reject(page.url, mapped.rejections);
    if (!mapped.event) continue;
    await writer.add(KALSHI_EVENTS, mapped.event.event_ticker, mapped.event);
    for (const market of mapped.markets) await writer.add(KALSHI_MARKETS, market.ticker, market);
  }
}

export function snapshotKalshi(run: SourceRun): Promise<RunOutcome> {
  const mapContext: KalshiMapContext = { syncTimestamp: run.syncTimestamp };
  const passes: KalshiEventFilters[] = [
    { status: "open" },
    { status: "closed" },
    { status: "settled", min_close_ts: Math.floor((run.startedAt - PENDING_CLOSED_WINDOW_MS) / 1000) },
  ];
  return writeKalshiRows(run, async (writer, tally) => {
    for (const filters of passes) {
      for await (const page of listKalshiEvents(run.fetchPage, run.baseUrl, filters, { signal: run.signal })) {
        await writeKalshiEventsPage(writer, tally, mapContext, page);
      }
    }
  });
}
