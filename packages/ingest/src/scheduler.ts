/**
 * The scheduler: a snapshot of each source every `intervalSeconds`, with the closed-history
 * backfill filling the time between.
 *
 * Each source has one loop that does one thing at a time, which is what guarantees never
 * two runs of one source at once. When a snapshot is due it runs; otherwise, while the
 * backfill is unfinished, one bounded backfill step runs; otherwise the loop sleeps until
 * the next snapshot is due. Due times advance from the last run's start by whole
 * intervals past "now", so a run that overran, or a machine that slept, yields one
 * catch-up run rather than a pile of missed ticks. `stop()` waits for the in-flight run
 * to finish, or with `{ abort: true }` aborts it, which removes its rows.
 */
import type { Logger } from "./logger";
import { consoleLogger } from "./logger";
import { runBackfillStep } from "./sync/backfill";
import type { SourceName } from "./sync/run-history";
import { runSync, type SyncDeps, type SyncRunSummary, systemClock } from "./sync/run-sync";

export type SourceSyncStatus = "syncing" | "idle" | "error" | "backfilling";

export interface SourceSchedulerState {
  status: SourceSyncStatus;
  isBackfilling: boolean;
  backfillDone: boolean;
  lastRun: SyncRunSummary | null;
  nextSnapshotAt: number | null;
}

export type SchedulerState = Partial<Record<SourceName, SourceSchedulerState>>;

export interface SchedulerOptions {
  intervalSeconds: number;
  sources: readonly SourceName[];
  /** Backfill closed history between snapshots (default true). */
  backfill?: boolean;
  backfillPagesPerStep?: number;
  /** Called after each snapshot run that succeeded (the server refreshes what user SQL reads). */
  onSnapshot?: (run: SyncRunSummary) => void;
}

export interface Scheduler {
  start(): void;
  stop(options?: { abort?: boolean }): Promise<void>;
  state(): SchedulerState;
  /** Resolves after the next snapshot of `source` completes (for tests and the demo). */
  nextRun(source: SourceName): Promise<SyncRunSummary>;
}

export function createScheduler(deps: SyncDeps, options: SchedulerOptions): Scheduler {
  const clock = deps.clock ?? systemClock;
  const logger: Logger = deps.logger ?? consoleLogger;
  const intervalMs = Math.max(1, options.intervalSeconds) * 1000;
  const states = new Map<SourceName, SourceSchedulerState>();
  const waiters = new Map<SourceName, Array<(run: SyncRunSummary) => void>>();
  const loops: Promise<void>[] = [];
  let abort = new AbortController();
  let wake: () => void = () => {};
  let stopped = true;

  const sleepUntil = (at: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.max(0, at - clock.now()));
      const previous = wake;
      function done() {
        clearTimeout(timer);
        resolve();
      }
      wake = () => {
        previous();
        done();
      };
    });

  async function loop(source: SourceName) {
    const state = states.get(source) as SourceSchedulerState;
    let due = clock.now();
    while (!stopped) {
      const now = clock.now();
      if (now >= due) {
        state.status = "syncing";
        state.isBackfilling = false;
        const run = await runSync(deps, { source, signal: abort.signal });
        state.lastRun = run;
        state.status = run.success ? "idle" : "error";
        if (run.success) options.onSnapshot?.(run);
        for (const resolve of waiters.get(source)?.splice(0) ?? []) resolve(run);
        // Next due: the first whole interval after now, counted from this run's start.
        const behind = Math.floor((clock.now() - due) / intervalMs);
        due += (behind + 1) * intervalMs;
        state.nextSnapshotAt = due;
        continue;
      }
      if (options.backfill !== false && !state.backfillDone) {
        state.status = "backfilling";
        state.isBackfilling = true;
        try {
          const step = await runBackfillStep(deps, source, {
            signal: abort.signal,
            ...(options.backfillPagesPerStep ? { pagesPerStep: options.backfillPagesPerStep } : {}),
          });
          state.backfillDone = step.done;
          if (step.run && !step.run.success) await sleepUntil(Math.min(due, clock.now() + 5_000));
        } catch (error) {
          logger.error("backfill step failed", { source, error: String(error) });
          await sleepUntil(Math.min(due, clock.now() + 5_000));
        }
        state.isBackfilling = false;
        state.status = state.lastRun && !state.lastRun.success ? "error" : "idle";
        continue;
      }
      await sleepUntil(due);
    }
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      abort = new AbortController();
      for (const source of options.sources) {
        states.set(source, {
          status: "idle",
          isBackfilling: false,
          backfillDone: options.backfill === false,
          lastRun: null,
          nextSnapshotAt: clock.now(),
        });
        loops.push(
          loop(source).catch((error: unknown) => {
            const state = states.get(source);
            if (state) state.status = "error";
            logger.error("scheduler loop stopped", { source, error: String(error) });
          }),
        );
      }
    },
    async stop(stopOptions = {}) {
      stopped = true;
      if (stopOptions.abort) abort.abort(new Error("scheduler stopped"));
      wake();
      await Promise.all(loops.splice(0));
    },
    state() {
      return Object.fromEntries([...states].map(([source, state]) => [source, { ...state }]));
    },
    nextRun(source) {
      return new Promise((resolve) => {
        const list = waiters.get(source) ?? [];
        list.push(resolve);
        waiters.set(source, list);
      });
    },
  };
}
