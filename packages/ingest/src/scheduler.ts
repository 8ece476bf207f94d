/**
 * The scheduler: a snapshot of each source every `intervalSeconds`, with the closed-market
 * backfill and the price and trade history filling the time between.
 *
 * Each source has one loop that does one thing at a time, which is what guarantees never
 * two runs of one source at once. When a snapshot is due it runs; otherwise one bounded
 * step of the unfinished backfill or history runs, the two taking turns; otherwise the
 * loop sleeps until the next snapshot, or the next history refresh, is due. All loops share
 * one limiter per upstream host, so together they keep each host's limit. Due times
 * advance from the last run's start by whole intervals past "now", so a run that overran,
 * or a machine that slept, yields one catch-up run rather than a pile of missed ticks. `stop()` waits for the in-flight run
 * to finish, or with `{ abort: true }` aborts it, which removes its rows. After each snapshot
 * that succeeded the open markets' order books are captured under its `sync_timestamp`
 * (`sync/books.ts`, beside the loop, one capture per source at a time), and the cross-venue
 * matcher runs, at the cadence `crossvenue/cadence.ts` keeps. With `live`, each source's
 * live feed is followed from its first snapshot that succeeded until `stop()`
 * (`live-capture.ts`), over the open markets of the latest snapshot.
 */
import { setTimeout as delay } from "node:timers/promises";
import type { Adjudicator } from "./crossvenue/adjudication";
import { createMatcherCadence } from "./crossvenue/cadence";
import { LiveCapture, type LiveCaptureStats } from "./live-capture";
import { consoleLogger, type Logger, systemClock } from "./logger";
import { type SourceName, sourceNamed } from "./sources";
import { runBackfillStep } from "./sync/backfill";
import { captureBooks } from "./sync/books";
import { DEFAULT_HISTORY_REFRESH_MS, runHistoryStep } from "./sync/history";
import { runSync, type SyncDeps, type SyncRunSummary } from "./sync/run-sync";

export type SourceSyncStatus = "syncing" | "idle" | "error" | "backfilling";

export interface SourceSchedulerState {
  status: SourceSyncStatus;
  isBackfilling: boolean;
  backfillDone: boolean;
  /** When the history is next due (epoch ms): at once while markets wait, else at the next refresh. */
  historyDueAt: number | null;
  lastRun: SyncRunSummary | null;
  nextSnapshotAt: number | null;
  /** Each of the source's limits by host: the share of the venue's limit the last minute used (0–1). */
  limitsUsed: Record<string, number>;
  /** The live feed's capture, once it has started. */
  live?: LiveCaptureStats;
}

export type SchedulerState = Partial<Record<SourceName, SourceSchedulerState>>;

export interface SchedulerOptions {
  intervalSeconds: number;
  sources: readonly SourceName[];
  /** Backfill closed history between snapshots (default true). */
  backfill?: boolean;
  backfillPagesPerStep?: number;
  /** Fetch each market's price and trade history between snapshots (default true). */
  history?: boolean;
  historyMarketsPerStep?: number;
  /** How often an open market's history is brought up to date (default one hour). */
  historyRefreshMs?: number;
  /** Called after each snapshot run that succeeded (the server refreshes what user SQL reads). */
  onSnapshot?: (run: SyncRunSummary) => void;
  /** Capture the open markets' order books after each snapshot (default true). */
  books?: boolean;
  /** Pair the same questions across the venues after each snapshot (default true). */
  crossVenue?: boolean;
  /** Follow each source's live feed from its first snapshot that succeeded (default false). */
  live?: boolean;
  /** Reads the pairs the matcher's rules cannot settle (a language model); none by default. */
  adjudicator?: Adjudicator;
}

export interface Scheduler {
  start(): void;
  stop(options?: { abort?: boolean }): Promise<void>;
  state(): SchedulerState;
  /** Resolves after the next snapshot of `source` completes (for tests and the demo). */
  nextRun(source: SourceName): Promise<SyncRunSummary>;
}

