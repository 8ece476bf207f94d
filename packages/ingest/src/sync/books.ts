/**
 * The order-book capture (issue 28): after each snapshot that succeeded, the books of the
 * source's open markets, written to `<venue>.books` under the snapshot's `sync_timestamp`
 * and accounted for in `<venue>.book_coverage`.
 *
 * Tiers, when the budget cannot take every market every snapshot (Kalshi bills each ticker
 * of a batch; a Basic account's bucket holds about 12,000 books per ten minutes if it did
 * nothing else):
 * - `active`, traded in the last day: every snapshot, most traded first;
 * - `hourly`, the rest: a sixth of them each snapshot (by a hash of the key and the
 *   snapshot's ten-minute slot), so each is captured once an hour at the spec's cadence.
 * The plan is the source's `budgetShare` of its host's limit over one snapshot interval;
 * what does not fit is left out, active markets last, and counted in the ledger.
 *
 * A market that had a book and is no longer open gets one `closed` row, an empty book, so
 * a book "as of" a later time shows none. A batch the venue refuses after the fetcher's
 * retries is counted as failed and the capture goes on; an abort stops it, keeping what
 * was written (each row is a whole book).
 */
import type { Warehouse } from "@epicenter/warehouse";
import { BOOK_LOOKBACK_MINUTES } from "@epicenter/warehouse";
import { type Book, type BookTarget, bookRow } from "../books";
import { createPageFetcher } from "../http/fetch-page";
import { consoleLogger, systemClock } from "../logger";
import type { BookHost, Source } from "../source";
import { type SourceName, sourceNamed } from "../sources";
import { toWarehouseTime } from "../upstream-values";
import { limiterOf, type SyncDeps } from "./run-sync";

/** Snapshots per hour at the spec's ten-minute cadence: a quiet market is in one of them. */
export const QUIET_SLOTS = 6;
const SLOT_MS = 10 * 60_000;
const PARALLEL_REQUESTS = 4;
const ROWS_PER_INSERT = 20_000;

export interface BookCaptureOptions {
  /** Seconds between snapshots: the plan is a share of the host's limit over one interval (a minute at least). */
  intervalSeconds: number;
  /** At most this many markets, whatever the budget (a tighter plan than the limit's). */
  maxMarkets?: number;
  signal?: AbortSignal;
}

export interface BookCaptureOutcome {
  sync_timestamp: string;
  markets_open: number;
  active_due: number;
  hourly_due: number;
  captured: number;
  left_out: number;
  failed: number;
  /** Captured books with no level on either side. */
  empty: number;
  closed: number;
  requests: number;
  budget: number;
  duration_ms: number;
  error: string;
}

interface TargetRow {
  market: string;
  book_id: string;
  active: boolean | number;
}

/** A stable hash of a key (FNV-1a), which picks a quiet market's slot in the hour. */
export function slotOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % QUIET_SLOTS;
}

/** The snapshot's slot in the hour (0–5). */
export function slotAt(syncTimestamp: string): number {
  return Math.floor(Date.parse(`${syncTimestamp.replace(" ", "T")}Z`) / SLOT_MS) % QUIET_SLOTS;
}

