/**
 * The archive at the venues' scale (issue 27, "a scale run you can repeat"):
 * `npm run bench -- --only scale [--scale-markets 150000] [--scale-closed 1000000]
 * [--scale-closing-per-day 20000] [--scale-minutes 60] [--scale-kalshi-tokens 200]
 * [--scale-interval 600]`.
 *
 * The real scheduler (snapshots, closed backfill, price and trade history, the trade
 * tapes, the matcher) runs on the real clock against the replay server grown to the given
 * number of open markets per venue and the closed catalog beside them (closed over the last
 * three months), with the venues' limits enforced as they count them (Kalshi's
 * token bucket at the given tier, Polymarket's per-endpoint windows): a client that
 * overspends is refused as upstream would refuse it. The replay runs in a process of its
 * own, so rendering pages does not take the scheduler's thread (it shares the cores), and
 * moves its prices on every snapshot interval. Every 10th live clone closes during the run
 * (`--scale-closing-per-day`, one after another from 20 minutes in), after a life of 15
 * minutes to a week. The archive starts empty, so the first part of a run is the first
 * backfill; the figures are given for the whole run and for its second half.
 *
 * Figures, per venue:
 * - snapshot lag: from a snapshot's due time until it is written (and the matcher has run
 *   after it), per snapshot; and each run's duration;
 * - trade-tape lag: now − the time up to which the tape has every trade, sampled;
 * - history by tier of the schedule (`openCoverageByTier`): open markets, the share current
 *   by their tier, and the lag of their newest fetched point (p50, p99, max), sampled;
 * - each limit's use: the client's own measure (the scheduler's, the last minute's share of
 *   the venue's limit, its highest sample) and the replay's (units admitted over the run and,
 *   for Polymarket's windows, in the busiest one, against the limit; and refusals);
 * - markets captured before they closed: of those that closed during the run, how many had
 *   their history fetched while open, in their last hour (the schedule's promise), and how
 *   long before the close the last such fetch reached, sampled every minute;
 * - CPU (cores used, of this process with the engine in it, and of the replay), peak RSS,
 *   and how long each process's event loop was held up.
 *
 * The closed catalog's trades are served per market, not on the exchange-wide tapes.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import {
  createScheduler,
  DEFAULT_HISTORY_REFRESH_MS,
  getSyncStatus,
  type LimitUse,
  type Logger,
  openCoverageByTier,
  replayIngestConfig,
  SCHEDULE,
  SOURCES,
  type SourceName,
  type SyncRunSummary,
  sourceNamed,
  type TierCoverage,
} from "@epicenter/ingest";
import { migrateWarehouse, openWarehouse, type Warehouse } from "@epicenter/warehouse";
import { loopDelay, startReplayChild } from "./bench/replay-child";

export interface ScaleBenchOptions {
  /** Open markets per venue in the replay's catalog. */
  markets: number;
  /** Closed markets per venue beside them. */
  closedMarkets: number;
  /** About how many of the open markets close a day, per venue, from 20 minutes into the run. */
  closingPerDay: number;
  minutes: number;
  kalshiTokensPerSecond: number;
  intervalSeconds: number;
}

