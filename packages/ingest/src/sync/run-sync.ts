/**
 * `runSync`: one snapshot run of one source, the unit the scheduler, the CLI and the demo
 * share. It recovers what a killed earlier run left behind, chooses the run's one
 * `sync_timestamp`, records the start, has the source write its snapshot
 * (`Source.snapshot`), publishes the rows to the latest-state tables unless the source did,
 * and records the outcome. A failure at any point removes the run's rows before the
 * failure is recorded (see `run-history.ts` for why this gives no duplicates and no
 * partial snapshots). The backfill's steps run through the same frame (`runRecorded`).
 */
import { randomUUID } from "node:crypto";
import type { Warehouse } from "@epicenter/warehouse";
import { createPageFetcher, type HttpPolicy } from "../http/fetch-page";
import { createRateLimiter, type RateLimit, type RateLimiter } from "../http/rate-limiter";
import { type Clock, consoleLogger, type Logger, systemClock } from "../logger";
import { type IngestConfig, RunFailed, type RunOutcome, type Source, type SourceRun } from "../source";
import { type SourceName, sourceNamed } from "../sources";
import { toWarehouseTime } from "../upstream-values";
import { DEFAULT_WRITER_LIMITS, type WriterLimits } from "../write/snapshot-writer";
import { defaultFeed, type Feed } from "../write/spool";
import { recordResolutionsAfterRun } from "./resolutions";
import {
  discardRun,
  publishLatest,
  type RunKind,
  type RunRecord,
  recordRunOutcome,
  recordRunStart,
  recoverUnfinishedRuns,
  writesSnapshots,
} from "./run-history";

export interface SyncDeps {
  warehouse: Warehouse;
  config: IngestConfig;
  clock?: Clock;
  logger?: Logger;
  /**
   * Limiters by upstream host name, shared by every run given the same map (the scheduler
   * makes one), so snapshots, backfill and history together keep each host's limit. One
   * per call is made when absent.
   */
  rateLimiters?: Map<string, RateLimiter>;
  http?: Partial<HttpPolicy>;
  /** The HTTP client; the global `fetch` when absent. */
  fetch?: typeof fetch;
  writer?: Partial<WriterLimits>;
  /** How written bytes reach the engine; by the warehouse's kind when absent (tests pin `stream` on chDB). */
  feed?: Feed;
}

export interface SyncRunSummary {
  run_id: string;
  source: SourceName;
  kind: RunKind;
  sync_timestamp: string;
  events_written: number;
  markets_written: number;
  objects_skipped: number;
  combos_excluded: number;
  pages: number;
  duration_ms: number;
  success: boolean;
  error: string | null;
}

/** The limiter of upstream host `name`: the shared one when `deps` shares them. */
export function limiterOf(deps: Pick<SyncDeps, "rateLimiters">, name: string, limit: RateLimit): RateLimiter {
  const shared = deps.rateLimiters;
  if (!shared) return createRateLimiter(limit);
  let limiter = shared.get(name);
  if (!limiter) {
    limiter = createRateLimiter(limit);
    shared.set(name, limiter);
  }
  return limiter;
}

const NOTHING: RunOutcome = {
  pages: 0,
  skipped: 0,
  combosExcluded: 0,
  eventsWritten: 0,
  marketsWritten: 0,
  latestPublished: false,
};

/** One run of `source`: `body` writes it and answers its outcome. Shared by snapshots and backfill steps. */
export async function runRecorded(
  deps: SyncDeps,
  source: Source<SourceName>,
  kind: RunKind,
  body: (run: SourceRun) => Promise<RunOutcome>,
  signal?: AbortSignal,
): Promise<SyncRunSummary> {
  const now = () => (deps.clock ?? systemClock)().getTime();
  const logger = deps.logger ?? consoleLogger;
  await recoverUnfinishedRuns(deps.warehouse, source, now).then((ids) => {
    if (ids.length > 0) logger.warn({ source: source.name, run_ids: ids }, "removed the rows of interrupted runs");
  });

  const startedAt = now();
  const record: RunRecord = {
    run_id: randomUUID(),
    source: source.name,
    kind,
    started_at: startedAt,
    sync_timestamp: toWarehouseTime(startedAt) as string,
  };
  const run: SourceRun = {
    warehouse: deps.warehouse,
    fetchPage: createPageFetcher({
      limiter: limiterOf(deps, source.name, source.rateLimit(deps.config)),
      logger,
      ...(deps.http ? { policy: deps.http } : {}),
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
    }),
    baseUrl: source.baseUrl(deps.config),
    syncTimestamp: record.sync_timestamp,
    startedAt,
    logger,
    ...(signal ? { signal } : {}),
    limits: { ...DEFAULT_WRITER_LIMITS, ...deps.writer },
    feed: deps.feed ?? defaultFeed(deps.warehouse),
  };

  await recordRunStart(deps.warehouse, record);
  let outcome = NOTHING;
  let error: string | null = null;
  try {
    outcome = await body(run);
    signal?.throwIfAborted();
    if (!outcome.latestPublished) await publishLatest(deps.warehouse, source, record.sync_timestamp);
  } catch (failure) {
    if (failure instanceof RunFailed) outcome = failure.partial;
    error = failure instanceof Error ? failure.message : String(failure);
    logger.error({ source: source.name, kind, run_id: record.run_id, error }, "sync run failed; removing its rows");
    if (writesSnapshots(kind)) await discardRun(deps.warehouse, source, record.sync_timestamp);
  }
  const finishedAt = now();
  const success = error === null;
  const totals = success
    ? { events_written: outcome.eventsWritten, markets_written: outcome.marketsWritten }
    : { events_written: 0, markets_written: 0 };
  await recordRunOutcome(deps.warehouse, record, {
    finished_at: finishedAt,
    ...totals,
    objects_skipped: outcome.skipped,
    success,
    error,
  });
  // After the outcome is recorded, so a run killed here keeps its snapshots and the next run redoes this.
  if (success) {
    const after = writesSnapshots(kind) ? "snapshot" : "history";
    await recordResolutionsAfterRun(deps.warehouse, source.name, record.sync_timestamp, after, logger);
  }
  const summary: SyncRunSummary = {
    run_id: record.run_id,
    source: source.name,
    kind,
    sync_timestamp: record.sync_timestamp,
    ...totals,
    objects_skipped: outcome.skipped,
    combos_excluded: outcome.combosExcluded,
    pages: outcome.pages,
    duration_ms: Math.round(finishedAt - startedAt),
    success,
    error,
  };
  logger.info({ ...summary }, "sync run finished");
  return summary;
}

/** One snapshot run of `source`. Never throws for an upstream or warehouse failure: the summary says. */
export function runSync(
  deps: SyncDeps,
  options: { source: SourceName; signal?: AbortSignal },
): Promise<SyncRunSummary> {
  const source = sourceNamed(options.source);
  return runRecorded(deps, source, "snapshot", (run) => source.snapshot(run), options.signal);
}
