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
 *
 * One market's failure is one market's (`forEachMarket`): a market whose requests keep
 * failing with an answer from the venue (a delisted ticker's 404, a 400, a 5xx after the
 * fetcher's retries) is recorded with its error and left until its backoff ends, while the
 * step goes on with the others and stores their rows. A failure with no answer (the host
 * unreachable, a timeout after retries, a 429 the limiter should have prevented) is the
 * venue's, not the market's, and fails the step as before.
 */
import { toDateTime64, type Warehouse } from "@epicenter/warehouse";
import { UpstreamError } from "./http/fetch-page";
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
  /** Steps in a row that failed for it (0 when the last one did not). */
  failures: number;
  /** Unix seconds of its newest stored trade as of its last step, or null. */
  lastTrade: number | null;
  /** How often it is refreshed while open (seconds), by its activity (`SCHEDULE`). */
  refreshSeconds: number;
}

/**
 * How often an open market's history is brought up to date, by its value (the schedule
 * `chooseTargets` keeps, in SQL):
 * - every 10 minutes while it trades (a trade stored in the last hour) and in the last
 *   hour before its end date, so its minutes are in before the venue coarsens them (a
 *   market still open past its end date waits for its resolution like any other);
 * - every `refreshMs` (an hour by default) when it traded in the last day (a stored trade,
 *   or the venue's own 24-hour volume in its latest snapshot);
 * - daily otherwise.
 * A market never fetched or due in its last hour goes first (a first backfill of the open
 * set must not hold up the final minutes of a market closing now), closing soonest first;
 * other due markets next, closing soonest first; the closed backfill takes what is left,
 * newest close first. Among open markets those still to close go before those past their
 * end date (waiting for a resolution at no known time), and those without one go last.
 */
export const SCHEDULE = { activeMs: 10 * 60_000, quietMs: 24 * 60 * 60_000 } as const;

/**
 * The venue's markets (`markets`, as `chooseTargets` takes it) as `m`, each beside its
 * history state as `s` (empty for a market never fetched); `EVERY` is how often one is
 * refreshed while open, in seconds, by its activity (`SCHEDULE`).
 */
function scheduled(markets: string): string {
  return `FROM (${markets}) AS m
     LEFT JOIN (
       SELECT market, argMax(covered_until, updated_at) AS covered_until, argMax(done, updated_at) AS done,
              argMax(points, updated_at) AS points, argMax(failures, updated_at) AS failures,
              argMax(retry_at, updated_at) AS retry_at, argMax(last_trade, updated_at) AS last_trade
       FROM internal.history_state WHERE source = {source:String} GROUP BY market
     ) AS s ON s.market = m.market`;
}

const EVERY = `multiIf(
  toUnixTimestamp(s.last_trade) >= {now:UInt32} - 3600 OR m.closes_at BETWEEN {now:UInt32} AND {now:UInt32} + 3600, {active:UInt32},
  toUnixTimestamp(s.last_trade) >= {now:UInt32} - 86400 OR m.volume_day > 0, {refresh:UInt32},
  {quiet:UInt32})`;

function scheduleParams(source: string, options: { refreshMs: number; now: number }) {
  return {
    source,
    now: Math.floor(options.now / 1000),
    active: Math.floor(Math.min(SCHEDULE.activeMs, options.refreshMs) / 1000),
    refresh: Math.floor(options.refreshMs / 1000),
    quiet: Math.floor(Math.max(SCHEDULE.quietMs, options.refreshMs) / 1000),
  };
}

/**
 * Each open market with its tier (`every`), whether its history is current by the schedule
 * (fetched, not failing, refreshed within its tier), since when it is stored up to (its
 * open when never fetched) and, when not current, why.
 */