export interface Spread {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

interface TierSample extends TierCoverage {
  /** Seconds into the run. */
  at: number;
}

export interface VenueScale {
  snapshots: {
    completed: number;
    failed: number;
    markets: number;
    durationS: Spread;
    lagS: Spread;
    lagSecondHalfS: Spread;
  };
  tapeLagS: { all: Spread; secondHalf: Spread } | null;
  /** Each tier at the end of the run. */
  tiers: TierCoverage[];
  /** The worst p99 lag of each tier over the samples of the run's second half. */
  tierLagP99SecondHalf: Record<string, number>;
  history: { marketsDone: number; marketsKnown: number; failing: number; perMinute: number };
  /**
   * Markets that closed during the run: how many had their history fetched while open in
   * their last hour (`captured`), and how long before the close the last fetch while open
   * reached (`gapS`; a market never fetched open counts its whole life).
   */
  beforeClose: { closed: number; captured: number; neverFetchedOpen: number; gapS: Spread; missed: string[] };
  /** The client's measure of each limit: the highest last-minute share of the venue's limit. */
  limitsUsedMax: Record<string, number>;
  /** The order-book captures of the run (`<venue>.book_coverage`), summed. */
  books: {
    captures: number;
    openMax: number;
    captured: number;
    leftOut: number;
    failed: number;
    durationP50S: number;
    durationMaxS: number;
    requests: number;
  };
}

export interface ScaleBenchResult {
  options: ScaleBenchOptions;
  startedAt: string;
  wallS: number;
  venues: Record<SourceName, VenueScale>;
  /**
   * The replay's measure of each limit: units admitted over what it allows in the run
   * (`averageShare`), in its busiest 10-second window where it counts by window
   * (`busiestShare`, Polymarket), and refusals.
   */
  replayLimits: Record<string, LimitUse & { averageShare: number; busiestShare: number | null }>;
  cpuCores: { bench: number; replay: number };
  /**
   * Each process's event loop held up (ms, p99 and max): a replay held up past a second
   * takes the requests that queued meanwhile at once, more than a second's bucket.
   */
  loopDelayMs: { bench: { p99: number; max: number }; replay: { p99: number; max: number } };
  rssMiB: { bench: number; replay: number };
  errors: { count: number; first: string[] };
  loadAverage: { start: number; end: number };
}

const SAMPLE_MS = 15_000;
const TIER_SAMPLE_MS = 5 * 60_000;
const CLOSING_SAMPLE_MS = 60_000;

/** Runs the measurement in a child process (chDB holds one data directory per process) and answers its figures. */
export async function runScaleBench(
  options: ScaleBenchOptions,
  log: (line: string) => void = console.log,
): Promise<ScaleBenchResult> {
  log(
    `scale: ${options.markets.toLocaleString("en-US")} open + ${options.closedMarkets.toLocaleString("en-US")} closed markets per venue (${options.closingPerDay.toLocaleString("en-US")} closing a day) for ${options.minutes} min, Kalshi at ${options.kalshiTokensPerSecond} tokens/s, snapshots every ${options.intervalSeconds} s`,
  );
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", fileURLToPath(import.meta.url), "--child", JSON.stringify(options)],
    { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, UV_THREADPOOL_SIZE: "16" } },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as ScaleBenchResult;
}

const s = (seconds: number) =>
  seconds >= 3600
    ? `${(seconds / 3600).toFixed(1)} h`
    : seconds >= 60
      ? `${(seconds / 60).toFixed(1)} min`
      : `${Math.round(seconds)} s`;
const spread = (x: Spread) => (x.n === 0 ? "none" : `p50 ${s(x.p50)}, p99 ${s(x.p99)}, max ${s(x.max)} (n ${x.n})`);
const pct = (share: number) => `${Math.round(share * 100)} %`;
/** Each tier of the schedule by its refresh interval (seconds), as `openCoverageByTier` answers it. */
const TIER_NAMES: Record<number, string> = {
  [SCHEDULE.activeMs / 1000]: "traded in the last hour",
  [DEFAULT_HISTORY_REFRESH_MS / 1000]: "traded in the last day",
  [SCHEDULE.quietMs / 1000]: "quiet",
};

