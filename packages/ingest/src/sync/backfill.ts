/**
 * Backfill of closed history, one bounded step at a time so the scheduler can run it
 * between snapshot runs and a snapshot is never more than one step late.
 *
 * What each source backfills is its `Source.backfill` (its steps, in order, say what
 * they read). Where each stands lives in `internal.backfill_state`, one row per (source,
 * event type), the newest winning: `position` is the resumable place as JSON (a window
 * and a cursor), `offset` the number of objects written so far (what the status shows as
 * `backfill_offsets`), `done` whether it has caught up with the pending-closed window.
 *
 * Each step is a recorded run of kind `backfill`, with the same all-or-nothing rule as a
 * snapshot: if it fails its rows are removed and the position is not advanced. The
 * position is saved after the step's outcome, so a crash between the two repeats that
 * one step under a new `sync_timestamp` (at-least-once per step; never a duplicate
 * (key, sync_timestamp)).
 */
import { toDateTime64, type Warehouse } from "@epicenter/warehouse";
import { systemClock } from "../logger";
import type { BackfillPosition } from "../source";
import { SOURCE_LIST, type SourceName, sourceNamed } from "../sources";
import { runRecorded, type SyncDeps, type SyncRunSummary } from "./run-sync";

/** The event types each source backfills, in the order it backfills them. */
export const BACKFILL_EVENT_TYPES = Object.fromEntries(
  SOURCE_LIST.map((source) => [source.name, source.backfill.map((step) => step.eventType)]),
) as unknown as Record<SourceName, readonly string[]>;

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
  return sourceNamed(source).backfill.map(({ eventType }) => {
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
  const states = await readBackfillState(deps.warehouse, source);
  const state = states.find((candidate) => !candidate.done);
  if (!state) return { run: null, state: states, done: true };
  const step = sourceNamed(source).backfill.find((candidate) => candidate.eventType === state.event_type);
  if (!step) throw new Error(`no backfill step ${state.event_type} for ${source}`);

  let next: BackfillState = state;
  const run = await runRecorded(
    deps,
    sourceNamed(source),
    "backfill",
    async (sourceRun) => {
      const outcome = await step.run(sourceRun, state.position, options.pagesPerStep ?? 4);
      next = {
        ...state,
        position: outcome.position,
        offset: state.offset + outcome.eventsWritten + outcome.marketsWritten,
        done: state.done || outcome.done,
      };
      return outcome;
    },
    options.signal,
  );
  if (run.success) await saveBackfillState(deps.warehouse, next, (deps.clock ?? systemClock)().getTime());
  const after = states.map((candidate) => (candidate.event_type === next.event_type && run.success ? next : candidate));
  return { run, state: after, done: after.every((candidate) => candidate.done) };
}
