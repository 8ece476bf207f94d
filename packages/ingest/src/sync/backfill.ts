/**
 * Backfill of closed history, one bounded step at a time so the scheduler can run it
 * between snapshot runs and a snapshot is never more than one step late.
 *
 * Where each backfill stands lives in `internal.backfill_state`, one row per (source,
 * event type), the newest winning: `position` is the resumable place as JSON (a window
 * and a cursor), `offset` the number of objects written so far (what the status shows as
 * `backfill_offsets`), `done` whether it has caught up with the pending-closed window.
 * - Polymarket `closed_events`: `/events/keyset?closed=true` in 30-day `end_date` windows
 *   from 2020-01-01 up to seven days ago, paging each window with `after_cursor`.
 * - Kalshi `settled_events`: `/events?status=settled` with nested markets, by cursor.
 * - Kalshi `historical_markets`: `/historical/markets` (markets settled before the
 *   historical cutoff exist only there), by cursor, `mve_filter=exclude`.
 *
 * Each step is a recorded run of kind `backfill`, with the same all-or-nothing rule as a
 * snapshot: if it fails its rows are removed and the position is not advanced. The
 * position is saved after the step's outcome, so a crash between the two repeats that
 * one step under a new `sync_timestamp` (at-least-once per step; never a duplicate
 * (key, sync_timestamp)).
 */
import { toDateTime64, type Warehouse } from "@epicenter/warehouse";
import { listKalshiEvents, listKalshiMarkets } from "../sources/kalshi/client";
import { isComboMarket, mapKalshiMarket } from "../sources/kalshi/map";
import { KALSHI_MARKETS, writeKalshiEventsPage } from "../sources/kalshi/sync";
import { listGammaEvents } from "../sources/polymarket/client";
import { writeGammaEventsPage } from "../sources/polymarket/sync";
import type { SourceName } from "./run-history";
import { runRecorded, type SyncDeps, type SyncRunSummary, systemClock } from "./run-sync";
import { PENDING_CLOSED_WINDOW_MS, type RunCounts, reportRejections, type SourceRunContext } from "./source-run";

export const BACKFILL_EVENT_TYPES: Record<SourceName, readonly string[]> = {
  polymarket: ["closed_events"],
  kalshi: ["settled_events", "historical_markets"],
};

const POLYMARKET_HISTORY_START = Date.parse("2020-01-01T00:00:00Z");
const WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

export interface BackfillPosition {
  /** Epoch ms of the current end-date window (Polymarket). */
  windowStart?: number;
  cursor: string | null;
}

export interface BackfillState {
  source: SourceName;
  event_type: string;
  position: BackfillPosition;
  offset: number;
  done: boolean;
}

export async function readBackfillState(warehouse: Warehouse, source: SourceName): Promise<BackfillState[]> {
  const rows = await warehouse.query<{ event_type: string; position: string; offset: string; done: boolean | number }>(
    `SELECT event_type, argMax(position, updated_at) AS position, argMax(offset, updated_at) AS offset,
            argMax(done, updated_at) AS done
     FROM internal.backfill_state WHERE source = {source:String} GROUP BY event_type`,
    { params: { source } },
  );
  const saved = new Map(rows.map((row) => [row.event_type, row]));
  return BACKFILL_EVENT_TYPES[source].map((eventType) => {
    const row = saved.get(eventType);
    return {
      source,
      event_type: eventType,
      position: row ? (JSON.parse(row.position) as BackfillPosition) : { cursor: null },
      offset: row ? Number(row.offset) : 0,
      done: row ? Boolean(Number(row.done)) : false,
    };
  });
}

async function saveBackfillState(warehouse: Warehouse, state: BackfillState, now: number): Promise<void> {
  await warehouse.insert("internal.backfill_state", [
    {
      source: state.source,
      event_type: state.event_type,
      position: JSON.stringify(state.position),
      offset: state.offset,
      done: state.done,
      updated_at: toDateTime64(now),
    },
  ]);
}

export interface BackfillStepResult {
  /** Null when there was nothing left to do. */
  run: SyncRunSummary | null;
  state: BackfillState[];
  done: boolean;
}

export interface BackfillOptions {
  /** Upstream pages per step. */
  pagesPerStep?: number;
  signal?: AbortSignal;
}