/** The figures in a few lines, for the terminal and the notes. */
export function summarize(result: ScaleBenchResult): string[] {
  const lines = [
    `${result.options.markets.toLocaleString("en-US")} open + ${result.options.closedMarkets.toLocaleString("en-US")} closed markets per venue, ${result.options.closingPerDay.toLocaleString("en-US")} closing a day, ${s(result.wallS)} of wall time from an empty archive; load average ${result.loadAverage.start} → ${result.loadAverage.end}`,
  ];
  for (const source of SOURCES) {
    const venue = result.venues[source];
    lines.push(
      `${source}: ${venue.snapshots.completed} snapshots of ${venue.snapshots.markets.toLocaleString("en-US")} markets (${venue.snapshots.failed} failed), each ${spread(venue.snapshots.durationS)}`,
      `${source}: snapshot lag ${spread(venue.snapshots.lagS)}; second half ${spread(venue.snapshots.lagSecondHalfS)} (goal p99 ≤ 10 min)`,
      `${source}: trade-tape lag ${venue.tapeLagS ? `${spread(venue.tapeLagS.all)}; second half ${spread(venue.tapeLagS.secondHalf)} (goal p99 ≤ 5 min)` : "no tape"}`,
      ...venue.tiers.map(
        (tier) =>
          `${source}: ${TIER_NAMES[tier.everySeconds] ?? `every ${tier.everySeconds} s`}: ${tier.current.toLocaleString("en-US")} of ${tier.open.toLocaleString("en-US")} open markets current (${pct(tier.open ? tier.current / tier.open : 1)}), ${tier.unfetched.toLocaleString("en-US")} never fetched, history lag p50 ${s(tier.lagP50)}, p99 ${s(tier.lagP99)}; worst p99 in the second half ${s(venue.tierLagP99SecondHalf[String(tier.everySeconds)] ?? Number.NaN)}`,
      ),
      `${source}: closed during the run ${venue.beforeClose.closed}, captured in their last hour ${venue.beforeClose.captured} (goal all), never fetched while open ${venue.beforeClose.neverFetchedOpen}; last fetch before the close ${spread(venue.beforeClose.gapS)}`,
      `${source}: history ${venue.history.marketsDone.toLocaleString("en-US")} of ${venue.history.marketsKnown.toLocaleString("en-US")} markets done, ${venue.history.failing} failing, ${venue.history.perMinute} markets/min`,
      `${source}: books: ${venue.books.captures} captures, ${venue.books.captured.toLocaleString("en-US")} books (at most ${venue.books.openMax.toLocaleString("en-US")} open markets), ${venue.books.leftOut.toLocaleString("en-US")} left out for the budget, ${venue.books.failed} failed, ${venue.books.requests.toLocaleString("en-US")} requests; a capture took ${venue.books.durationP50S.toFixed(1)} s (p50), ${venue.books.durationMaxS.toFixed(1)} s at most`,
      `${source}: limits used (client, busiest minute): ${Object.entries(venue.limitsUsedMax)
        .map(([host, share]) => `${host} ${pct(share)}`)
        .join(", ")}`,
    );
  }
  lines.push(
    `replay, each limit over the run${Object.values(result.replayLimits).some((use) => use.busiestShare !== null) ? " (and its busiest window)" : ""}: ${Object.entries(
      result.replayLimits,
    )
      .map(
        ([name, use]) =>
          `${name} ${pct(use.averageShare)}${use.busiestShare === null ? "" : ` (${pct(use.busiestShare)})`}, ${use.refused} refused`,
      )
      .join("; ")} (goal < 90 %, none refused)`,
    `CPU ${result.cpuCores.bench.toFixed(2)} cores (scheduler and engine) + ${result.cpuCores.replay.toFixed(2)} (replay); peak RSS ${result.rssMiB.bench} + ${result.rssMiB.replay} MiB`,
    `event loop held up: p99 ${result.loopDelayMs.bench.p99} ms, max ${result.loopDelayMs.bench.max} ms (scheduler and engine); p99 ${result.loopDelayMs.replay.p99} ms, max ${result.loopDelayMs.replay.max} ms (replay)`,
    `errors logged: ${result.errors.count}${result.errors.first.length ? ` (first: ${result.errors.first.join(" | ")})` : ""}`,
  );
  return lines;
}

export function spreadOf(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * (sorted.length - 1)))] ?? 0;
  return { n: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0 };
}

/** Counts what the scheduler logs as warnings and errors, and keeps the first few. */
function countingLogger(errors: ScaleBenchResult["errors"], isStopping: () => boolean): Logger {
  const keep = (fields: Record<string, unknown>, message: string) => {
    // The run's end aborts the steps in flight, on purpose.
    if (isStopping()) return;
    errors.count += 1;
    if (errors.first.length < 5) errors.first.push(`${message} ${JSON.stringify(fields).slice(0, 200)}`);
  };
  return { info: () => undefined, warn: keep, error: keep };
}

