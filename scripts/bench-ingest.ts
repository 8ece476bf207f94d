/**
 * Ingest benchmark: consecutive full Polymarket snapshots of a large catalog (150,000
 * markets by default) from the replay server on loopback into one fresh embedded
 * warehouse, the way the archive grows (prices and volumes move between runs through the
 * replay server's `advance()`).
 *
 * Hygiene:
 * - The replay server runs in a child process (this script, forked with
 *   `--replay-child`), so rendering upstream pages does not compete with the code under
 *   test for the main thread. The time the run spends waiting for page bodies is
 *   measured and reported separately (`upstreamWaitMs`).
 * - Each figure is reported per run and as the median over the runs, with min–max; run 1
 *   is also shown on its own (a cold warehouse: no previous state for `lastTradeTime`).
 *
 * Figures per run:
 * - map + insert rate: market rows per second of the run's time outside upstream waits;
 * - queryable after: from the run's start until a poll of
 *   `SELECT count() … WHERE sync_timestamp = …` (every 250 ms, on its own connection)
 *   first answers the run's full market count;
 * - after all runs, `OPTIMIZE … FINAL` and bytes on disk per market snapshot row from
 *   `system.parts` (with and without `raw`, from `system.columns`).
 *
 * Run with `npx tsx scripts/bench-ingest.ts [catalogSize] [runs]`.
 */
import { type ChildProcess, fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { runSync, silentLogger, startReplayServer } from "@epicenter/ingest";
import { migrateWarehouse, openWarehouse, type Warehouse } from "@epicenter/warehouse";

export interface IngestRunResult {
  marketsWritten: number;
  eventsWritten: number;
  runDurationMs: number;
  upstreamWaitMs: number;
  mapInsertRowsPerSecond: number;
  queryableAfterMs: number;
}

export interface Spread {
  median: number;
  min: number;
  max: number;
}

export interface IngestBenchResult {
  catalogMarkets: number;
  runs: IngestRunResult[];
  runDurationMs: Spread;
  upstreamWaitMs: Spread;
  mapInsertRowsPerSecond: Spread;
  queryableAfterMs: Spread;
  /** Medians, for callers that read single numbers. */
  marketsWritten: number;
  eventsWritten: number;
  bytesPerMarketRow: number;
  bytesPerMarketRowWithoutRaw: number;
  bytesPerMarketRowRaw: number;
  rowsOnDisk: number;
}

function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return { median: Math.round(median), min: Math.round(sorted[0] ?? 0), max: Math.round(sorted.at(-1) ?? 0) };
}

/** The replay server in a child process: `{url}` on start, `advanced` after each `advance`. */
interface ReplayChild {
  url: { polymarket: string; kalshi: string };
  advance(): Promise<void>;
  close(): Promise<void>;
}

async function startReplayChild(catalogSize: number): Promise<ReplayChild> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ["--replay-child", String(catalogSize)], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const next = () =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      child.once("message", (message) => resolve(message as Record<string, unknown>));
      child.once("exit", (code) => reject(new Error(`replay child exited with ${code}`)));
    });
  const ready = await next();
  return {
    url: ready.url as ReplayChild["url"],
    advance: async () => {
      const answer = next();
      child.send("advance");
      await answer;
    },
    close: async () => {
      child.kill();
    },
  };
}

async function runOnce(warehouse: Warehouse, replay: ReplayChild): Promise<IngestRunResult> {
  let upstreamWaitMs = 0;
  const timedFetch: typeof fetch = async (...args) => {
    const started = performance.now();
    const response = await globalThis.fetch(...args);
    const body = await response.text();
    upstreamWaitMs += performance.now() - started;
    return new Response(body, { status: response.status, headers: response.headers });
  };
  const started = performance.now();
  const visible: Array<{ at: number; count: number }> = [];
  let polling = true;
  let syncTimestamp: string | undefined;
  const poller = (async () => {
    while (polling) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      syncTimestamp ??= await currentRunTimestamp(warehouse);
      if (!syncTimestamp) continue;
      const [row] = await warehouse.query<{ n: string }>(
        "SELECT count() AS n FROM polymarket.markets WHERE sync_timestamp = {ts:DateTime64(3, 'UTC')}",
        { params: { ts: syncTimestamp } },
      );
      visible.push({ at: performance.now() - started, count: Number(row?.n ?? 0) });
    }
  })();
  const summary = await runSync(
    {
      warehouse,
      logger: silentLogger,
      config: { polymarketApiUrl: replay.url.polymarket, kalshiApiUrl: replay.url.kalshi },
      fetch: timedFetch,
    },
    { source: "polymarket" },
  );
  polling = false;
  await poller;
  if (!summary.success) throw new Error(`bench run failed: ${summary.error}`);
  let queryableAfterMs = visible.find((poll) => poll.count === summary.markets_written)?.at;
  if (queryableAfterMs === undefined) {
    const [row] = await warehouse.query<{ n: string }>(
      "SELECT count() AS n FROM polymarket.markets WHERE sync_timestamp = {ts:DateTime64(3, 'UTC')}",
      { params: { ts: summary.sync_timestamp } },
    );
    queryableAfterMs = performance.now() - started;
    if (Number(row?.n) !== summary.markets_written) throw new Error("snapshot not fully visible");
  }
  const mapInsertMs = summary.duration_ms - upstreamWaitMs;
  return {
    marketsWritten: summary.markets_written,
    eventsWritten: summary.events_written,
    runDurationMs: summary.duration_ms,
    upstreamWaitMs: Math.round(upstreamWaitMs),
    mapInsertRowsPerSecond: Math.round(summary.markets_written / (mapInsertMs / 1000)),
    queryableAfterMs: Math.round(queryableAfterMs),
  };
}

