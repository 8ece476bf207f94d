/**
 * `npm run bench`: the figures of issue 8, printed and written to `docs/BENCHMARKS.md`.
 *
 *   npm run bench -- [--rows 20000000] [--days 7] [--runs 7]
 *                    [--only dataset,queries,ingest,load,hostile,web]
 *                    [--data-dir DIR] [--keep] [--duration 60] [--connections 50]
 *                    [--overload-connections 300] [--overload-duration 20]
 *                    [--ingest-markets 150000] [--ingest-runs 6] [--ingest-day-runs 144]
 *                    [--loads 7] [--skip-build]
 *                    [--history-seconds 120] [--history-catalog 2000]
 *                    [--history-points 200000000] [--history-runs 5]
 *                    [--crossvenue-markets 150000] [--crossvenue-runs 3]
 *                    [--scale-markets 150000] [--scale-closed 1000000]
 *                    [--scale-closing-per-day 20000] [--scale-minutes 60]
 *                    [--scale-kalshi-tokens 200] [--scale-interval 600]
 *                    [--books-markets 150000] [--books-capture-markets 20000]
 *                    [--resolutions-markets 150000] [--resolutions-captures 72] [--resolutions-settling 300]
 *                    [--resolutions-pending 20000]
 *                    [--fuzz-cases 2000] [--fuzz-seeds 20]
 *
 * Phases, in order, each timed: the dataset (generated inside the engine in a temp
 * DATA_DIR, or reused with `--data-dir` when it already holds one), the query benchmark
 * (product over HTTP on an in-process `startServer`, the engine directly, DuckDB over a
 * Parquet export), ingest and freshness (`runIngestBench()` in a child process), the load
 * test against the server in a child process, and web performance (build output and
 * first load of `/queries` in chromium). chDB holds one data directory per process, so
 * anything that needs a different one (ingest) or its own event loop (the loaded server)
 * runs in a child.
 *
 * `history` (issue 15: the history worker's backfill rate at the venues' limits, the
 * history queries on 200 M price points, bytes per point and per candle;
 * `scripts/bench-history.ts`, in children of its own) runs only when asked for with
 * `--only`: it takes about 12 minutes on a quiet 2-core machine (most of it the 200 M-point
 * history and the calibration query), which would add half again to the default run.
 *
 * `crossvenue` (issue 17: the matcher after a snapshot of 150,000 markets per venue;
 * `scripts/bench-crossvenue.ts`, in a child) also runs only when asked for. It prints its
 * figures; they are quoted in the notes section by hand.
 *
 * `matcher-labels` (issue 25: the matcher's precision and recall on the labelled pairs,
 * development and frozen test parts, by the rules alone and with the adjudicator where
 * SEISMO_BASE_URL and SEISMO_MODEL name a model; `scripts/bench-matcher-labels.ts`) runs
 * only when asked for, and prints its figures.
 *
 * `resolutions` (issue 29: feeding the resolutions ledger at the venues' scale, the
 * backfill and a run's share; `scripts/bench-resolutions.ts`, in a child) runs only when
 * asked for, and prints its figures.
 *
 * `books` (issue 28: bytes per market-snapshot of depth, a capture's time beside its
 * snapshot, and the as-of views beside DuckDB; `scripts/bench-books.ts`, in a child) runs
 * only when asked for, and prints its figures.
 *
 * `fuzz` (issue 44: the sandbox's readers against the engine's on `--fuzz-seeds` seeds of
 * `--fuzz-cases` generated statements; `scripts/bench-fuzz.ts`) runs only when asked for,
 * and prints how many statements each property saw and every mismatch.
 *
 * `linear` (issue 45: the readers of untrusted text — the statement rewrite, query advice,
 * the editor's table finder, the AST dump and engine message readers — on 8× their hostile
 * input; `scripts/bench/linear.ts`) runs only when asked for, and prints each ratio.
 *
 * `scale` (issue 27: the real scheduler against the replay grown to the venues' scale with
 * their limits enforced, on the real clock for `--scale-minutes`; `scripts/bench-scale.ts`,
 * in children) runs only when asked for, and prints its figures.
 */

