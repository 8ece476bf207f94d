/**
 * What every venue's history worker shares: choosing the markets a step works on, cutting a
 * time range into the windows an endpoint accepts, and recording where each market stands
 * in `internal.history_state`.
 *
 * Where a series resumes is read from the data (its newest stored point), so a step killed
 * after its insert and before its state row repeats with nothing new to fetch, and one
 * killed before its insert fetches the same range again. The state row says which markets
 * are finished (`done`, a closed market's whole life in) and up to when each was fetched
 * (`covered_until`). It is written only after all of the market's rows are in, so it is a
 * safe floor too: a series with no point in a span (no trade, no price yet) resumes after
 * the span instead of asking for it again at every refresh.
 */
import { toDateTime64, type Warehouse } from "@epicenter/warehouse";
import type { HistoryOutcome } from "./source";

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** How many of the last days of a market's life are fetched at one-minute resolution. */
export const MINUTE_DAYS = 2;

/** A market as a history step sees it: when it traded and whether it is finished. */
export interface HistoryTarget {
  market: string;
  /** Unix seconds of its first possible trade (its open, start or creation time). */
  opened: number;
  /** Unix seconds it closed, or null while open. */
  closedAt: number | null;
  /** Points written for it before this step. */
  points: number;
  /** Unix seconds its history was fetched up to by an earlier step, or null. */
  coveredUntil: number | null;
}

/**
 * The markets a step works on, most wanted first: open markets never fetched, open markets
 * whose history is older than `dueBefore`, then closed markets not yet done, newest close
 * first. `markets` is a query over the venue's latest tables answering `market`, `opened`
 * and `closed_at` (Unix seconds, `closed_at` NULL while open) plus whatever the venue needs.
 */
export async function chooseTargets<Row extends object>(
  warehouse: Warehouse,
  source: string,
  markets: string,
  options: { limit: number; dueBefore: number },
): Promise<Array<Row & HistoryTarget>> {
  const rows = await warehouse.query<
    Row & { market: string; opened: number; closed_at: number | null; points: string; covered_until: number | null }
  >(
    `SELECT m.*, s.points AS points, if(s.market = '', NULL, toUnixTimestamp(s.covered_until)) AS covered_until
     FROM (${markets}) AS m
     LEFT JOIN (
       SELECT market, argMax(covered_until, updated_at) AS covered_until, argMax(done, updated_at) AS done,
              argMax(points, updated_at) AS points
       FROM internal.history_state WHERE source = {source:String} GROUP BY market
     ) AS s ON s.market = m.market
     WHERE NOT s.done AND (m.closed_at IS NOT NULL OR s.market = '' OR s.covered_until < toDateTime({due:UInt32}))
     ORDER BY multiIf(m.closed_at IS NULL AND s.market = '', 0, m.closed_at IS NULL, 1, 2), m.closed_at DESC, m.market
     LIMIT {limit:UInt32}
     SETTINGS join_use_nulls = 0`,
    { params: { source, due: Math.floor(options.dueBefore / 1000), limit: options.limit } },
  );
  return rows.map((row) => ({
    ...row,
    opened: Number(row.opened),
    closedAt: row.closed_at === null ? null : Number(row.closed_at),
    points: Number(row.points ?? 0),
    coveredUntil: row.covered_until === null ? null : Number(row.covered_until),
  }));
}

export interface HistoryState {
  market: string;
  /** Unix seconds the market's history now reaches. */
  coveredUntil: number;
  done: boolean;
  points: number;
}

export async function saveHistoryState(
  warehouse: Warehouse,
  source: string,
  states: readonly HistoryState[],
  now: number,
): Promise<void> {
  if (states.length === 0) return;
  await warehouse.insert(
    "internal.history_state",
    states.map((state) => ({
      source,
      market: state.market,
      covered_until: state.coveredUntil,
      done: state.done,
      points: state.points,
      updated_at: toDateTime64(now),
    })),
  );
}

/** A range of Unix seconds, `from` inclusive, `to` inclusive. */
export interface Window {
  from: number;
  to: number;
}

