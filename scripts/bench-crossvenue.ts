/**
 * The cross-venue matcher at scale (issue 17): `npm run bench -- --only crossvenue
 * [--crossvenue-markets 150000] [--crossvenue-runs 3]`.
 *
 * In a child process of its own (chDB holds one data directory per process): a fresh
 * warehouse, one snapshot of each venue from the replay server grown to the given number
 * of markets per venue, then the matcher's full pass several times (the first writes every
 * pair, the later ones find the same and write nothing: the pass made at start and daily),
 * then the run after each snapshot, which pairs only the markets created in the last hour,
 * then one week of the pass over closed markets, as busy as Kalshi's busiest.
 *
 * The replay grows its catalog by cloning the recorded events, so the same question comes
 * back once per clone on each side. That is harsher than the venues (every clone of a World
 * Cup market meets every Kalshi clone of its team), so the candidate count here is an upper
 * bound on what real catalogs of the same size produce.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import {
  createRateLimiter,
  type MatcherOutcome,
  replayIngestConfig,
  runMatcher,
  runSync,
  SOURCES,
  silentLogger,
  startReplayServer,
} from "@epicenter/ingest";
import { migrateWarehouse, openWarehouse, type Warehouse } from "@epicenter/warehouse";

export interface CrossVenueBenchOptions {
  catalogSize: number;
  runs: number;
}

export interface CrossVenueBenchResult {
  options: CrossVenueBenchOptions;
  markets: { polymarket: number; kalshi: number };
  syncMs: { polymarket: number; kalshi: number };
  /** Full passes: every market against every market. */
  runs: MatcherOutcome[];
  /** Runs as after a snapshot: the markets created in the last hour (none here) against all. */
  incremental: MatcherOutcome[];
  /** One window of the pass over closed markets: a busy week's settlements. */
  closedWindow: { polymarket: number; kalshi: number; outcome: MatcherOutcome };
  rssMiB: number;
}

/** Runs the measurement in a child process and answers its figures. */
export async function runCrossVenueBench(
  options: CrossVenueBenchOptions,
  log: (line: string) => void = console.log,
): Promise<CrossVenueBenchResult> {
  log(`cross-venue matcher: ${options.catalogSize} markets per venue, ${options.runs} runs`);
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", fileURLToPath(import.meta.url), "--child", JSON.stringify(options)],
    { maxBuffer: 16 * 1024 * 1024, env: { ...process.env, UV_THREADPOOL_SIZE: "16" } },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as CrossVenueBenchResult;
}

/** The figures in a few lines, for the terminal and the notes. */
export function summarize(result: CrossVenueBenchResult): string[] {
  const [first, ...rest] = result.runs;
  const took = (runs: MatcherOutcome[]) =>
    runs
      .map((run) => `${(run.durationMs / 1000).toFixed(1)} s (engine ${(run.candidatesMs / 1000).toFixed(1)} s)`)
      .join(", ");
  return [
    `${result.markets.polymarket.toLocaleString("en-US")} Polymarket and ${result.markets.kalshi.toLocaleString("en-US")} Kalshi markets (snapshots in ${(result.syncMs.polymarket / 1000).toFixed(0)} s and ${(result.syncMs.kalshi / 1000).toFixed(0)} s)`,
    first
      ? `first full pass: ${first.candidates.toLocaleString("en-US")} candidates scored, ${first.sameContract} same-contract and ${first.related} related pairs written in ${took([first])}`
      : "no run",
    rest.length > 0 ? `later full passes (nothing new to write): ${took(rest)}` : "",
    `runs after a snapshot (markets of the last hour): ${took(result.incremental)}`,
    `a week of the pass over closed markets (${result.closedWindow.polymarket.toLocaleString("en-US")} Polymarket, ${result.closedWindow.kalshi.toLocaleString("en-US")} Kalshi markets closing in it): ${result.closedWindow.outcome.candidates.toLocaleString("en-US")} candidates in ${took([result.closedWindow.outcome])}; peak RSS ${result.rssMiB} MiB`,
  ].filter(Boolean);
}