import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs, promisify } from "node:util";
import { openWarehouse } from "@epicenter/warehouse";
import { parseConfig } from "../apps/server/src/config";
import { startServer } from "../apps/server/src/main";
import { benchParams, type ContentionTiming, runExamplesUnderContention } from "./bench/contention";
import { type DatasetProfile, generateDataset, profile } from "./bench/dataset";
import { exportParquet, openDuckDb, type ParquetExport } from "./bench/duckdb";
import { historySection, withHistorySection } from "./bench/history-section";
import { type HostileResult, runHostileBench } from "./bench/hostile";
import { LINEAR_RATIO_BOUND, runLinearBench } from "./bench/linear";
import { type LoadResult, runLoad } from "./bench/load";
import { describeMachine, loadAverage } from "./bench/machine";
import { benchQueries } from "./bench/queries";
import { type QueryTiming, runQueryBench } from "./bench/query-bench";
import { type Phase, writeReport } from "./bench/report";
import {
  datasetSection,
  headerSection,
  hostileSection,
  ingestSection,
  loadSection,
  queriesSection,
  webSection,
} from "./bench/sections";
import { createApiKey, freePort, serverEnv, startChildServer } from "./bench/server-child";
import { type BundleSize, buildAndMeasure, type FirstLoad, measureFirstLoad } from "./bench/web";
import { runBooksBench, summarize as summarizeBooks } from "./bench-books";
import { runCrossVenueBench, summarize as summarizeCrossVenue } from "./bench-crossvenue";
import { runFuzzBench, summarize as summarizeFuzz } from "./bench-fuzz";
import { type HistoryBenchResult, runHistoryBench, summarize as summarizeHistory } from "./bench-history";
import type { IngestBenchResult } from "./bench-ingest";
import { runMatcherLabelsBench } from "./bench-matcher-labels";
import { runResolutionsBench, summarize as summarizeResolutions } from "./bench-resolutions";
import { runScaleBench, summarize as summarizeScale } from "./bench-scale";

const DEFAULT_PHASES = ["dataset", "queries", "ingest", "load", "hostile", "web"] as const;
const ALL_PHASES = [
  ...DEFAULT_PHASES,
  "history",
  "crossvenue",
  "matcher-labels",
  "scale",
  "books",
  "resolutions",
  "fuzz",
  "linear",
] as const;
const BENCH_EMAIL = "bench@epicenter.test";
/** Another user, who keeps the machine busy while the gallery runs (`bench/contention.ts`). */
const HOG_EMAIL = "busy@epicenter.test";

const { values } = parseArgs({
  options: {
    rows: { type: "string", default: "20000000" },
    days: { type: "string", default: "7" },
    runs: { type: "string", default: "7" },
    only: { type: "string", default: DEFAULT_PHASES.join(",") },
    "data-dir": { type: "string" },
    keep: { type: "boolean", default: false },
    duration: { type: "string", default: "60" },
    connections: { type: "string", default: "50" },
    "overload-connections": { type: "string", default: "300" },
    "overload-duration": { type: "string", default: "20" },
    "ingest-markets": { type: "string", default: "150000" },
    "ingest-runs": { type: "string", default: "6" },
    "ingest-day-runs": { type: "string", default: "144" },
    loads: { type: "string", default: "7" },
    "skip-build": { type: "boolean", default: false },
    "history-seconds": { type: "string", default: "120" },
    "history-catalog": { type: "string", default: "2000" },
    "history-points": { type: "string", default: "200000000" },
    "history-runs": { type: "string", default: "5" },
    "crossvenue-markets": { type: "string", default: "150000" },
    "crossvenue-runs": { type: "string", default: "3" },
    "fuzz-cases": { type: "string", default: "2000" },
    "fuzz-seeds": { type: "string", default: "20" },
    "scale-markets": { type: "string", default: "150000" },
    "scale-closed": { type: "string", default: "1000000" },
    "scale-closing-per-day": { type: "string", default: "20000" },
    "scale-minutes": { type: "string", default: "60" },
    "scale-kalshi-tokens": { type: "string", default: "200" },
    "scale-interval": { type: "string", default: "600" },
    "books-markets": { type: "string", default: "150000" },
    "books-capture-markets": { type: "string", default: "20000" },
    "resolutions-markets": { type: "string", default: "150000" },
    "resolutions-captures": { type: "string", default: "72" },
    "resolutions-settling": { type: "string", default: "300" },
    "resolutions-pending": { type: "string", default: "20000" },
    report: { type: "string", default: "docs/BENCHMARKS.md" },
  },
});
const only = new Set(values.only.split(",").map((p) => p.trim()));
for (const phase of only) {
  if (!(ALL_PHASES as readonly string[]).includes(phase)) throw new Error(`unknown phase "${phase}" in --only`);
}
const num = (name: keyof typeof values) => Number(values[name]);