/** How far back from its close a market's last fetch while open may reach and still count as captured: the schedule's last hour. */
const CAPTURE_WINDOW_S = 3_600;

/**
 * Each market the archive knows to close in [from, to] (Unix seconds), and up to when its
 * history was fetched before the close (0 when never). Reads
 * every state row, not the newest: the fetch after the close is a newer row.
 */
async function closingStates(warehouse: Warehouse, source: SourceName, from: number, to: number) {
  const rows = await warehouse.query<{ market: string; closes_at: number; fetched: number }>(
    `SELECT m.market AS market, any(m.closes_at) AS closes_at,
            maxIf(toUnixTimestamp(s.covered_until), toUnixTimestamp(s.covered_until) < m.closes_at) AS fetched
     FROM (${sourceNamed(source).history.marketsSql}) AS m
     LEFT JOIN (SELECT market, covered_until FROM internal.history_state WHERE source = {source:String}) AS s
       ON s.market = m.market
     WHERE m.closes_at BETWEEN {from:UInt32} AND {to:UInt32}
     GROUP BY m.market
     SETTINGS join_use_nulls = 0`,
    { params: { source, from, to } },
  );
  return rows.map((row) => ({
    market: row.market,
    closesAt: Number(row.closes_at),
    fetched: Number(row.fetched),
  }));
}

