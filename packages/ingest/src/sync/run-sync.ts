/**
 * `runSync`: one snapshot run of one source, the unit the scheduler, the CLI and the demo
 * share. It recovers what a killed earlier run left behind, chooses the run's one
 * `sync_timestamp`, records the start, streams the source's pages through the batch
 * writer, publishes the rows to the latest-state tables, and records the outcome. A
 * failure at any point removes the run's rows before the failure is recorded (see
 * `run-history.ts` for why this gives no duplicates and no partial snapshots).
 */
import { randomUUID } from "node:crypto";
import type { Warehouse } from "@epicenter/warehouse";
import { createPageFetcher, type HttpPolicy } from "../http/fetch-page";
import { createRateLimiter, KALSHI_BASIC_LIMIT, POLYMARKET_EVENTS_LIMIT, type RateLimiter } from "../http/rate-limiter";
import { consoleLogger, type Logger } from "../logger";
import { snapshotKalshi } from "../sources/kalshi/sync";
import { snapshotPolymarket } from "../sources/polymarket/sync";
import { toWarehouseTime } from "../upstream-values";
import {
  discardRun,
  publishLatest,
  type RunKind,
  type RunRecord,
  recordRunOutcome,
  recordRunStart,
  recoverUnfinishedRuns,
  SOURCE_TABLES,
  type SourceName,
} from "./run-history";
import { DEFAULT_WRITER_LIMITS, SnapshotWriter, type WriterLimits } from "./snapshot-writer";
import { emptyCounts, type RunCounts, type SourceRunContext } from "./source-run";

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export interface IngestConfig {
  polymarketApiUrl: string;
  kalshiApiUrl: string;
}

export interface SyncDeps {
  warehouse: Warehouse;
  config: IngestConfig;
  clock?: Clock;
  logger?: Logger;
  /** Per-source limiters shared across runs; one per call is made when absent. */
  rateLimiters?: Partial<Record<SourceName, RateLimiter>>;
  http?: Partial<HttpPolicy>;
  /** The HTTP client; the global `fetch` when absent. */
  fetch?: typeof fetch;
  writer?: Partial<WriterLimits>;
  /** Where Polymarket snapshot pages are mapped (`SourceRunContext.mapping`). */
  polymarketMapping?: "engine" | "javascript";
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

export const SOURCES: readonly SourceName[] = ["polymarket", "kalshi"];

export function sourceBaseUrl(config: IngestConfig, source: SourceName): string {
  return source === "polymarket" ? config.polymarketApiUrl : config.kalshiApiUrl;
}

export function defaultRateLimiter(source: SourceName): RateLimiter {
  return createRateLimiter(source === "polymarket" ? POLYMARKET_EVENTS_LIMIT : KALSHI_BASIC_LIMIT);
}

/** One run: `body` writes pages through the context's writer. Shared by snapshot and backfill steps. */
export async function runRecorded(
  deps: SyncDeps,
  source: SourceName,
  kind: RunKind,
  body: (ctx: SourceRunContext, counts: RunCounts) => Promise<void>,
  signal?: AbortSignal,
): Promise<SyncRunSummary> {
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger ?? consoleLogger;
  await recoverUnfinishedRuns(deps.warehouse, source, () => clock.now()).then((ids) => {
    if (ids.length > 0) logger.warn("removed the rows of interrupted runs", { source, run_ids: ids });
  });

  const startedAt = clock.now();
  const run: RunRecord = {
    run_id: randomUUID(),
    source,
    kind,
    started_at: startedAt,
    sync_timestamp: toWarehouseTime(startedAt) as string,
  };
  const writer = new SnapshotWriter(deps.warehouse, { ...DEFAULT_WRITER_LIMITS, ...deps.writer });
  const counts = emptyCounts();
  const ctx: SourceRunContext = {
    warehouse: deps.warehouse,
    fetchPage: createPageFetcher({
      limiter: deps.rateLimiters?.[source] ?? defaultRateLimiter(source),
      logger,
      ...(deps.http ? { policy: deps.http } : {}),
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
    }),
    baseUrl: sourceBaseUrl(deps.config, source),
    writer,
    syncTimestamp: run.sync_timestamp,
    startedAt,
    logger,
    ...(signal ? { signal } : {}),
    ...(deps.polymarketMapping ? { mapping: deps.polymarketMapping } : {}),
  };
  const [eventsTable, marketsTable] = SOURCE_TABLES[source].map((t) => `${t.database}.${t.name}`);
  const written = () => ({
    events_written: writer.count(eventsTable as string),
    markets_written: writer.count(marketsTable as string),
  });

  await recordRunStart(deps.warehouse, run);
  let error: string | null = null;
  try {
    await body(ctx, counts);
    await writer.flush();
    signal?.throwIfAborted();
    if (!ctx.latestPublished) await publishLatest(deps.warehouse, source, run.sync_timestamp);
  } catch (failure) {
    error = failure instanceof Error ? failure.message : String(failure);
    await writer.settle();
    logger.error("sync run failed; removing its rows", { source, kind, run_id: run.run_id, error });
    await discardRun(deps.warehouse, source, run.sync_timestamp);
  }
  const finishedAt = clock.now();
  const success = error === null;
  const totals = success ? written() : { events_written: 0, markets_written: 0 };
  await recordRunOutcome(deps.warehouse, run, {
    finished_at: finishedAt,
    ...totals,
    objects_skipped: counts.skipped,
    success,
    error,
  });
  const summary: SyncRunSummary = {
    run_id: run.run_id,
    source,
    kind,
    sync_timestamp: run.sync_timestamp,
    ...totals,
    objects_skipped: counts.skipped,
    combos_excluded: counts.combosExcluded,
    pages: counts.pages,
    duration_ms: Math.round(finishedAt - startedAt),
    success,
    error,
  };
  logger.info("sync run finished", { ...summary });
  return summary;
}

/** One snapshot run of `source`. Never throws for an upstream or warehouse failure: the summary says. */
export function runSync(
  deps: SyncDeps,
  options: { source: SourceName; signal?: AbortSignal },
): Promise<SyncRunSummary> {
  const snapshot = options.source === "polymarket" ? snapshotPolymarket : snapshotKalshi;
  return runRecorded(deps, options.source, "snapshot", snapshot, options.signal);
}