export function createScheduler(given: SyncDeps, options: SchedulerOptions): Scheduler {
  const deps: SyncDeps = { ...given, rateLimiters: given.rateLimiters ?? new Map() };
  const refreshMs = options.historyRefreshMs ?? DEFAULT_HISTORY_REFRESH_MS;
  const clock = deps.clock ?? systemClock;
  const now = () => clock().getTime();
  const logger: Logger = deps.logger ?? consoleLogger;
  const intervalMs = Math.max(1, options.intervalSeconds) * 1000;
  const states = new Map<SourceName, SourceSchedulerState>();
  const waiters = new Map<SourceName, Array<(run: SyncRunSummary) => void>>();
  const loops: Promise<void>[] = [];
  /** The book capture under way per source, awaited by `stop()`. */
  const captures = new Map<SourceName, Promise<unknown>>();
  /** The live capture per source, from its first snapshot that succeeded to `stop()`. */
  const lives = new Map<SourceName, LiveCapture>();
  let abort = new AbortController();
  /** Aborted by `stop()` to wake every sleeping loop at once. */
  let wake = new AbortController();
  let stopped = true;
  const matcher = createMatcherCadence(
    {
      warehouse: deps.warehouse,
      logger,
      clock,
      ...(options.adjudicator ? { adjudicator: options.adjudicator } : {}),
    },
    () => [...states.values()].every((state) => state.backfillDone),
  );

  const sleepUntil = (at: number) =>
    delay(Math.max(0, at - now()), undefined, { signal: wake.signal }).catch(() => undefined);

  async function loop(source: SourceName) {
    const state = states.get(source) as SourceSchedulerState;
    let due = now();
    let historyTurn = true;
    while (!stopped) {
      const at = now();
      if (at >= due) {
        state.status = "syncing";
        state.isBackfilling = false;
        const run = await runSync(deps, { source, signal: abort.signal });
        state.lastRun = run;
        state.status = run.success ? "idle" : "error";
        // The books under the snapshot's own time, beside the loop's next steps rather than
        // before them: they read a host (or a share of a bucket) of their own, so the history
        // does not wait for them. One capture per source at a time; a snapshot that finds the
        // last one still running leaves its books to the next.
        if (run.success && options.books !== false && !captures.has(source)) {
          const capture = captureBooks(deps, source, run.sync_timestamp, {
            intervalSeconds: options.intervalSeconds,
            signal: abort.signal,
          })
            .catch((error: unknown) => {
              logger.error({ source, error: String(error) }, "book capture failed");
            })
            .finally(() => captures.delete(source));
          captures.set(source, capture);
        }
        // The live feed from the first snapshot on; each later one adds the markets listed
        // since and drops those that closed.
        const live = lives.get(source);
        if (run.success && live) {
          live
            .refresh()
            .catch((error: unknown) => logger.error({ source, error: String(error) }, "live refresh failed"));
        } else if (run.success && options.live && !stopped) {
          const capture = new LiveCapture({
            warehouse: deps.warehouse,
            source: sourceNamed(source),
            config: deps.config,
            logger,
          });
          lives.set(source, capture);
          capture
            .start()
            .catch((error: unknown) => logger.error({ source, error: String(error) }, "live capture failed"));
        }
        // Pairs first, so what user SQL is shown next holds this snapshot's pairs too.
        if (run.success && options.crossVenue !== false) await matcher.afterSnapshot();
        if (run.success) options.onSnapshot?.(run);
        for (const resolve of waiters.get(source)?.splice(0) ?? []) resolve(run);
        // Next due: the first whole interval after now, counted from this run's start.
        const behind = Math.floor((now() - due) / intervalMs);
        due += (behind + 1) * intervalMs;
        state.nextSnapshotAt = due;
        continue;
      }
      const wantsBackfill = options.backfill !== false && !state.backfillDone;
      const wantsHistory = state.historyDueAt !== null && state.historyDueAt <= at;
      if (wantsHistory && (!wantsBackfill || historyTurn)) {
        historyTurn = false;
        // Filling in history is backfilling to the status (SPEC's states), and the flag
        // says the same as the status (issue 24: "backfilling" with is_backfilling false).
        state.status = "backfilling";
        state.isBackfilling = true;
        try {
          const step = await runHistoryStep(deps, source, {
            signal: abort.signal,
            refreshMs,
            ...(options.historyMarketsPerStep ? { markets: options.historyMarketsPerStep } : {}),
          });
          if (!step.run.success) state.historyDueAt = now() + 5_000;
          else if (!step.outcome?.more) {
            const feeds = sourceNamed(source).history.feedIntervalMs ?? Number.POSITIVE_INFINITY;
            state.historyDueAt = now() + Math.min(refreshMs, intervalMs, feeds);
          }
        } catch (error) {
          // The run could not even be recorded (the warehouse is away): try again shortly.
          logger.error({ source, error: String(error) }, "history step failed");
          state.historyDueAt = now() + 5_000;
        }
        state.isBackfilling = false;
        state.status = state.lastRun && !state.lastRun.success ? "error" : "idle";
        continue;
      }
      historyTurn = true;
      if (wantsBackfill) {
        state.status = "backfilling";
        state.isBackfilling = true;
        try {
          const step = await runBackfillStep(deps, source, {
            signal: abort.signal,
            ...(options.backfillPagesPerStep ? { pagesPerStep: options.backfillPagesPerStep } : {}),
          });
          state.backfillDone = step.done;
          if (step.run && !step.run.success) await sleepUntil(Math.min(due, now() + 5_000));
        } catch (error) {
          logger.error({ source, error: String(error) }, "backfill step failed");
          await sleepUntil(Math.min(due, now() + 5_000));
        }
        state.isBackfilling = false;
        state.status = state.lastRun && !state.lastRun.success ? "error" : "idle";
        continue;
      }
      await sleepUntil(Math.min(due, state.historyDueAt ?? due));
    }
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      lives.clear();
      abort = new AbortController();
      wake = new AbortController();
      for (const source of options.sources) {
        states.set(source, {
          status: "idle",
          isBackfilling: false,
          backfillDone: options.backfill === false,
          historyDueAt: options.history === false ? null : now(),
          lastRun: null,
          nextSnapshotAt: now(),
          limitsUsed: {},
        });
        loops.push(
          loop(source).catch((error: unknown) => {
            const state = states.get(source);
            if (state) state.status = "error";
            logger.error({ source, error: String(error) }, "scheduler loop stopped");
          }),
        );
      }
    },
    async stop(stopOptions = {}) {
      stopped = true;
      if (stopOptions.abort) abort.abort(new Error("scheduler stopped"));
      wake.abort();
      await Promise.all(loops.splice(0));
      await Promise.all([...captures.values()]);
      // Stopped captures stay in the state, with their last figures, until the next start.
      await Promise.all([...lives.values()].map((live) => live.stop()));
    },
    state() {
      const limitsUsed = (source: SourceName) => {
        const hosts = [source, ...sourceNamed(source).history.hosts.map((host) => host.name)];
        const used: Record<string, number> = {};
        for (const host of new Set(hosts)) {
          const limiter = deps.rateLimiters?.get(host);
          if (limiter) used[host] = Math.round(limiter.usage().shareOfVenueLimit * 1000) / 1000;
        }
        return used;
      };
      return Object.fromEntries(
        [...states].map(([source, state]) => [
          source,
          {
            ...state,
            limitsUsed: limitsUsed(source),
            ...(lives.has(source) ? { live: lives.get(source)?.stats() } : {}),
          },
        ]),
      );
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