function openStates(markets: string): string {
  return `SELECT m.market AS market, ${EVERY} AS every, s.market = '' AS is_new,
            s.market != '' AND s.failures = 0 AND toUnixTimestamp(s.covered_until) > {now:UInt32} - every AS is_current,
            if(s.market = '', toInt64(m.opened), toInt64(toUnixTimestamp(s.covered_until))) AS since,
            multiIf(s.market = '', 'not reached yet', s.failures > 0, 'upstream error', 'refresh due') AS reason
     ${scheduled(markets)}
     WHERE m.closed_at IS NULL`;
}

/** Why an open market's history is behind its schedule. */
export type GapReason = "not reached yet" | "upstream error" | "refresh due";

/** The open market furthest behind: its history is stored up to `since` (Unix seconds; its open when never fetched). */
export interface OldestGap {
  market: string;
  since: number;
  reason: GapReason;
}

/**
 * Open markets, those whose history is current by the schedule (the status's coverage of
 * the open set), and the oldest gap among the others.
 */
export async function openCoverage(
  warehouse: Warehouse,
  source: string,
  markets: string,
  options: { refreshMs: number; now: number },
): Promise<{ open: number; current: number; oldestGap: OldestGap | null }> {
  const [row] = await warehouse.query<{
    open: string;
    current: string;
    gap_market: string;
    gap_since: string;
    gap_reason: GapReason;
  }>(
    `SELECT count() AS open, countIf(is_current) AS current,
            argMinIf(market, (since, market), NOT is_current) AS gap_market,
            minIf(since, NOT is_current) AS gap_since,
            argMinIf(reason, (since, market), NOT is_current) AS gap_reason
     FROM (${openStates(markets)})
     SETTINGS join_use_nulls = 0`,
    { params: scheduleParams(source, options) },
  );
  const open = Number(row?.open ?? 0);
  const current = Number(row?.current ?? 0);
  const oldestGap =
    row && current < open ? { market: row.gap_market, since: Number(row.gap_since), reason: row.gap_reason } : null;
  return { open, current, oldestGap };
}

/** Open markets of one tier of the schedule, and how far behind their history is. */
export interface TierCoverage {
  /** The tier's refresh interval (seconds): `SCHEDULE`'s active, middle or quiet one. */
  everySeconds: number;
  open: number;
  current: number;
  /** Open markets whose history was never fetched. */
  unfetched: number;
  /** Seconds from the newest point fetched (the market's open when never fetched) to now. */
  lagP50: number;
  lagP99: number;
  lagMax: number;
}

/** `openCoverage` by tier of the schedule, with the history's lag in each (the scale run's figures). */
export async function openCoverageByTier(
  warehouse: Warehouse,
  source: string,
  markets: string,
  options: { refreshMs: number; now: number },
): Promise<TierCoverage[]> {
  const rows = await warehouse.query<Record<keyof TierCoverage, string | number>>(
    `SELECT every AS everySeconds, count() AS open, countIf(is_current) AS current, countIf(is_new) AS unfetched,
            quantileExact(0.5)(lag) AS lagP50, quantileExact(0.99)(lag) AS lagP99, max(lag) AS lagMax
     FROM (SELECT *, greatest(0, toInt64({now:UInt32}) - since) AS lag FROM (${openStates(markets)}))
     GROUP BY every ORDER BY every
     SETTINGS join_use_nulls = 0`,
    { params: scheduleParams(source, options) },
  );
  return rows.map((row) => ({
    everySeconds: Number(row.everySeconds),
    open: Number(row.open),
    current: Number(row.current),
    unfetched: Number(row.unfetched),
    lagP50: Number(row.lagP50),
    lagP99: Number(row.lagP99),
    lagMax: Number(row.lagMax),
  }));
}

/**
 * The markets a step works on, most wanted first: open markets never fetched or due in
 * their last hour, then the other open markets due by the schedule (`SCHEDULE`,
 * `refreshMs` its middle tier), both closing soonest first (past their end date after
 * those still to close), then closed markets not yet done, newest close first; a market whose last step
 * failed waits until its `retry_at`. `markets` is a query
 * over the venue's latest tables answering `market`, `opened` and `closed_at` (Unix
 * seconds, `closed_at` NULL while open), `closes_at` (Unix seconds it is due to close, or
 * NULL) and `volume_day` (the venue's own 24-hour volume) plus whatever the venue needs.
 */
