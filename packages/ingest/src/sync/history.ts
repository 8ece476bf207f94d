/**
 * The history worker's frame: one bounded step of a source's price and trade history
 * (`Source.history.step`), recorded in `internal.sync_run_history` as a run of kind
 * `history` like a backfill step, and the progress the status shows.
 *
 * A step reads its hosts through the limiters in `deps.rateLimiters`, by host name, so
 * that it and the snapshots of the same source share each host's limit. What a failed or
 * killed step stored stays: every series resumes after its newest stored point
 * (`../history.ts`), so repeating a step adds neither duplicates nor gaps.
 */
import type { Warehouse } from "@epicenter/warehouse";
import { type GapReason, openCoverage, SCHEDULE } from "../history";
import { createPageFetcher } from "../http/fetch-page";
import { consoleLogger, systemClock } from "../logger";
import type { HistoryOutcome, HistoryRun } from "../source";
import { type SourceName, sourceNamed } from "../sources";
import { limiterOf, runRecorded, type SyncDeps, type SyncRunSummary } from "./run-sync";

export interface HistoryStepOptions {
  /** Markets per step (default 20: a step of long-lived markets stays well under a minute at the venues' limits). */
  markets?: number;
  /** How stale an open market's history may get before it is refreshed (default one hour). */
  refreshMs?: number;
  /** Rows per insert (default 50,000). */
  batchRows?: number;
  signal?: AbortSignal;
}

export interface HistoryStepResult {
  run: SyncRunSummary;
  outcome: HistoryOutcome | null;
}

export const DEFAULT_HISTORY_REFRESH_MS = 60 * 60 * 1000;

/** Advances `source`'s history by one step. Never throws for an upstream failure: the run says. */
export async function runHistoryStep(
  deps: SyncDeps,
  name: SourceName,
  options: HistoryStepOptions = {},
): Promise<HistoryStepResult> {
  const source = sourceNamed(name);
  const logger = deps.logger ?? consoleLogger;
  let outcome: HistoryOutcome | null = null;
  const run = await runRecorded(
    deps,
    source,
    "history",
    async (sourceRun) => {
      const history: HistoryRun = {
        warehouse: deps.warehouse,
        hosts: Object.fromEntries(
          source.history.hosts.map((host) => {
            const limiter = limiterOf(deps, host.name, host.rateLimit(deps.config));
            return [
              host.name,
              {
                baseUrl: host.baseUrl(deps.config),
                maxCost: limiter.maxCost,
                fetchPage: createPageFetcher({
                  limiter,
                  logger,
                  ...(deps.http ? { policy: deps.http } : {}),
                  ...(deps.fetch ? { fetch: deps.fetch } : {}),
                }),
              },
            ];
          }),
        ),
        now: sourceRun.startedAt,
        refreshMs: options.refreshMs ?? DEFAULT_HISTORY_REFRESH_MS,
        ...(options.batchRows ? { batchRows: options.batchRows } : {}),
        logger,
        ...(options.signal ? { signal: options.signal } : {}),
      };
      outcome = await source.history.step(history, options.markets ?? 20);
      if (outcome.failed > 0) {
        logger.warn(
          { source: name, failed: outcome.failed },
          "history: some markets' requests failed; each is recorded with its error and tried again later",
        );
      }
      return {
        pages: outcome.pages,
        skipped: outcome.skipped,
        combosExcluded: 0,
        eventsWritten: 0,
        marketsWritten: outcome.markets,
        latestPublished: true,
      };
    },
    options.signal,
  );
  return { run, outcome };
}

export interface HistoryProgress {
  /** Markets whose history is in: closed ones whole, open ones refreshed within the refresh interval. */
  markets_done: number;
  markets_known: number;
  /** Markets whose last step failed at the venue, waiting to be tried again. */
  markets_failing: number;
  /** Open markets, and those current by the schedule (`openCoverage`). */
  open_markets: number;
  open_markets_current: number;
  /** The open market furthest behind its schedule, stored up to `since` (ISO; its open when never fetched), or null. */
  oldest_gap: { market: string; since: string; reason: GapReason } | null;
  points_stored: number;
  /** The oldest stored point, ISO, or null. */
  oldest_point: string | null;
  /** Up to when the exchange-wide trade tape has every trade, ISO, or null without one. */
  trades_complete_until: string | null;
  /** Markets per minute over the last hour of steps (or since the first), and the time left at that pace. */
  markets_per_minute: number;
  estimated_seconds_left: number | null;
}

