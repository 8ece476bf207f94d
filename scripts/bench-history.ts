/**
 * History benchmark (issue 15): how fast the history worker fills the archive at the
 * venues' limits, how fast the gallery's history queries answer on a large price
 * history, and how many bytes a price point and a candle take.
 *
 *   npx tsx scripts/bench-history.ts [--history-seconds 120] [--history-catalog 2000]
 *                                    [--history-points 200000000] [--history-runs 5]
 *
 * Two parts, each in a child process of its own (chDB opens one data directory per
 * process, and `npm run bench` may already hold one):
 * - backfill (`bench/history-backfill.ts`): the worker against the replay server for
 *   `--history-seconds` per venue, projected to the whole archive
 *   (`bench/history-projection.ts`); bytes per candle from what it stored;
 * - queries (`bench/history-queries.ts`): `--history-points` synthetic price points
 *   (`bench/history-synthetic.ts`), bytes per point, and the two examples through
 *   `POST /api/query`, on the engine and in DuckDB.
 * Each child prints its progress on stderr and its result as one JSON line on stdout.
 */
import { spawn } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { type BackfillBenchResult, runBackfillBench } from "./bench/history-backfill";
import { projectVenue } from "./bench/history-projection";
import { type HistoryQueryResult, runHistoryQueries } from "./bench/history-queries";
import type { PathTiming } from "./bench/history-timing";

export interface HistoryBenchOptions {
  /** Markets per venue in the replay catalog. */
  catalogSize: number;
  /** Time the worker runs per venue, seconds. */
  secondsPerVenue: number;
  /** Synthetic price points for the query figures. */
  points: number;
  /** Timed runs per query (after one warm-up). */
  runs: number;
  /** Keep the synthetic history's data directory (its path is logged). */
  keep?: boolean;
}

export interface HistoryBenchResult {
  options: HistoryBenchOptions;
  backfill: BackfillBenchResult;
  queries: HistoryQueryResult;
  /** Wall time of each part, ms. */
  partMs: { backfill: number; queries: number };
}

/** Epoch ms every part's clock is fixed at, so runs are comparable. */
const NOW = Date.parse("2026-11-01T00:00:00Z");

async function runChild<T>(part: "backfill" | "queries", options: HistoryBenchOptions): Promise<T> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", fileURLToPath(import.meta.url), "--child", part, JSON.stringify(options)],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  if (code !== 0) throw new Error(`history ${part} child exited with ${code}`);
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as T;
}

export async function runHistoryBench(
  options: HistoryBenchOptions,
  log: (line: string) => void = console.log,
): Promise<HistoryBenchResult> {
  let started = performance.now();
  log(`history backfill: ${options.secondsPerVenue} s per venue, ${options.catalogSize} markets per venue`);
  const backfill = await runChild<BackfillBenchResult>("backfill", options);
  const backfillMs = performance.now() - started;
  started = performance.now();
  log(`history queries: ${options.points.toLocaleString("en-US")} synthetic price points, ${options.runs} runs`);
  const queries = await runChild<HistoryQueryResult>("queries", options);
  return { options, backfill, queries, partMs: { backfill: backfillMs, queries: performance.now() - started } };
}

/** The figures in a few lines, for the terminal. */
export function summarize(result: HistoryBenchResult): string[] {
  const lines: string[] = [];
  for (const venue of result.backfill.venues) {
    const p = projectVenue(venue);
    lines.push(
      `${venue.venue}: measured ${p.measuredPerMinute.open.toFixed(1)} open / ${p.measuredPerMinute.closed.toFixed(1)} closed markets per minute; at the limits ${p.openHours.toFixed(0)} h for 150k open + ${p.closedHours.toFixed(0)} h for 1M closed (${p.closedHoursWithRefresh === null ? "never, with the hourly refresh" : `${p.closedHoursWithRefresh.toFixed(0)} h with the hourly refresh`})`,
    );
  }
  const per = (bytes: number, rows: number) => (rows > 0 ? (bytes / rows).toFixed(2) : "–");
  const { prices } = result.queries;
  lines.push(
    `bytes per price point ${per(prices.compressedBytes, prices.rows)} (${prices.rows.toLocaleString("en-US")} rows); per candle ${per(result.backfill.candles.compressedBytes, result.backfill.candles.rows)} (${result.backfill.candles.rows.toLocaleString("en-US")} rows)`,
  );
  const cell = (path: PathTiming) =>
    path.spread.n === 0 && path.failures === 0
      ? "–"
      : `${path.spread.median.toFixed(0)} ms${path.failures > 0 ? ` (${path.failures} failed: ${path.error})` : ""}`;
  for (const t of result.queries.timings) {
    lines.push(
      `${t.query.id.padEnd(26)} product ${cell(t.product)}, engine ${cell(t.engine)}, DuckDB ${cell(t.duckdb)}, rows ${t.product.rows}/${t.engine.rows}/${t.duckdb.rows}`,
    );
  }
  return lines;
}

async function childMain(part: string, options: HistoryBenchOptions): Promise<void> {
  const log = (line: string) => console.error(line);
  const result =
    part === "backfill"
      ? await runBackfillBench(
          { catalogSize: options.catalogSize, secondsPerVenue: options.secondsPerVenue, now: NOW },
          log,
        )
      : await runHistoryQueries(
          { points: options.points, runs: options.runs, now: Math.floor(NOW / 1000), keep: options.keep ?? false },
          log,
        );
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  if (process.argv[2] === "--child") {
    await childMain(process.argv[3] ?? "", JSON.parse(process.argv[4] ?? "{}") as HistoryBenchOptions);
    // The server's sandbox workers and the engine's threads would keep the process alive.
    process.exit(0);
  } else {
    const { values } = parseArgs({
      options: {
        "history-seconds": { type: "string", default: "120" },
        "history-catalog": { type: "string", default: "2000" },
        "history-points": { type: "string", default: "200000000" },
        "history-runs": { type: "string", default: "5" },
        keep: { type: "boolean", default: false },
      },
    });
    const result = await runHistoryBench({
      catalogSize: Number(values["history-catalog"]),
      secondsPerVenue: Number(values["history-seconds"]),
      points: Number(values["history-points"]),
      runs: Number(values["history-runs"]),
      keep: values.keep,
    });
    console.log(JSON.stringify(result));
    for (const line of summarize(result)) console.log(line);
  }
}