export async function chooseTargets<Row extends object>(
  warehouse: Warehouse,
  source: string,
  markets: string,
  options: { limit: number; refreshMs: number; now: number },
): Promise<Array<Row & HistoryTarget>> {
  const rows = await warehouse.query<
    Row & {
      market: string;
      opened: number;
      closed_at: number | null;
      points: string;
      covered_until: number | null;
      failures: number;
      last_trade: number;
      every: number;
    }
  >(
    `SELECT m.*, s.points AS points, if(s.market = '', NULL, toUnixTimestamp(s.covered_until)) AS covered_until,
            s.failures AS failures, toUnixTimestamp(s.last_trade) AS last_trade, ${EVERY} AS every
     ${scheduled(markets)}
     WHERE NOT s.done
       AND (m.closed_at IS NOT NULL OR s.market = '' OR toUnixTimestamp(s.covered_until) <= {now:UInt32} - every)
       AND s.retry_at <= toDateTime({now:UInt32})
     ORDER BY multiIf(m.closed_at IS NULL AND (s.market = '' OR m.closes_at BETWEEN {now:UInt32} AND {now:UInt32} + 3600), 0, m.closed_at IS NULL, 1, 2),
              if(m.closed_at IS NULL, m.closes_at < {now:UInt32}, NULL) ASC NULLS LAST,
              if(m.closed_at IS NULL, m.closes_at, NULL) ASC NULLS LAST, m.closed_at DESC, m.market
     LIMIT {limit:UInt32}
     SETTINGS join_use_nulls = 0`,
    { params: { ...scheduleParams(source, options), limit: options.limit } },
  );
  return rows.map((row) => ({
    ...row,
    opened: Number(row.opened),
    closedAt: row.closed_at === null ? null : Number(row.closed_at),
    points: Number(row.points ?? 0),
    coveredUntil: row.covered_until === null ? null : Number(row.covered_until),
    failures: Number(row.failures ?? 0),
    lastTrade: Number(row.last_trade ?? 0) > 0 ? Number(row.last_trade) : null,
    refreshSeconds: Number(row.every),
  }));
}

export interface HistoryState {
  market: string;
  /** Unix seconds the market's history now reaches. */
  coveredUntil: number;
  done: boolean;
  points: number;
  /** Why the market's step failed, and how many in a row did; '' and 0 when it did not. */
  error?: string;
  failures?: number;
  /** Unix seconds before which it is not tried again. */
  retryAt?: number;
  /** Unix seconds of its newest stored trade, or null. */
  lastTrade?: number | null;
}

/** A failed market waits 10 minutes, doubling with each failure in a row, at most a day. */
export function retryDelaySeconds(failures: number): number {
  return Math.min(86_400, 600 * 2 ** Math.max(0, failures - 1));
}

/**
 * Whether `error` is one market's: an answer from the venue about it (any HTTP status but
 * 429), as opposed to no answer at all or the venue throttling the whole account.
 */
export function isMarketFailure(error: unknown): error is UpstreamError {
  return error instanceof UpstreamError && error.status !== undefined && error.status !== 429;
}

/**
 * What is recorded of one market's failure, for the coverage ledger every user reads: the
 * venue's status and the route, not the host (a configured mirror may carry credentials)
 * nor the query or the body (the server's log has those).
 */
export function marketFailure(error: UpstreamError): string {
  let route = "";
  try {
    route = new URL(error.url).pathname;
  } catch {
    route = "";
  }
  const what = error.message.startsWith("page failed validation")
    ? "an answer that failed validation"
    : `HTTP ${error.status}`;
  return route ? `${what} from ${route}` : what;
}