const log = (line: string) => console.log(line);
const timings: Array<{ phase: string; ms: number; load: number }> = [];
async function phase<T>(name: string, work: () => Promise<T>): Promise<T> {
  log(`\n== ${name} (load average ${loadAverage()})`);
  const started = performance.now();
  const result = await work();
  timings.push({ phase: name, ms: performance.now() - started, load: loadAverage() });
  log(`== ${name} done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

const startedAt = new Date();
const ownDataDir = !values["data-dir"];
const dataDir = resolve(values["data-dir"] ?? mkdtempSync(join(tmpdir(), "epicenter-bench-")));
const warehousePath = join(dataDir, "warehouse");
const env = serverEnv(dataDir, 0, BENCH_EMAIL);
const sections: Partial<Record<Phase, string>> = {};

let dataset: DatasetProfile | undefined;
let queryTimings: QueryTiming[] | undefined;
let contention: ContentionTiming[] | undefined;
let parquet: ParquetExport | undefined;
let ingest: IngestBenchResult | undefined;
let load: LoadResult | undefined;
let overload: LoadResult | undefined;
let hostile: HostileResult | undefined;
let bundle: BundleSize | undefined;
let firstLoad: FirstLoad | undefined;
let history: HistoryBenchResult | undefined;
let engineVersion = "unknown";
let duckdbVersion = "unknown";

try {
  const needsData = only.has("dataset") || only.has("queries") || only.has("load") || only.has("web");
  if (needsData) {
    dataset = await phase("dataset", async () => {
      if (existsSync(join(warehousePath, "metadata"))) {
        log(`reusing the dataset in ${dataDir}`);
        const warehouse = openWarehouse({ path: warehousePath, poolSize: 1 });
        try {
          const [row] = await warehouse.query<{ from: string; to: string }>(
            "SELECT toString(min(sync_timestamp)) AS from, toString(max(sync_timestamp)) AS to FROM polymarket.markets",
          );
          return {
            ...(await profile(warehouse)),
            steps: Math.ceil((num("days") * 24 * 60) / 10),
            from: row?.from ?? "",
            to: row?.to ?? "",
            catalogSizePerVenue: Number.NaN,
            generateMs: Number.NaN,
          };
        } finally {
          await warehouse.close();
        }
      }
      return generateDataset({ rows: num("rows"), days: num("days"), warehousePath });
    });
    log(
      `${dataset.marketSnapshotRows.toLocaleString("en-US")} market-snapshot rows (${dataset.polymarketMarkets} Polymarket + ${dataset.kalshiMarkets} Kalshi markets × ${dataset.steps} steps, ${dataset.from} → ${dataset.to})`,
    );
  }

  const apiKey = needsData && (only.has("queries") || only.has("load")) ? await createApiKey(env, BENCH_EMAIL) : "";

  if (only.has("queries") && dataset) {
    const lookupId = dataset.lookupId;
    queryTimings = await phase("queries", async () => {
      const config = parseConfig({ ...env, PORT: "0" });
      const server = await startServer(config);
      const warehouse = openWarehouse({ path: warehousePath, poolSize: 2 });
      const parquetDir = join(dataDir, "parquet");
      try {
        engineVersion = (await warehouse.query<{ v: string }>("SELECT version() AS v"))[0]?.v ?? "unknown";
        parquet = await exportParquet(warehouse, parquetDir);
        log(
          `parquet export: ${parquet.files.map((f) => `${f.view} ${(f.bytes / 1024 ** 2).toFixed(0)} MiB in ${(f.ms / 1000).toFixed(1)} s`).join(", ")}`,
        );
        const duck = await openDuckDb(parquetDir, 2);
        duckdbVersion = duck.version;
        const baseUrl = `http://127.0.0.1:${server.port}`;
        try {
          const timings = await runQueryBench(
            { baseUrl, apiKey, warehouse, warehousePath, duck },
            benchQueries(lookupId),
            num("runs"),
            log,
          );
          const [kalshi] = await warehouse.query<{ ticker: string }>(
            "SELECT ticker FROM kalshi.markets_latest FINAL ORDER BY volume DESC LIMIT 1",
          );
          contention = await runExamplesUnderContention(
            { baseUrl, apiKey, hogKey: await createApiKey(env, HOG_EMAIL, { allow: true }) },
            benchParams(lookupId, kalshi?.ticker ?? ""),
            3,
            log,
          );
          return timings;
        } finally {
          duck.close();
        }
      } finally {
        await warehouse.close();
        await server.stop();
        rmSync(parquetDir, { recursive: true, force: true });
      }
    });
    for (const t of queryTimings) {
      log(
        `${t.query.id.padEnd(24)} product ${t.product.median.toFixed(1).padStart(7)} ms  engine ${t.engine.median.toFixed(1).padStart(7)} ms  duckdb ${t.duckdb.median.toFixed(1).padStart(7)} ms  overhead ${(t.product.median - t.engine.median).toFixed(1)} ms  rows ${t.rows.product}/${t.rows.engine}/${t.rows.duckdb}`,
      );
    }
  }

  if (only.has("web")) {
    bundle = await phase("web build", () => buildAndMeasure(resolve("apps/web/dist"), values["skip-build"]));
    log(`initial JS ${(bundle.initialGzipBytes / 1024).toFixed(1)} KiB gzip in ${bundle.initial.length} files`);
  }

  if ((only.has("load") || only.has("web")) && dataset) {
    const port = await freePort();
    const server = await startChildServer(serverEnv(dataDir, port, BENCH_EMAIL));
    try {
      if (only.has("load")) {
        const lookupId = dataset.lookupId;
        load = await phase("load", () =>
          runLoad(server, apiKey, { connections: num("connections"), durationS: num("duration"), lookupId }),
        );
        log(
          `load: ${load.requestsPerSecond.toFixed(0)} req/s, p50 ${load.latency.p50} ms, p99 ${load.latency.p99} ms, status ${JSON.stringify(load.statusCounts)}, errors ${load.errors}`,
        );
        overload = await phase("overload", () =>
          runLoad(server, apiKey, {
            connections: num("overload-connections"),
            durationS: num("overload-duration"),
            queriesOnly: true,
            lookupId,
          }),
        );
        log(
          `overload: status ${JSON.stringify(overload.statusCounts)}, errors ${overload.errors}, alive ${overload.aliveAfter}, refusal ${JSON.stringify(overload.refusals)}`,
        );
      }
      if (only.has("web")) {
        firstLoad = await phase("web first load", () =>
          measureFirstLoad(server.baseUrl, dataDir, BENCH_EMAIL, num("loads")),
        );
        log(
          `/queries first load: load event ${firstLoad.loadEventMs.median.toFixed(0)} ms, first card ${firstLoad.firstCardMs.median.toFixed(0)} ms`,
        );
      }
    } finally {
      await server.stop();
    }
  }

  if (only.has("hostile")) {
    // Its own small data dir: the hostile requests need no market data, and a server of
    // its own keeps their effects out of the other phases.
    const hostileDir = mkdtempSync(join(tmpdir(), "epicenter-hostile-"));
    const users = { hostile: "mallory@bench.test", other: "alice@bench.test", admin: BENCH_EMAIL };
    const server = await startChildServer({
      ...serverEnv(hostileDir, await freePort(), BENCH_EMAIL),
      ALLOWED_EMAILS: `${users.hostile},${users.other}`,
    });
    try {
      hostile = await phase("hostile", () => runHostileBench(server, hostileDir, users, log));
    } finally {
      await server.stop();
      rmSync(hostileDir, { recursive: true, force: true });
    }
  }

  if (only.has("ingest")) {
    ingest = await phase("ingest", async () => {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [
          "--import",
          "tsx",
          "scripts/bench/ingest-child.ts",
          values["ingest-markets"],
          values["ingest-runs"],
          values["ingest-day-runs"],
        ],
        { maxBuffer: 16 * 1024 * 1024 },
      );
      return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as IngestBenchResult;
    });
    log(
      `ingest: ${ingest.mapInsertRowsPerSecond.median} rows/s, queryable after ${ingest.queryableAfterMs.median} ms, ${(ingest.diskDay ?? ingest.disk).bytesPerMarketRow} B/row`,
    );
  }

  if (only.has("history")) {
    history = await phase("history", () =>
      runHistoryBench(
        {
          catalogSize: num("history-catalog"),
          secondsPerVenue: num("history-seconds"),
          points: num("history-points"),
          runs: num("history-runs"),
          keep: values.keep,
        },
        log,
      ),
    );
    for (const line of summarizeHistory(history)) log(`history: ${line}`);
  }

  if (only.has("crossvenue")) {
    const crossVenue = await phase("crossvenue", () =>
      runCrossVenueBench({ catalogSize: num("crossvenue-markets"), runs: num("crossvenue-runs") }, log),
    );
    for (const line of summarizeCrossVenue(crossVenue)) log(`crossvenue: ${line}`);
  }

  if (only.has("matcher-labels")) await phase("matcher-labels", () => runMatcherLabelsBench(log));

  if (only.has("fuzz")) {
    const fuzz = await phase("fuzz", () => runFuzzBench({ cases: num("fuzz-cases"), seeds: num("fuzz-seeds") }, log));
    for (const line of summarizeFuzz(fuzz)) log(`fuzz: ${line}`);
  }

  if (only.has("linear")) {
    const readers = await phase("linear", async () => runLinearBench(log));
    const slow = readers.filter((reader) => reader.ratio > LINEAR_RATIO_BOUND);
    log(
      `linear: ${readers.length - slow.length} of ${readers.length} readers linear (8× the input within ${LINEAR_RATIO_BOUND}× the time)`,
    );
  }

  if (only.has("books")) {
    const books = await phase("books", () =>
      runBooksBench({ markets: num("books-markets"), captureMarkets: num("books-capture-markets") }, log),
    );
    for (const line of summarizeBooks(books)) log(`books: ${line}`);
  }

  if (only.has("resolutions")) {
    const resolutions = await phase("resolutions", () =>
      runResolutionsBench(
        {
          markets: num("resolutions-markets"),
          captures: num("resolutions-captures"),
          settling: num("resolutions-settling"),
          pending: num("resolutions-pending"),
        },
        log,
      ),
    );
    for (const line of summarizeResolutions(resolutions)) log(`resolutions: ${line}`);
  }

  if (only.has("scale")) {
    const scale = await phase("scale", () =>
      runScaleBench(
        {
          markets: num("scale-markets"),
          closedMarkets: num("scale-closed"),
          closingPerDay: num("scale-closing-per-day"),
          minutes: num("scale-minutes"),
          kalshiTokensPerSecond: num("scale-kalshi-tokens"),
          intervalSeconds: num("scale-interval"),
        },
        log,
      ),
    );
    for (const line of summarizeScale(scale)) log(`scale: ${line}`);
  }
} finally {
  if (ownDataDir && !values.keep) rmSync(dataDir, { recursive: true, force: true });
  else log(`data dir kept: ${dataDir}`);
}

const machine = describeMachine(engineVersion, duckdbVersion);
const context = { startedAt, machine, timings, flags: process.argv.slice(2).join(" ") || "(defaults)" };
// A partial run keeps the full run's machine and phase table; its sections carry their own date.
if (DEFAULT_PHASES.every((name) => only.has(name))) sections.header = headerSection(context);
if (dataset && !Number.isNaN(dataset.generateMs)) sections.dataset = datasetSection(dataset, context);
if (queryTimings && dataset) {
  sections.queries = queriesSection(queryTimings, dataset, parquet, num("runs"), context, contention);
}
if (ingest) sections.ingest = ingestSection(ingest, context);
if (load && overload) sections.load = loadSection(load, overload, context);
if (hostile) sections.hostile = hostileSection(hostile, context);
if (bundle || firstLoad) sections.web = webSection(bundle, firstLoad, context);
withHistorySection(values.report, history && historySection(history, context), () =>
  writeReport(values.report, sections),
);
log(`\nphases: ${timings.map((t) => `${t.phase} ${(t.ms / 1000).toFixed(0)} s (load ${t.load})`).join(", ")}`);
log(`report written to ${values.report}`);