/**
 * Cuts `[from, to]` into windows no longer than `maxSeconds`, on a grid fixed to the epoch,
 * so the same range is always asked for in the same windows: a closed window fetched twice
 * returns the same block, which the tables' insert deduplication drops.
 */
export function windowsOf(from: number, to: number, maxSeconds: number): Window[] {
  const windows: Window[] = [];
  for (let start = from; start <= to; ) {
    const gridEnd = (Math.floor(start / maxSeconds) + 1) * maxSeconds;
    const end = Math.min(to, gridEnd - 1);
    windows.push({ from: start, to: end });
    start = end + 1;
  }
  return windows;
}

/**
 * The range of a market's life still to fetch for one series: after its newest stored
 * point and after what earlier steps covered (or from the market's opening), up to its
 * close or now. Null when there is none.
 */
export function rangeToFetch(target: HistoryTarget, newest: number | undefined, now: number): Window | null {
  const end = Math.min(target.closedAt ?? Number.POSITIVE_INFINITY, Math.floor(now / 1000));
  const start = Math.max(target.opened, (newest ?? -1) + 1, (target.coveredUntil ?? -1) + 1);
  return start <= end ? { from: start, to: end } : null;
}

/** The one-minute range: the same, but no earlier than the last `MINUTE_DAYS` of the range's end. */
export function minuteRange(target: HistoryTarget, newest: number | undefined, now: number): Window | null {
  const range = rangeToFetch(target, newest, now);
  if (!range) return null;
  return { from: Math.max(range.from, range.to - MINUTE_DAYS * 86_400 + 1), to: range.to };
}

/**
 * Rows of one history table, written in batches. A caller adds a series' rows in the order
 * their resumption needs (ascending windows; a market's trades all at once), and a batch
 * is one insert, so whatever a kill leaves stored is a prefix the next step resumes after.
 */
export class RowSink {
  private rows: object[] = [];
  private inserting: Promise<void> = Promise.resolve();
  written = 0;

  constructor(
    private readonly warehouse: Warehouse,
    private readonly table: string,
    private readonly batchRows = 50_000,
  ) {}

  async add(rows: readonly object[]): Promise<void> {
    if (this.rows.length > 0 && this.rows.length + rows.length > this.batchRows) await this.flush();
    for (const row of rows) this.rows.push(row);
    if (this.rows.length >= this.batchRows) await this.flush();
  }

  /** Batches are inserted one after another, in the order they were cut. */
  flush(): Promise<void> {
    if (this.rows.length === 0) return this.inserting;
    const rows = this.rows;
    this.rows = [];
    this.inserting = this.inserting.then(async () => {
      await this.warehouse.insert(this.table, rows);
      this.written += rows.length;
    });
    return this.inserting;
  }
}

/** Runs `work` over `items`, at most `concurrency` at once; the first failure fails it all. */
export async function eachConcurrently<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

/**
 * The end of a step: writes what its sinks still hold, then each market's state (only
 * then, so a market is never marked done before its rows are in), and says what it did.
 */
export async function finishStep(
  warehouse: Warehouse,
  source: string,
  step: {
    targets: readonly HistoryTarget[];
    limit: number;
    now: number;
    sinks: readonly RowSink[];
    /** Rows written per market in this step. */
    written: ReadonlyMap<string, number>;
    pages: number;
    skipped: number;
  },
): Promise<HistoryOutcome> {
  for (const sink of step.sinks) await sink.flush();
  const nowSeconds = Math.floor(step.now / 1000);
  await saveHistoryState(
    warehouse,
    source,
    step.targets.map((target) => ({
      market: target.market,
      coveredUntil: Math.min(target.closedAt ?? Number.POSITIVE_INFINITY, nowSeconds),
      done: target.closedAt !== null,
      points: target.points + (step.written.get(target.market) ?? 0),
    })),
    step.now,
  );
  return {
    pages: step.pages,
    skipped: step.skipped,
    markets: step.targets.length,
    points: step.sinks.reduce((total, sink) => total + sink.written, 0),
    more: step.targets.length === step.limit,
  };
}