/** The `sync_timestamp` of the polymarket run in progress (its start marker has no outcome yet). */
async function currentRunTimestamp(warehouse: Warehouse): Promise<string | undefined> {
  const [row] = await warehouse.query<{ ts: string }>(
    `SELECT toString(sync_timestamp) AS ts FROM internal.sync_run_history FINAL
     WHERE source = 'polymarket' AND revision = 0 ORDER BY started_at DESC LIMIT 1`,
  );
  return row?.ts;
}

export async function runIngestBench(
  options: { catalogSize?: number; runs?: number } = {},
): Promise<IngestBenchResult> {
  const catalogSize = options.catalogSize ?? 150_000;
  const runCount = Math.max(1, options.runs ?? 6);
  const dir = mkdtempSync(join(tmpdir(), "epicenter-bench-ingest-"));
  const warehouse = openWarehouse({ path: join(dir, "warehouse"), poolSize: 4 });
  const replay = await startReplayChild(catalogSize);
  try {
    await migrateWarehouse(warehouse);
    const runs: IngestRunResult[] = [];
    for (let i = 0; i < runCount; i += 1) {
      if (i > 0) await replay.advance();
      const run = await runOnce(warehouse, replay);
      runs.push(run);
      if (process.env.BENCH_VERBOSE) console.error(`run ${i + 1}`, JSON.stringify(run));
    }

    await warehouse.command("OPTIMIZE TABLE polymarket.markets FINAL");
    const [parts] = await warehouse.query<{ bytes: string; rows: string }>(
      "SELECT sum(bytes_on_disk) AS bytes, sum(rows) AS rows FROM system.parts WHERE database = 'polymarket' AND table = 'markets' AND active",
    );
    const [rawBytes] = await warehouse.query<{ bytes: string }>(
      "SELECT sum(data_compressed_bytes) AS bytes FROM system.columns WHERE database = 'polymarket' AND table = 'markets' AND name = 'raw'",
    );
    const rows = Number(parts?.rows ?? 0);
    const bytes = Number(parts?.bytes ?? 0);
    const raw = Number(rawBytes?.bytes ?? 0);
    const pick = (key: keyof IngestRunResult) => spread(runs.map((run) => run[key]));
    return {
      catalogMarkets: catalogSize,
      runs,
      runDurationMs: pick("runDurationMs"),
      upstreamWaitMs: pick("upstreamWaitMs"),
      mapInsertRowsPerSecond: pick("mapInsertRowsPerSecond"),
      queryableAfterMs: pick("queryableAfterMs"),
      marketsWritten: pick("marketsWritten").median,
      eventsWritten: pick("eventsWritten").median,
      bytesPerMarketRow: Math.round(bytes / rows),
      bytesPerMarketRowWithoutRaw: Math.round((bytes - raw) / rows),
      bytesPerMarketRowRaw: Math.round(raw / rows),
      rowsOnDisk: rows,
    };
  } finally {
    await replay.close();
    await warehouse.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function replayChildMain(catalogSize: number) {
  const replay = await startReplayServer({ catalogSize });
  process.on("message", (message) => {
    if (message === "advance") {
      replay.advance();
      process.send?.("advanced");
    }
  });
  process.on("disconnect", () => {
    void replay.close().then(() => process.exit(0));
  });
  process.send?.({ url: replay.url });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  if (process.argv[2] === "--replay-child") {
    await replayChildMain(Number(process.argv[3] ?? 150_000));
  } else {
    const result = await runIngestBench({
      catalogSize: Number(process.argv[2] ?? 150_000),
      runs: Number(process.argv[3] ?? 6),
    });
    console.log(JSON.stringify(result, null, 2));
    const s = (x: Spread, unit: string, scale = 1, digits = 0) =>
      `${(x.median / scale).toFixed(digits)} ${unit} (min ${(x.min / scale).toFixed(digits)}, max ${(x.max / scale).toFixed(digits)})`;
    const first = result.runs[0] as IngestRunResult;
    console.log(
      [
        `runs                    ${result.runs.length} × ${result.marketsWritten} markets, ${result.eventsWritten} events`,
        `run duration            median ${s(result.runDurationMs, "s", 1000, 1)}; run 1 ${(first.runDurationMs / 1000).toFixed(1)} s`,
        `upstream wait           median ${s(result.upstreamWaitMs, "s", 1000, 1)}`,
        `map+insert              median ${s(result.mapInsertRowsPerSecond, "rows/s")}; run 1 ${first.mapInsertRowsPerSecond} (goal >= 50,000)`,
        `queryable after         median ${s(result.queryableAfterMs, "s", 1000, 1)}; run 1 ${(first.queryableAfterMs / 1000).toFixed(1)} s (goal <= 60 s)`,
        `bytes per market row    ${result.bytesPerMarketRow} B over ${result.rowsOnDisk} rows (${result.bytesPerMarketRowWithoutRaw} B without raw, ${result.bytesPerMarketRowRaw} B raw; aim < 100 B)`,
      ].join("\n"),
    );
  }
}
