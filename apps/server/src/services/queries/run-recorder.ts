/**
 * Records query runs in `query_runs` write-behind: a run is queued in memory and written
 * with the others of the next quarter second in one INSERT, instead of one INSERT per run
 * on the request's path. On the embedded app database (PGlite runs on the server's main
 * thread) that INSERT was a millisecond of every query's answer.
 *
 * What this trades: a run is in the table up to `flushMs` after it ended, so whatever reads
 * `query_runs` calls `flush()` first (the statistics, the admin's list); and a `kill -9`
 * loses the runs of that last quarter second (statistics, never user data — the
 * per-run INSERT it replaces was not awaited either). A graceful stop flushes
 * (`close()`, called by `Stores.close()` before the database closes).
 *
 * Recording never fails a query: a batch the store refuses is written again run by run, so
 * only a run that cannot be written (its saved query deleted meanwhile) is logged and
 * dropped; at most `maxPending` runs wait while the store is slow.
 */
import { type AppDb, type QueryRunRecord, recordQueryRuns } from "@epicenter/db";
import type { Logger } from "pino";

export interface QueryRunRecorder {
  /** Queues one run; never throws, never waits. */
  record(run: QueryRunRecord): void;
  /**
   * Resolves once every run queued before the call is written (or given up on). With
   * `only`, writes nothing unless a queued run matches it: a reader that counts some runs
   * does not pay for writing the others early.
   */
  flush(only?: (run: QueryRunRecord) => boolean): Promise<void>;
  /** Flushes and stops the timer; later runs are written at once, one by one. */
  close(): Promise<void>;
}

export interface QueryRunRecorderOptions {
  /** How long a run may wait before its batch is written. */
  flushMs?: number;
  /** A batch is written at once when it reaches this many runs. */
  maxBatch?: number;
  /** Runs kept while writes fail; older ones are dropped (and counted in the log). */
  maxPending?: number;
}

export function createQueryRunRecorder(
  db: AppDb,
  logger: Pick<Logger, "error" | "warn">,
  options: QueryRunRecorderOptions = {},
): QueryRunRecorder {
  const flushMs = options.flushMs ?? 250;
  const maxBatch = options.maxBatch ?? 200;
  const maxPending = options.maxPending ?? 10_000;
  let pending: QueryRunRecord[] = [];
  let timer: NodeJS.Timeout | undefined;
  // Batches are written one after another, so `flush()` can wait for the tail of the chain.
  let writing: Promise<void> = Promise.resolve();
  let isClosed = false;

  const writeBatch = (batch: QueryRunRecord[]) => {
    writing = writing.then(async () => {
      try {
        await recordQueryRuns(db, batch);
      } catch (error) {
        if (batch.length === 1) {
          logger.error({ err: error }, "could not record a query run");
          return;
        }
        // One bad run (its saved query deleted meanwhile) must not cost the others theirs.
        for (const run of batch) {
          await recordQueryRuns(db, [run]).catch((single: unknown) =>
            logger.error({ err: single }, "could not record a query run"),
          );
        }
      }
    });
    return writing;
  };

  const flush = (only?: (run: QueryRunRecord) => boolean): Promise<void> => {
    if (only && !pending.some(only)) return writing;
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return writing;
    const batch = pending;
    pending = [];
    for (let start = 0; start < batch.length; start += maxBatch) writeBatch(batch.slice(start, start + maxBatch));
    return writing;
  };

  return {
    record(run) {
      if (pending.length >= maxPending) {
        pending.shift();
        logger.warn({ maxPending }, "query run records are not being written; dropped the oldest");
      }
      pending.push(storable(run));
      if (isClosed || pending.length >= maxBatch) {
        void flush();
        return;
      }
      if (!timer) {
        timer = setTimeout(() => void flush(), flushMs);
        // A pending batch must not keep a process alive that is otherwise done.
        timer.unref();
      }
    },
    flush,
    async close() {
      isClosed = true;
      await flush();
    },
  };
}

/**
 * PostgreSQL text cannot hold a NUL character, and a run that cannot be stored escapes
 * the audit log: the inputs refuse NUL, and whatever still carries one (a model's SQL) is
 * kept with U+FFFD in its place.
 */
function storable(run: QueryRunRecord): QueryRunRecord {
  const clean = (text: string) => (text.includes("\0") ? text.replaceAll("\0", "\uFFFD") : text);
  return { ...run, sql: clean(run.sql), ...(run.error ? { error: clean(run.error) } : {}) };
}