async function child(options: ScaleBenchOptions): Promise<ScaleBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), "epicenter-bench-scale-"));
  const warehouse = openWarehouse({ path: join(dir, "warehouse"), poolSize: 4 });
  const turnoverFrom = Date.now();
  const replay = await startReplayChild({
    catalogSize: options.markets,
    closedMarkets: options.closedMarkets,
    turnover: { from: turnoverFrom, marketsPerDay: options.closingPerDay },
    limits: { kalshiTokensPerSecond: options.kalshiTokensPerSecond, polymarket: true },
  });
  const load = { start: loadavg()[0] ?? 0, end: 0 };
  const errors: ScaleBenchResult["errors"] = { count: 0, first: [] };
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const wallMs = options.minutes * 60_000;
  const half = started + wallMs / 2;
  const snapshotLags = new Map<SourceName, Array<{ at: number; lag: number }>>();
  const durations = new Map<SourceName, number[]>();
  const failed = new Map<SourceName, Set<string>>();
  const markets = new Map<SourceName, number>();
  const tapeLags = new Map<SourceName, Array<{ at: number; lag: number }>>();
  const limitsUsed = new Map<SourceName, Record<string, number>>();
  const tierSamples = new Map<SourceName, TierSample[]>();
  /** Per venue, each market due to close during the run: its close and its newest fetch before it. */
  const closing = new Map<SourceName, Map<string, { closesAt: number; fetched: number }>>();
  for (const source of SOURCES) {
    closing.set(source, new Map());
    snapshotLags.set(source, []);
    durations.set(source, []);
    failed.set(source, new Set());
    tapeLags.set(source, []);
    limitsUsed.set(source, {});
    tierSamples.set(source, []);
  }
  const cpuAtStart = process.cpuUsage();
  const delays = loopDelay();
  let stopping = false;
  try {
    await migrateWarehouse(warehouse);
    const config = replayIngestConfig(replay);
    const scheduler = createScheduler(
      {
        warehouse,
        config: { ...config, kalshi: { ...config.kalshi, rateTokensPerSecond: options.kalshiTokensPerSecond } },
        logger: countingLogger(errors, () => stopping),
      },
      {
        intervalSeconds: options.intervalSeconds,
        sources: SOURCES,
        onSnapshot: (run: SyncRunSummary) => {
          // Called before the scheduler moves the due time on: it is still this run's.
          const due = scheduler.state()[run.source]?.nextSnapshotAt ?? Date.now();
          snapshotLags.get(run.source)?.push({ at: Date.now(), lag: (Date.now() - due) / 1000 });
          durations.get(run.source)?.push(run.duration_ms / 1000);
          markets.set(run.source, run.markets_written);
        },
      },
    );
    const advancing = setInterval(() => void replay.advance(), options.intervalSeconds * 1000);
    scheduler.start();
    let nextTiers = started + TIER_SAMPLE_MS;
    let nextClosing = started;
    while (Date.now() < started + wallMs) {
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
      const now = Date.now();
      const state = scheduler.state();
      const status = await getSyncStatus(warehouse, state);
      for (const source of SOURCES) {
        const run = state[source]?.lastRun;
        if (run && !run.success) failed.get(source)?.add(run.run_id);
        const complete = status.sources[source].history.trades_complete_until;
        if (complete) tapeLags.get(source)?.push({ at: now, lag: (now - Date.parse(complete)) / 1000 });
        const used = limitsUsed.get(source) as Record<string, number>;
        for (const [host, share] of Object.entries(state[source]?.limitsUsed ?? {})) {
          used[host] = Math.max(used[host] ?? 0, share);
        }
      }
      if (now >= nextClosing || now + SAMPLE_MS >= started + wallMs) {
        nextClosing = now + CLOSING_SAMPLE_MS;
        const window = [Math.floor(turnoverFrom / 1000), Math.floor((started + wallMs) / 1000)] as const;
        for (const source of SOURCES) {
          const known = closing.get(source) as Map<string, { closesAt: number; fetched: number }>;
          for (const state of await closingStates(warehouse, source, ...window)) {
            const before = known.get(state.market);
            known.set(state.market, { ...state, fetched: Math.max(state.fetched, before?.fetched ?? 0) });
          }
        }
      }
      if (now >= nextTiers || now + SAMPLE_MS >= started + wallMs) {
        nextTiers = now + TIER_SAMPLE_MS;
        for (const source of SOURCES) {
          const tiers = await openCoverageByTier(warehouse, source, sourceNamed(source).history.marketsSql, {
            now,
            refreshMs: DEFAULT_HISTORY_REFRESH_MS,
          });
          tierSamples.get(source)?.push(...tiers.map((tier) => ({ ...tier, at: (now - started) / 1000 })));
        }
        process.stderr.write(
          `scale: ${Math.round((now - started) / 60_000)} min: ${SOURCES.map((source) => {
            const last = (tierSamples.get(source) ?? []).slice(-3);
            const closed = [...(closing.get(source)?.values() ?? [])].filter((state) => state.closesAt * 1000 <= now);
            const captured = closed.filter((state) => state.closesAt - state.fetched <= CAPTURE_WINDOW_S).length;
            return `${source} ${last.map((tier) => `${tier.current}/${tier.open}`).join(" ")}, closed ${closed.length} captured ${captured}`;
          }).join("; ")}\n`,
        );
      }
    }
    clearInterval(advancing);
    const ended = Date.now();
    stopping = true;
    const status = await getSyncStatus(warehouse, scheduler.state());
    await scheduler.stop({ abort: true });
    const cpu = process.cpuUsage(cpuAtStart);
    const replayReport = await replay.report();
    load.end = loadavg()[0] ?? 0;
    const wallS = (ended - started) / 1000;
    const books = new Map<SourceName, VenueScale["books"]>();
    for (const source of SOURCES) {
      const [row] = await warehouse.query<Record<string, string | number>>(
        `SELECT count() AS captures, max(markets_open) AS open_max, sum(captured) AS captured, sum(left_out) AS left_out,
                sum(failed) AS failed, quantileExact(0.5)(duration_ms) AS p50, max(duration_ms) AS max, sum(requests) AS requests
         FROM ${source}.book_coverage`,
      );
      books.set(source, {
        captures: Number(row?.captures ?? 0),
        openMax: Number(row?.open_max ?? 0),
        captured: Number(row?.captured ?? 0),
        leftOut: Number(row?.left_out ?? 0),
        failed: Number(row?.failed ?? 0),
        durationP50S: Number(row?.p50 ?? 0) / 1000,
        durationMaxS: Number(row?.max ?? 0) / 1000,
        requests: Number(row?.requests ?? 0),
      });
    }
    const venues = Object.fromEntries(
      SOURCES.map((source) => {
        const lags = snapshotLags.get(source) ?? [];
        const tapes = tapeLags.get(source) ?? [];
        const samples = tierSamples.get(source) ?? [];
        const lastAt = samples.at(-1)?.at;
        const secondHalf: Record<string, number> = {};
        for (const sample of samples) {
          if (sample.at * 1000 + started < half) continue;
          const key = String(sample.everySeconds);
          secondHalf[key] = Math.max(secondHalf[key] ?? 0, sample.lagP99);
        }
        const history = status.sources[source].history;
        // Closed at the venue during the run, whether or not a snapshot has seen it closed yet.
        const closed = [...(closing.get(source)?.entries() ?? [])].filter(
          ([, state]) => state.closesAt * 1000 <= ended,
        );
        const gap = ([, state]: (typeof closed)[number]) => state.closesAt - state.fetched;
        const venue: VenueScale = {
          snapshots: {
            completed: lags.length,
            failed: failed.get(source)?.size ?? 0,
            markets: markets.get(source) ?? 0,
            durationS: spreadOf(durations.get(source) ?? []),
            lagS: spreadOf(lags.map((x) => x.lag)),
            lagSecondHalfS: spreadOf(lags.filter((x) => x.at >= half).map((x) => x.lag)),
          },
          tapeLagS:
            tapes.length > 0
              ? {
                  all: spreadOf(tapes.map((x) => x.lag)),
                  secondHalf: spreadOf(tapes.filter((x) => x.at >= half).map((x) => x.lag)),
                }
              : null,
          tiers: samples.filter((sample) => sample.at === lastAt).map(({ at: _at, ...tier }) => tier),
          tierLagP99SecondHalf: secondHalf,
          history: {
            marketsDone: history.markets_done,
            marketsKnown: history.markets_known,
            failing: history.markets_failing,
            perMinute: history.markets_per_minute,
          },
          limitsUsedMax: limitsUsed.get(source) ?? {},
          books: books.get(source) as VenueScale["books"],
          beforeClose: {
            closed: closed.length,
            captured: closed.filter((entry) => gap(entry) <= CAPTURE_WINDOW_S).length,
            neverFetchedOpen: closed.filter(([, state]) => state.fetched === 0).length,
            // A market never fetched while open has all its life missing: counted from the run's start.
            gapS: spreadOf(closed.map((entry) => Math.min(gap(entry), entry[1].closesAt - turnoverFrom / 1000))),
            missed: closed
              .filter((entry) => gap(entry) > CAPTURE_WINDOW_S)
              .slice(0, 5)
              .map(([market, state]) => `${market} closed ${new Date(state.closesAt * 1000).toISOString()}`),
          },
        };
        return [source, venue];
      }),
    ) as Record<SourceName, VenueScale>;
    const replayLimits = Object.fromEntries(
      Object.entries(replayReport.use).map(([name, use]) => [
        name,
        {
          ...use,
          averageShare: use.admitted / (use.perSecond * wallS),
          // A bucket's busiest second may hold its full bucket and a second's refill: not a share.
          busiestShare: use.windowMs > 1_000 ? use.busiestWindow / (use.perSecond * (use.windowMs / 1000)) : null,
        },
      ]),
    );
    return {
      options,
      startedAt,
      wallS,
      venues,
      replayLimits,
      cpuCores: { bench: (cpu.user + cpu.system) / 1e6 / wallS, replay: replayReport.cpuS / wallS },
      rssMiB: { bench: Math.round(process.resourceUsage().maxRSS / 1024), replay: replayReport.rssMiB },
      loopDelayMs: { bench: delays(), replay: replayReport.loopDelayMs },
      errors,
      loadAverage: { start: Math.round(load.start * 100) / 100, end: Math.round(load.end * 100) / 100 },
    };
  } finally {
    replay.close();
    await warehouse.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === "--child") {
  const result = await child(JSON.parse(process.argv[3] ?? "{}") as ScaleBenchOptions);
  console.log(JSON.stringify(result));
  process.exit(0);
}