/** Advances the first unfinished backfill of `source` by up to `pagesPerStep` pages. */
export async function runBackfillStep(
  deps: SyncDeps,
  source: SourceName,
  options: BackfillOptions = {},
): Promise<BackfillStepResult> {
  const clock = deps.clock ?? systemClock;
  const states = await readBackfillState(deps.warehouse, source);
  const state = states.find((candidate) => !candidate.done);
  if (!state) return { run: null, state: states, done: true };

  const next: BackfillState = { ...state, position: { ...state.position } };
  const pages = options.pagesPerStep ?? 4;
  const step = async (ctx: SourceRunContext, counts: RunCounts) => {
    const before = ctx.writer.count(`${source}.markets`) + ctx.writer.count(`${source}.events`);
    if (source === "polymarket") await polymarketStep(ctx, counts, next, pages);
    else if (state.event_type === "settled_events") await kalshiEventsStep(ctx, counts, next, pages);
    else await kalshiHistoricalStep(ctx, counts, next, pages);
    await ctx.writer.flush();
    next.offset += ctx.writer.count(`${source}.markets`) + ctx.writer.count(`${source}.events`) - before;
  };
  const run = await runRecorded(deps, source, "backfill", step, options.signal);
  if (run.success) await saveBackfillState(deps.warehouse, next, clock.now());
  const after = states.map((candidate) => (candidate.event_type === next.event_type && run.success ? next : candidate));
  return { run, state: after, done: after.every((candidate) => candidate.done) };
}

async function polymarketStep(ctx: SourceRunContext, counts: RunCounts, position: BackfillState, pages: number) {
  const until = ctx.startedAt - PENDING_CLOSED_WINDOW_MS;
  const mapContext = { syncTimestamp: ctx.syncTimestamp };
  let left = pages;
  while (left > 0) {
    const windowStart = position.position.windowStart ?? POLYMARKET_HISTORY_START;
    if (windowStart >= until) {
      position.done = true;
      return;
    }
    const filters = {
      closed: true,
      end_date_min: new Date(windowStart).toISOString(),
      end_date_max: new Date(Math.min(windowStart + WINDOW_MS, until)).toISOString(),
    };
    let finishedWindow = true;
    for await (const page of listGammaEvents(ctx.fetchPage, ctx.baseUrl, filters, {
      startCursor: position.position.cursor,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    })) {
      await writeGammaEventsPage(ctx, mapContext, page, counts);
      position.position.cursor = page.nextCursor;
      left -= 1;
      if (page.nextCursor && left === 0) {
        finishedWindow = false;
        break;
      }
    }
    if (finishedWindow) position.position = { windowStart: windowStart + WINDOW_MS, cursor: null };
  }
}

async function kalshiEventsStep(ctx: SourceRunContext, counts: RunCounts, position: BackfillState, pages: number) {
  let left = pages;
  for await (const page of listKalshiEvents(
    ctx.fetchPage,
    ctx.baseUrl,
    { status: "settled" },
    { startCursor: position.position.cursor, ...(ctx.signal ? { signal: ctx.signal } : {}) },
  )) {
    await writeKalshiEventsPage(ctx, { syncTimestamp: ctx.syncTimestamp }, page, counts);
    position.position.cursor = page.nextCursor;
    left -= 1;
    if (!page.nextCursor) position.done = true;
    if (left === 0) return;
  }
}

async function kalshiHistoricalStep(ctx: SourceRunContext, counts: RunCounts, position: BackfillState, pages: number) {
  let left = pages;
  for await (const page of listKalshiMarkets(
    ctx.fetchPage,
    ctx.baseUrl,
    "/historical/markets",
    {},
    { startCursor: position.position.cursor, ...(ctx.signal ? { signal: ctx.signal } : {}) },
  )) {
    counts.pages += 1;
    const rejections = [];
    for (const raw of page.items) {
      if (raw && typeof raw === "object" && isComboMarket(raw as Record<string, unknown>)) {
        counts.combosExcluded += 1;
        continue;
      }
      const mapped = mapKalshiMarket(raw, { syncTimestamp: ctx.syncTimestamp });
      if ("row" in mapped) await ctx.writer.add(KALSHI_MARKETS, mapped.row.ticker, mapped.row);
      else rejections.push(mapped.rejection);
    }
    reportRejections(ctx, page.url, rejections, counts);
    position.position.cursor = page.nextCursor;
    left -= 1;
    if (!page.nextCursor) position.done = true;
    if (left === 0) return;
  }
}