/** Where `name`'s history stands, from the state table and the history tables' own parts. */
export async function readHistoryProgress(
  warehouse: Warehouse,
  name: SourceName,
  options: { now?: number; refreshMs?: number } = {},
): Promise<HistoryProgress> {
  const source = sourceNamed(name);
  const now = options.now ?? systemClock().getTime();
  // An open market is in while its refresh is not overdue, whichever its tier (`SCHEDULE`).
  const due = Math.floor((now - SCHEDULE.quietMs - (options.refreshMs ?? DEFAULT_HISTORY_REFRESH_MS)) / 1000);
  const tables = source.history.tables;
  const [row] = await warehouse.query<{
    states: [string, string];
    recent: string;
    recent_from: string | null;
    known: string;
    points: string;
    oldest: number | null;
    tape: number | null;
  }>(
    `SELECT
       (SELECT tuple(countIf(failures = 0 AND (done OR covered_until >= toDateTime({due:UInt32}))), countIf(failures > 0))
        FROM (
          SELECT argMax(done, updated_at) AS done, argMax(covered_until, updated_at) AS covered_until,
                 argMax(failures, updated_at) AS failures
          FROM internal.history_state WHERE source = {source:String} GROUP BY market)) AS states,
       (SELECT uniqExact(market) FROM internal.history_state
          WHERE source = {source:String} AND updated_at >= fromUnixTimestamp64Milli({since:Int64})) AS recent,
       (SELECT toUnixTimestamp64Milli(min(updated_at)) FROM internal.history_state
          WHERE source = {source:String} AND updated_at >= fromUnixTimestamp64Milli({since:Int64})) AS recent_from,
       (${source.history.knownMarketsSql}) AS known,
       (${tables.map(({ table }) => `(SELECT count() FROM ${table})`).join(" + ")}) AS points,
       (SELECT min(oldest) FROM (${tables
         // Only the oldest monthly partition is read.
         .map(({ table, time }) => {
           const [database, name] = table.split(".");
           return `SELECT toUnixTimestamp(min(${time})) AS oldest FROM ${table} WHERE _partition_id = (SELECT min(partition_id) FROM system.parts WHERE active AND database = '${database}' AND table = '${name}') HAVING count() > 0`;
         })
         .join(" UNION ALL ")})) AS oldest,
       (SELECT max(reached) FROM internal.feed_state FINAL WHERE source = {source:String} AND feed = 'trades' AND reached > 0) AS tape`,
    { params: { source: name, due, since: now - 60 * 60 * 1000 } },
  );
  const open = await openCoverage(warehouse, name, source.history.marketsSql, {
    now,
    refreshMs: options.refreshMs ?? DEFAULT_HISTORY_REFRESH_MS,
  });
  const known = Number(row?.known ?? 0);
  const [doneCount, failing] = row?.states ?? ["0", "0"];
  const done = Math.min(known, Number(doneCount));
  // The pace over the last hour, or over as much of it as the worker has run.
  const recent = Number(row?.recent ?? 0);
  const minutes = Math.min(60, Math.max(1, (now - Number(row?.recent_from ?? now)) / 60_000));
  const perMinute = recent / minutes;
  const oldest = row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest);
  return {
    markets_done: done,
    markets_known: known,
    markets_failing: Number(failing),
    open_markets: open.open,
    open_markets_current: open.current,
    oldest_gap: open.oldestGap && {
      market: open.oldestGap.market,
      since: new Date(open.oldestGap.since * 1000).toISOString(),
      reason: open.oldestGap.reason,
    },
    points_stored: Number(row?.points ?? 0),
    oldest_point: oldest === null || oldest === 0 ? null : new Date(oldest * 1000).toISOString(),
    trades_complete_until: row?.tape ? new Date((Number(row.tape) + 1) * 1000).toISOString() : null,
    markets_per_minute: Math.round(perMinute * 10) / 10,
    estimated_seconds_left: known === done ? 0 : perMinute > 0 ? Math.round(((known - done) / perMinute) * 60) : null,
  };
}