async function child(options: CrossVenueBenchOptions): Promise<CrossVenueBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), "epicenter-bench-crossvenue-"));
  const warehouse = openWarehouse({ path: join(dir, "warehouse"), poolSize: 4 });
  const replay = await startReplayServer({ catalogSize: options.catalogSize });
  try {
    await migrateWarehouse(warehouse);
    const deps = {
      warehouse,
      config: replayIngestConfig(replay),
      logger: silentLogger,
      // The snapshots only fill the warehouse here: the venues' rate is not what is measured.
      rateLimiters: new Map(
        ["polymarket", "polymarket-clob", "polymarket-data", "kalshi"].map((name) => [
          name,
          createRateLimiter({ requests: 1_000_000, perMs: 1_000 }),
        ]),
      ),
    };
    const syncMs = { polymarket: 0, kalshi: 0 };
    const markets = { polymarket: 0, kalshi: 0 };
    for (const source of SOURCES) {
      const started = performance.now();
      const run = await runSync(deps, { source });
      if (!run.success) throw new Error(`${source} snapshot failed: ${run.error}`);
      syncMs[source] = Math.round(performance.now() - started);
      markets[source] = run.markets_written;
    }
    const runs: MatcherOutcome[] = [];
    for (let i = 0; i < options.runs; i += 1) runs.push(await runMatcher({ warehouse }));
    const incremental: MatcherOutcome[] = [];
    for (let i = 0; i < options.runs; i += 1) {
      incremental.push(await runMatcher({ warehouse }, { since: new Date(Date.now() - 3_600_000) }));
    }
    const closedWindow = await closedWeek(warehouse);
    return {
      options,
      markets,
      syncMs,
      runs,
      incremental,
      closedWindow,
      rssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    };
  } finally {
    await replay.close();
    await warehouse.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A week as busy as Kalshi's busiest: every Kalshi market copied twice as settled within
 * one week of 2025 (over 40,000 a day at 118,000 markets), and one Polymarket market in
 * twenty as closed in it; then the step of the closed pass that reads that week.
 */
async function closedWeek(warehouse: Warehouse): Promise<CrossVenueBenchResult["closedWindow"]> {
  const from = new Date("2025-01-01T00:00:00Z");
  const to = new Date("2025-01-08T00:00:00Z");
  // A time in the week, spread by the hash of `key`.
  const inWeek = (key: string) =>
    `toDateTime64('2025-01-01 00:00:00', 3, 'UTC') + toIntervalSecond(cityHash64(${key}) % 604800)`;
  // (The copies' filters sit in a subquery: in ClickHouse the REPLACE list's names would shadow the columns in WHERE.)
  for (const copy of ["C1", "C2"]) {
    await warehouse.command(
      `INSERT INTO kalshi.markets_latest SELECT * REPLACE (concat(ticker, '-${copy}') AS ticker, 'finalized' AS status,
         ${inWeek(`ticker, '${copy}'`)} AS close_time, NULL AS expected_expiration_time)
       FROM (SELECT * FROM kalshi.markets_latest FINAL WHERE status = 'active')`,
    );
  }
  await warehouse.command(
    `INSERT INTO polymarket.markets_latest SELECT * REPLACE (concat(id, '-closed') AS id, true AS closed,
       ${inWeek("id")} AS endDate)
     FROM (SELECT * FROM polymarket.markets_latest FINAL WHERE cityHash64(id) % 20 = 0 AND NOT ifNull(closed, false))`,
  );
  const [counts] = await warehouse.query<{ polymarket: string; kalshi: string }>(
    `SELECT (SELECT count() FROM polymarket.markets_latest FINAL WHERE closed AND endDate >= '2025-01-01' AND endDate < '2025-01-08') AS polymarket,
       (SELECT count() FROM kalshi.markets_latest FINAL WHERE status = 'finalized' AND close_time >= '2025-01-01' AND close_time < '2025-01-08') AS kalshi`,
  );
  const outcome = await runMatcher({ warehouse }, { includeClosed: true, closes: { from, to } });
  return { polymarket: Number(counts?.polymarket), kalshi: Number(counts?.kalshi), outcome };
}

if (process.argv[2] === "--child") {
  const result = await child(JSON.parse(process.argv[3] ?? "{}") as CrossVenueBenchOptions);
  console.log(JSON.stringify(result));
}
