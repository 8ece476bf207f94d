/**
 * The life of a run in the warehouse: its record in `internal.sync_run_history`, the copy
 * of its rows into the latest-state tables when it succeeds, and the removal of its rows
 * when it does not.
 *
 * Idempotency, the choice and why: a run picks its `sync_timestamp` once and writes a
 * start marker (revision 0, carrying that timestamp) before its first batch, then an
 * outcome (revision 1) when it ends. A failed run deletes its rows by `sync_timestamp`
 * before recording the failure; a run killed mid-way leaves a marker with no outcome,
 * and the next run of the source deletes that run's rows and restores the latest-state
 * rows it had overwritten before doing anything else. Either way a retried or re-run
 * snapshot starts from a warehouse without a partial snapshot, and since a new run has
 * a new `sync_timestamp` it can never collide with an old one. Deletes by timestamp are
 * rare (failures only) and touch one partition; the happy path is append-only.
 * Insert deduplication tokens were the alternative: they would need per-table
 * deduplication windows on non-replicated tables and, through chDB, settings that stick
 * to a pooled connection, and they do not clean up a killed run's batches anyway.
 */
import { onCluster, storageTable, toDateTime64, type Warehouse } from "@epicenter/warehouse";
import type { Source } from "../source";
import type { SourceName } from "../sources";

export type RunKind = "snapshot" | "backfill" | "history";

/**
 * Whether a run of this kind writes snapshot rows, the rows a failed or killed run takes
 * back. A history step writes none, and what it stored stays (`../history.ts`).
 */
export function writesSnapshots(kind: RunKind): boolean {
  return kind !== "history";
}

/**
 * A snapshot row as its latest-state table holds it: every column but `raw`, which only
 * the snapshot tables keep (warehouse migration 6). The latest tables list the snapshot
 * columns in the same order, so an INSERT … SELECT of these lines up.
 */
export const LATEST_COLUMNS = "* EXCEPT (raw)";

export interface RunRecord {
  run_id: string;
  source: SourceName;
  kind: RunKind;
  started_at: number;
  sync_timestamp: string;
}

export interface RunOutcome {
  finished_at: number;
  events_written: number;
  markets_written: number;
  objects_skipped: number;
  success: boolean;
  error: string | null;
}

export async function recordRunStart(warehouse: Warehouse, run: RunRecord): Promise<void> {
  await warehouse.insert("internal.sync_run_history", [
    {
      ...runColumns(run),
      finished_at: null,
      duration_ms: 0,
      events_written: 0,
      markets_written: 0,
      objects_skipped: 0,
      success: false,
      error: null,
      revision: 0,
    },
  ]);
}

export async function recordRunOutcome(warehouse: Warehouse, run: RunRecord, outcome: RunOutcome): Promise<void> {
  await warehouse.insert("internal.sync_run_history", [
    {
      ...runColumns(run),
      ...outcome,
      finished_at: toDateTime64(outcome.finished_at),
      duration_ms: Math.max(0, Math.round(outcome.finished_at - run.started_at)),
      revision: 1,
    },
  ]);
}

function runColumns(run: RunRecord) {
  return {
    run_id: run.run_id,
    source: run.source,
    kind: run.kind,
    started_at: toDateTime64(run.started_at),
    sync_timestamp: run.sync_timestamp,
  };
}

/** Makes the run's rows the current state in the `*_latest` tables. */
export async function publishLatest(warehouse: Warehouse, source: Source, syncTimestamp: string): Promise<void> {
  for (const table of source.tables) {
    await warehouse.command(
      `INSERT INTO ${table.database}.${table.name}_latest SELECT ${LATEST_COLUMNS} FROM ${table.database}.${table.name} WHERE sync_timestamp = {ts:DateTime64(3, 'UTC')}`,
      { params: { ts: syncTimestamp } },
    );
  }
}

/**
 * Removes every row a run wrote. Latest-state rows it may already have published are
 * replaced by each key's previous snapshot first, so the latest tables never point at a
 * snapshot that no longer exists.
 */
export async function discardRun(warehouse: Warehouse, source: Source, syncTimestamp: string): Promise<void> {
  const ctx = { cluster: warehouse.cluster };
  const params = { params: { ts: syncTimestamp } };
  const at = "{ts:DateTime64(3, 'UTC')}";
  for (const table of source.tables) {
    const snapshot = `${table.database}.${table.name}`;
    const latest = `${snapshot}_latest`;
    await warehouse.command(
      `INSERT INTO ${latest} SELECT ${LATEST_COLUMNS} FROM ${snapshot} WHERE sync_timestamp < ${at} AND ${table.key} IN (SELECT ${table.key} FROM ${latest} WHERE sync_timestamp = ${at}) ORDER BY ${table.key}, sync_timestamp DESC LIMIT 1 BY ${table.key}`,
      params,
    );
    for (const target of [latest, snapshot]) {
      const physical = storageTable(ctx, table.database, target.split(".")[1] as string);
      await warehouse.command(
        `ALTER TABLE ${physical}${onCluster(ctx)} DELETE WHERE sync_timestamp = ${at} SETTINGS mutations_sync = 2`,
        params,
      );
    }
  }
}

interface UnfinishedRun {
  run_id: string;
  kind: RunKind;
  started_at: string;
  sync_timestamp: string | null;
}

/** Runs of `source` with a start marker and no outcome: killed mid-way. */
export async function findUnfinishedRuns(warehouse: Warehouse, source: SourceName): Promise<UnfinishedRun[]> {
  return warehouse.query<UnfinishedRun>(
    `SELECT run_id, kind, toString(started_at) AS started_at, toString(sync_timestamp) AS sync_timestamp
     FROM internal.sync_run_history FINAL
     WHERE source = {source:String} AND revision = 0
     ORDER BY started_at`,
    { params: { source } },
  );
}

/** Deletes what killed runs of `source` left behind and closes their records. */
export async function recoverUnfinishedRuns(
  warehouse: Warehouse,
  source: Source<SourceName>,
  now: () => number,
): Promise<string[]> {
  const recovered: string[] = [];
  for (const run of await findUnfinishedRuns(warehouse, source.name)) {
    if (run.sync_timestamp && writesSnapshots(run.kind)) await discardRun(warehouse, source, run.sync_timestamp);
    await recordRunOutcome(
      warehouse,
      {
        run_id: run.run_id,
        source: source.name,
        kind: run.kind,
        started_at: Date.parse(`${run.started_at.replace(" ", "T")}Z`),
        sync_timestamp: run.sync_timestamp ?? "1970-01-01 00:00:00.000",
      },
      {
        finished_at: now(),
        events_written: 0,
        markets_written: 0,
        objects_skipped: 0,
        success: false,
        error: "interrupted: the run stopped before it finished; its rows were removed",
      },
    );
    recovered.push(run.run_id);
  }
  return recovered;
}