/** Captures `name`'s books for the snapshot at `syncTimestamp`. Never throws for an upstream failure: the outcome says. */
export async function captureBooks(
  deps: SyncDeps,
  name: SourceName,
  syncTimestamp: string,
  options: BookCaptureOptions,
): Promise<BookCaptureOutcome> {
  const source = sourceNamed(name);
  const books = source.books;
  const logger = deps.logger ?? consoleLogger;
  const now = () => (deps.clock ?? systemClock)().getTime();
  const startedAt = now();
  const limiter = limiterOf(deps, books.host.name, books.host.rateLimit(deps.config));
  const host: BookHost = {
    baseUrl: books.host.baseUrl(deps.config),
    fetchPage: createPageFetcher({
      limiter,
      logger,
      ...(deps.http ? { policy: deps.http } : {}),
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
    }),
  };
  const key = marketKey(source);
  const targets = await deps.warehouse.query<TargetRow>(books.targetsSql, { params: { ts: syncTimestamp } });
  const slot = slotAt(syncTimestamp);
  const active = targets.filter((target) => Number(target.active) > 0);
  const hourly = targets.filter((target) => Number(target.active) === 0 && slotOf(target.market) === slot);
  const perSecond = limiter.usage().unitsPerSecond;
  const budget = Math.min(
    options.maxMarkets ?? Number.POSITIVE_INFINITY,
    // At least a minute's share: a shorter interval (tests, a demo) still captures some books.
    Math.floor((perSecond * books.budgetShare * Math.max(60, options.intervalSeconds)) / books.costPerMarket),
  );
  const due = [...active, ...hourly];
  const chosen = due.slice(0, budget);
  const stateOf = new Map(chosen.map((target) => [target.market, Number(target.active) > 0 ? "active" : "hourly"]));
  const outcome: BookCaptureOutcome = {
    sync_timestamp: syncTimestamp,
    markets_open: targets.length,
    active_due: active.length,
    hourly_due: hourly.length,
    captured: 0,
    left_out: due.length - chosen.length,
    failed: 0,
    empty: 0,
    closed: 0,
    requests: 0,
    budget,
    duration_ms: 0,
    error: "",
  };
  if (outcome.left_out > 0) {
    logger.warn(
      { source: name, due: due.length, budget, left_out: outcome.left_out },
      "books: the budget cannot take every market due; the least traded are left for the next snapshot",
    );
  }

  const pending: Record<string, unknown>[] = [];
  const flush = async (force: boolean) => {
    if (pending.length === 0 || (!force && pending.length < ROWS_PER_INSERT)) return;
    await deps.warehouse.insert(`${name}.books`, pending.splice(0));
  };
  const keep = (book: Book, state: "active" | "hourly" | "closed") => {
    pending.push(bookRow(key, syncTimestamp, state, book, toWarehouseTime));
  };

  // A batch is bounded by what one request may cost of the limiter (Kalshi's bucket).
  const size = Math.max(1, Math.min(books.batch, Math.floor(limiter.maxCost / books.costPerMarket)));
  const batches: BookTarget[][] = [];
  for (let i = 0; i < chosen.length; i += size) {
    batches.push(chosen.slice(i, i + size).map((target) => ({ market: target.market, bookId: target.book_id })));
  }
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      options.signal?.throwIfAborted();
      const batch = batches[next++] as BookTarget[];
      outcome.requests += 1;
      try {
        const answer = await books.fetch(host, batch, options.signal);
        outcome.failed += answer.failed.length;
        for (const book of answer.books) {
          keep(book, stateOf.get(book.market) === "active" ? "active" : "hourly");
          outcome.captured += 1;
          if (book.bids.length === 0 && book.asks.length === 0) outcome.empty += 1;
        }
        await flush(false);
      } catch (error) {
        if (options.signal?.aborted) throw error;
        outcome.failed += batch.length;
        outcome.error = error instanceof Error ? error.message : String(error);
        logger.warn(
          { source: name, markets: batch.length, error: outcome.error },
          "books: a batch failed; counted and skipped",
        );
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(PARALLEL_REQUESTS, batches.length) }, worker));
    const closed = await closedSince(deps.warehouse, name, key, syncTimestamp, new Set(targets.map((t) => t.market)));
    for (const market of closed) keep({ market, bookTimestamp: null, bids: [], asks: [] }, "closed");
    outcome.closed = closed.length;
  } catch (error) {
    outcome.error = error instanceof Error ? error.message : String(error);
  } finally {
    await flush(true);
    outcome.duration_ms = Math.round(now() - startedAt);
    await deps.warehouse.insert(`${name}.book_coverage`, [outcome]);
  }
  logger.info({ source: name, ...outcome }, "books captured");
  return outcome;
}

/** Markets whose last row in the look-back window is a book, and which are no longer open. */
async function closedSince(
  warehouse: Warehouse,
  name: string,
  key: string,
  syncTimestamp: string,
  open: ReadonlySet<string>,
): Promise<string[]> {
  const rows = await warehouse.query<{ market: string }>(
    `SELECT ${key} AS market FROM ${name}.books
     WHERE sync_timestamp < {ts:DateTime64(3, 'UTC')}
       AND sync_timestamp > {ts:DateTime64(3, 'UTC')} - INTERVAL ${BOOK_LOOKBACK_MINUTES} MINUTE
     GROUP BY ${key} HAVING argMax(state, sync_timestamp) != 'closed'`,
    { params: { ts: syncTimestamp } },
  );
  return rows.map((row) => row.market).filter((market) => !open.has(market));
}

function marketKey(source: Source): string {
  const markets = source.tables.find((table) => table.name === "markets");
  if (!markets) throw new Error(`${source.name} has no markets table`);
  return markets.key;
}
