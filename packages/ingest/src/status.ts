/**
 * `getSyncStatus`: the SPEC §3 "Sync status" document, built from the warehouse (run
 * history, backfill state, latest-state tables, table sizes) plus, when a scheduler runs
 * in this process, its live state. The shape is `ZSyncStatusResponse` in
 * `@epicenter/contracts` (`packages/contracts/src/sync.ts`); the type below mirrors it so
 * this package does not depend on the contracts package.
 *
 * Without a scheduler the status is inferred: a start marker without an outcome means
 * `syncing`, a failed last snapshot `error`, otherwise `idle`.
 */
import { tableRowCounts, type Warehouse } from "@epicenter/warehouse";
import type { SchedulerState, SourceSyncStatus } from "./scheduler";
import type { Source } from "./source";
import { SOURCE_LIST, type SourceName } from "./sources";
import { readBackfillState } from "./sync/backfill";
import { type HistoryProgress, readHistoryProgress } from "./sync/history";

export interface SyncRunView {
  run_id: string;
  source: SourceName;
  duration_ms: number;
  events_written: number;
  markets_written: number;
  success: boolean;
}

export interface SourceSyncView {
  status: SourceSyncStatus;
  is_backfilling: boolean;
  backfill_offsets: Record<string, number>;
  open_events_tracked: number;
  last_sync: string | null;
  events_count: number;
  markets_count: number;
  recent_runs: SyncRunView[];
  history: HistoryProgress;
  limits_used: Record<string, number>;
  live_feed: {
    connections: number;
    open: number;
    messages: number;
    book_changes: number;
    trades: number;
    trades_stored: number;
    gaps: number;
    reconnects: number;
    signed: boolean;
    not_captured: string | null;
  } | null;
}

export interface SyncStatus {
  timestamp: string;
  sources: Record<SourceName, SourceSyncView>;
  table_counts: Record<string, number>;
}

const RECENT_RUNS = 10;

/** Distinct objects ever seen, and events still open (the source says how to tell). */
function countsSql(source: Source): string {
  return `SELECT
      (SELECT count() FROM ${source.name}.events_latest FINAL) AS events_count,
      (SELECT count() FROM ${source.name}.markets_latest FINAL) AS markets_count,
      (${source.openEventsSql}) AS open_events`;
}

export async function getSyncStatus(warehouse: Warehouse, schedulerState?: SchedulerState): Promise<SyncStatus> {
  const [views, tableCounts] = await Promise.all([
    Promise.all(SOURCE_LIST.map((source) => sourceStatus(warehouse, source, schedulerState))),
    tableCountsOf(warehouse),
  ]);
  const sources = Object.fromEntries(SOURCE_LIST.map((source, i) => [source.name, views[i]]));
  return {
    timestamp: new Date().toISOString(),
    sources: sources as Record<SourceName, SourceSyncView>,
    table_counts: tableCounts,
  };
}

async function sourceStatus(
  warehouse: Warehouse,
  source: Source<SourceName>,
  schedulerState: SchedulerState | undefined,
): Promise<SourceSyncView> {
  const [runs, unfinished, counts, backfill, history] = await Promise.all([
    warehouse.query<{
      run_id: string;
      duration_ms: string;
      events_written: string;
      markets_written: string;
      success: boolean | number;
      finished_at: string;
    }>(
      `SELECT run_id, duration_ms, events_written, markets_written, success, toString(finished_at) AS finished_at
       FROM internal.sync_run_history FINAL
       WHERE source = {source:String} AND kind = 'snapshot' AND revision = 1
       ORDER BY started_at DESC LIMIT ${RECENT_RUNS}`,
      { params: { source: source.name } },
    ),
    warehouse.query<{ n: string }>(
      "SELECT count() AS n FROM internal.sync_run_history FINAL WHERE source = {source:String} AND revision = 0",
      { params: { source: source.name } },
    ),
    warehouse.query<{ events_count: string; markets_count: string; open_events: string }>(countsSql(source)),
    readBackfillState(warehouse, source.name),
    readHistoryProgress(warehouse, source.name),
  ]);
  const live = schedulerState?.[source.name];
  const lastSuccess = runs.find((run) => Boolean(Number(run.success)));
  const inferred: SourceSyncStatus =
    Number(unfinished[0]?.n ?? 0) > 0 ? "syncing" : runs[0] && !Number(runs[0].success) ? "error" : "idle";
  return {
    status: live?.status ?? inferred,
    is_backfilling: live?.isBackfilling ?? false,
    backfill_offsets: Object.fromEntries(backfill.map((state) => [state.event_type, state.offset])),
    open_events_tracked: Number(counts[0]?.open_events ?? 0),
    last_sync: lastSuccess ? `${lastSuccess.finished_at.replace(" ", "T")}Z` : null,
    events_count: Number(counts[0]?.events_count ?? 0),
    markets_count: Number(counts[0]?.markets_count ?? 0),
    recent_runs: runs.map((run) => ({
      run_id: run.run_id,
      source: source.name,
      duration_ms: Number(run.duration_ms),
      events_written: Number(run.events_written),
      markets_written: Number(run.markets_written),
      success: Boolean(Number(run.success)),
    })),
    history,
    limits_used: live?.limitsUsed ?? {},
    live_feed: live?.live
      ? {
          connections: live.live.connections,
          open: live.live.open,
          messages: live.live.messages,
          book_changes: live.live.changes,
          trades: live.live.trades,
          trades_stored: live.live.tradesStored,
          gaps: live.live.gaps,
          reconnects: live.live.reconnects,
          signed: live.live.signed,
          not_captured: live.live.notCaptured,
        }
      : null,
  };
}

/** Rows per market table, deduplicated for the `*_latest` tables (`tableRowCounts`). */
async function tableCountsOf(warehouse: Warehouse): Promise<Record<string, number>> {
  const counts = await tableRowCounts(
    warehouse,
    SOURCE_LIST.map((source) => source.name),
  );
  return Object.fromEntries([...counts].sort(([a], [b]) => a.localeCompare(b)));
}