/**
 * Runs `work` for each target, at most `concurrency` at once; a market's own failure
 * (`isMarketFailure`) is recorded in `failed` and the others go on. Any other failure
 * fails it all.
 */
export async function forEachMarket<T extends { market: string }>(
  targets: readonly T[],
  concurrency: number,
  failed: Map<string, string>,
  work: (target: T) => Promise<void>,
): Promise<void> {
  await eachConcurrently(targets, concurrency, async (target) => {
    try {
      await work(target);
    } catch (error) {
      if (!isMarketFailure(error)) throw error;
      failed.set(target.market, marketFailure(error));
    }
  });
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
      error: state.error ?? "",
      failures: state.failures ?? 0,
      retry_at: state.retryAt ?? 0,
      last_trade: state.lastTrade ?? 0,
      updated_at: toDateTime64(now),
    })),
  );
}

/**
 * The markets' rows of the venue's coverage ledger (warehouse migration 15), from the
 * states just saved: what users read of where each market's history stands.
 */
async function saveCoverage(
  warehouse: Warehouse,
  coverage: { table: string; key: string },
  targets: readonly HistoryTarget[],
  states: readonly HistoryState[],
  now: number,
): Promise<void> {
  if (states.length === 0) return;
  await warehouse.insert(
    coverage.table,
    states.map((state, index) => {
      const target = targets[index] as HistoryTarget;
      const failed = (state.failures ?? 0) > 0;
      return {
        [coverage.key]: state.market,
        is_open: target.closedAt === null,
        state: failed ? "upstream error" : state.done ? "complete" : "current",
        history_until: state.coveredUntil,
        venue_has_none: state.done && state.points === 0,
        points: state.points,
        last_trade: state.lastTrade ?? null,
        refresh_minutes: Math.round(target.refreshSeconds / 60),
        error: state.error ?? "",
        failures: state.failures ?? 0,
        retry_at: failed ? (state.retryAt ?? null) : null,
        updated_at: toDateTime64(now),
      };
    }),
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
 * A failed market keeps the coverage it had, its error and when it is tried again.
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
    /** Markets whose step failed, with the error. */
    failed: ReadonlyMap<string, string>;
    /** Unix seconds of each market's newest stored trade, after the step. */
    lastTrade: ReadonlyMap<string, number>;
    /** The venue's coverage ledger (warehouse migration 15) and its key column. */
    coverage: { table: string; key: string };
    pages: number;
    skipped: number;
  },
): Promise<HistoryOutcome> {
  for (const sink of step.sinks) await sink.flush();
  const nowSeconds = Math.floor(step.now / 1000);
  const states = step.targets.map((target): HistoryState => {
    const points = target.points + (step.written.get(target.market) ?? 0);
    const error = step.failed.get(target.market);
    const lastTrade = Math.max(target.lastTrade ?? 0, step.lastTrade.get(target.market) ?? 0) || null;
    if (error === undefined) {
      return {
        market: target.market,
        coveredUntil: Math.min(target.closedAt ?? Number.POSITIVE_INFINITY, nowSeconds),
        done: target.closedAt !== null,
        points,
        lastTrade,
      };
    }
    const failures = target.failures + 1;
    return {
      market: target.market,
      coveredUntil: target.coveredUntil ?? 0,
      done: false,
      points,
      lastTrade,
      error,
      failures,
      retryAt: nowSeconds + retryDelaySeconds(failures),
    };
  });
  await saveHistoryState(warehouse, source, states, step.now);
  await saveCoverage(warehouse, step.coverage, step.targets, states, step.now);
  return {
    pages: step.pages,
    skipped: step.skipped,
    failed: step.failed.size,
    markets: step.targets.length - step.failed.size,
    points: step.sinks.reduce((total, sink) => total + sink.written, 0),
    more: step.limit > 0 && step.targets.length === step.limit,
  };
}
