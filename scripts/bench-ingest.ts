/**
 * Ingest benchmark: consecutive full Polymarket snapshots of a large catalog (150,000
 * markets by default) from the replay server on loopback into one fresh embedded
 * warehouse, the way the archive grows (prices and volumes move between runs through the
 * replay server's `advance()`).
 *
 * Hygiene:
 * - The replay server runs in a child process (`bench/replay-child.ts`), so rendering
 *   upstream pages does not compete with the code under test for the main thread (it
 *   still competes for the machine's cores). The time the run spends waiting for page
 *   bodies is measured and reported separately (`upstreamWaitMs`).
 * - Each figure is reported per run and as the median over the runs, with min–max; run 1
 *   is also shown on its own (a cold warehouse: no previous state for `lastTradeTime`).
 *
 * Figures:
 * - per run: its duration; queryable after, from the run's start until a poll of
 *   `SELECT count() … WHERE sync_timestamp = …` (every 250 ms, on its own connection)
 *   first answers the run's full market count; the engine's wall time on the run's
 *   batches (`engine_ms` in the run's log line);
 * - map + insert: the same full snapshot run again with the upstream replaced by the
 *   bytes it sent in the last timed run, held in memory, so nothing but our own write path
 *   runs (reading the pages, the engine's mapping, inserting into the snapshot and latest
 *   tables, recording the run): market rows per second of run time, each run started
 *   once the engine's merges of the runs before it are done (as ten minutes apart they
 *   are), with its CPU time;
 * - bytes on disk per market snapshot row, from `system.parts` after `OPTIMIZE … FINAL`
 *   (with and without `raw`, from `system.columns`): over the timed runs, and over a day
 *   of 10-minute snapshots (144 runs) of a smaller catalog, which is what the archive
 *   holds in steady state (each market's snapshots of a day sit side by side and compress
 *   against each other).
 *
 * Run with `npx tsx scripts/bench-ingest.ts [catalogSize] [runs] [dayRuns]`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  createRateLimiter,
  type Logger,
  replayIngestConfig,
  runSync,
  type SyncRunSummary,
  silentLogger,
} from "@epicenter/ingest";
import { migrateWarehouse, openWarehouse, type Warehouse } from "@epicenter/warehouse";
import { type ReplayChild, startReplayChild } from "./bench/replay-child";

export interface IngestRunResult {
  marketsWritten: number;
  eventsWritten: number;
  runDurationMs: number;
  upstreamWaitMs: number;
  /** Wall time of the engine's batch statements during the run (they overlap the fetching). */
  engineMs: number;
  queryableAfterMs: number;
}

export interface DiskResult {
  catalogMarkets: number;
  runs: number;
  rowsOnDisk: number;
  bytesPerMarketRow: number;
  bytesPerMarketRowWithoutRaw: number;
  bytesPerMarketRowRaw: number;
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
  engineMs: Spread;
  queryableAfterMs: Spread;
  /** Full runs over the recorded upstream bytes: market rows per second of run time. */
  mapInsertRowsPerSecond: Spread;
  mapInsertRunMs: Spread;
  /** CPU time of those runs, engine threads included (the machine has two cores). */
  mapInsertCpuMs: Spread;
  /** Medians, for callers that read single numbers. */
  marketsWritten: number;
  eventsWritten: number;
  /** Bytes per row over the timed runs, and over a day of snapshots. */
  disk: DiskResult;
  diskDay: DiskResult | null;
}

function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return { median: Math.round(median), min: Math.round(sorted[0] ?? 0), max: Math.round(sorted.at(-1) ?? 0) };
}

/** Upstream answers by URL, without the pending-closed pass's window start (it moves with the clock). */
type Recording = Map<string, ArrayBuffer>;
const recordingKey = (url: string) => {
  const parsed = new URL(url);
  parsed.searchParams.delete("end_date_min");
  return `${parsed.pathname}?${parsed.searchParams}`;
};

function engineLogger(onEngineMs: (ms: number) => void): Logger {
  return {
    ...silentLogger,
    info: (fields, message) => {
      if (message === "polymarket pages mapped by the engine") onEngineMs(Number(fields.engine_ms ?? 0));
    },
  };
}

async function runOnce(warehouse: Warehouse, replay: ReplayChild, recording: Recording): Promise<IngestRunResult> {
  let upstreamWaitMs = 0;
  let engineMs = 0;
  recording.clear();
  const timedFetch: typeof fetch = async (input, init) => {
    const started = performance.now();
    const response = await globalThis.fetch(input, init);
    const body = await response.arrayBuffer();
    upstreamWaitMs += performance.now() - started;
    if (response.ok) recording.set(recordingKey(String(input)), body);
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
      logger: engineLogger((ms) => {
        engineMs = ms;
      }),
      config: replayIngestConfig(replay),
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
  return {
    marketsWritten: summary.markets_written,
    eventsWritten: summary.events_written,
    runDurationMs: summary.duration_ms,
    upstreamWaitMs: Math.round(upstreamWaitMs),
    engineMs,
    queryableAfterMs: Math.round(queryableAfterMs),
  };
}

/**
 * Waits until the engine has no merge running (at most `timeoutMs`). Runs come ten minutes
 * apart, and the merges of a run's parts take seconds, so a run starts with the merges of
 * the runs before it done; back to back, they would take the cores from the run measured.
 */
async function mergesSettled(warehouse: Warehouse, timeoutMs = 120_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const [row] = await warehouse.query<{ n: string }>("SELECT count() AS n FROM system.merges");
    if (Number(row?.n ?? 0) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * A full snapshot run whose upstream is `recording`, in memory: only our write path runs.
 * Also the CPU time it took, of this process and so of the engine's threads too.
 */
async function replayedRun(
  warehouse: Warehouse,
  recording: Recording,
): Promise<{ summary: SyncRunSummary; cpuMs: number }> {
  await mergesSettled(warehouse);
  const cpu = process.cpuUsage();
  const fromMemory: typeof fetch = async (input) => {
    const body = recording.get(recordingKey(String(input)));
    if (!body) return new Response("not recorded", { status: 404 });
    return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
  };
  const summary = await runSync(
    {
      warehouse,
      logger: silentLogger,
      config: {
        polymarket: {
          apiUrl: "http://recorded/polymarket",
          clobUrl: "http://recorded/polymarket-clob",
          dataUrl: "http://recorded/polymarket-data",
        },
        kalshi: { apiUrl: "http://recorded/kalshi" },
      },
      fetch: fromMemory,
      rateLimiters: new Map([["polymarket", createRateLimiter({ requests: 1_000_000, perMs: 1_000 })]]),
    },
    { source: "polymarket" },
  );
  if (!summary.success) throw new Error(`replayed run failed: ${summary.error}`);
  const used = process.cpuUsage(cpu);
  return { summary, cpuMs: (used.user + used.system) / 1000 };
}

async function measureDisk(warehouse: Warehouse, catalogMarkets: number, runs: number): Promise<DiskResult> {
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
  return {
    catalogMarkets,
    runs,
    rowsOnDisk: rows,
    bytesPerMarketRow: Math.round(bytes / rows),
    bytesPerMarketRowWithoutRaw: Math.round((bytes - raw) / rows),
    bytesPerMarketRowRaw: Math.round(raw / rows),
  };
}

/** A day of 10-minute snapshots of a `catalogSize` catalog, for the steady-state bytes per row. */
async function runDiskDay(catalogSize: number, runs: number): Promise<DiskResult> {
  const dir = mkdtempSync(join(tmpdir(), "epicenter-bench-ingest-day-"));
  const warehouse = openWarehouse({ path: join(dir, "warehouse"), poolSize: 4 });
  const replay = await startReplayChild({ catalogSize });
  try {
    await migrateWarehouse(warehouse);
    const start = Date.parse("2026-11-01T00:00:00Z");
    for (let i = 0; i < runs; i += 1) {
      if (i > 0) await replay.advance();
      const summary = await runSync(
        {
          warehouse,
          logger: silentLogger,
          config: replayIngestConfig(replay),
          clock: () => new Date(start + i * 600_000),
        },
        { source: "polymarket" },
      );
      if (!summary.success) throw new Error(`day run ${i + 1} failed: ${summary.error}`);
    }
    return await measureDisk(warehouse, catalogSize, runs);
  } finally {
    await replay.close();
    await warehouse.close();
    rmSync(dir, { recursive: true, force: true });
  }
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
  options: { catalogSize?: number; runs?: number; replayedRuns?: number; dayRuns?: number; dayCatalog?: number } = {},
): Promise<IngestBenchResult> {
  const catalogSize = options.catalogSize ?? 150_000;
  const runCount = Math.max(1, options.runs ?? 6);
  const dir = mkdtempSync(join(tmpdir(), "epicenter-bench-ingest-"));
  const warehouse = openWarehouse({ path: join(dir, "warehouse"), poolSize: 4 });
  const replay = await startReplayChild({ catalogSize });
  const recording: Recording = new Map();
  try {
    await migrateWarehouse(warehouse);
    const runs: IngestRunResult[] = [];
    for (let i = 0; i < runCount; i += 1) {
      if (i > 0) await replay.advance();
      const run = await runOnce(warehouse, replay, recording);
      runs.push(run);
      if (process.env.BENCH_VERBOSE) console.error(`run ${i + 1}`, JSON.stringify(run));
    }
    await replay.close();
    const disk = await measureDisk(warehouse, catalogSize, runCount);

    const replayed: Array<{ summary: SyncRunSummary; cpuMs: number }> = [];
    for (let i = 0; i < Math.max(1, options.replayedRuns ?? 3); i += 1) {
      replayed.push(await replayedRun(warehouse, recording));
      if (process.env.BENCH_VERBOSE) console.error(`replayed run ${i + 1}`, JSON.stringify(replayed.at(-1)));
    }
    recording.clear();
    await warehouse.close();
    rmSync(dir, { recursive: true, force: true });

    const dayRuns = options.dayRuns ?? 144;
    const diskDay = dayRuns > 0 ? await runDiskDay(options.dayCatalog ?? 10_000, dayRuns) : null;
    const pick = (key: keyof IngestRunResult) => spread(runs.map((run) => run[key]));
    return {
      catalogMarkets: catalogSize,
      runs,
      runDurationMs: pick("runDurationMs"),
      upstreamWaitMs: pick("upstreamWaitMs"),
      engineMs: pick("engineMs"),
      queryableAfterMs: pick("queryableAfterMs"),
      mapInsertRowsPerSecond: spread(
        replayed.map(({ summary }) => summary.markets_written / (summary.duration_ms / 1000)),
      ),
      mapInsertRunMs: spread(replayed.map(({ summary }) => summary.duration_ms)),
      mapInsertCpuMs: spread(replayed.map(({ cpuMs }) => cpuMs)),
      marketsWritten: pick("marketsWritten").median,
      eventsWritten: pick("eventsWritten").median,
      disk,
      diskDay,
    };
  } finally {
    await replay.close();
    await warehouse.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  {
    const result = await runIngestBench({
      catalogSize: Number(process.argv[2] ?? 150_000),
      runs: Number(process.argv[3] ?? 6),
      dayRuns: Number(process.argv[4] ?? 144),
    });
    console.log(JSON.stringify(result, null, 2));
    const s = (x: Spread, unit: string, scale = 1, digits = 0) =>
      `${(x.median / scale).toFixed(digits)} ${unit} (min ${(x.min / scale).toFixed(digits)}, max ${(x.max / scale).toFixed(digits)})`;
    const first = result.runs[0] as IngestRunResult;
    const disk = (d: DiskResult) =>
      `${d.bytesPerMarketRow} B over ${d.rowsOnDisk} rows of ${d.runs} runs × ${d.catalogMarkets} markets (${d.bytesPerMarketRowWithoutRaw} B without raw, ${d.bytesPerMarketRowRaw} B raw)`;
    console.log(
      [
        `runs                    ${result.runs.length} × ${result.marketsWritten} markets, ${result.eventsWritten} events`,
        `run duration            median ${s(result.runDurationMs, "s", 1000, 1)}; run 1 ${(first.runDurationMs / 1000).toFixed(1)} s`,
        `upstream wait           median ${s(result.upstreamWaitMs, "s", 1000, 1)}`,
        `engine, in the run      median ${s(result.engineMs, "s", 1000, 1)}`,
        `queryable after         median ${s(result.queryableAfterMs, "s", 1000, 1)}; run 1 ${(first.queryableAfterMs / 1000).toFixed(1)} s (goal <= 60 s)`,
        `map+insert              median ${s(result.mapInsertRowsPerSecond, "rows/s")} (goal >= 50,000); run ${s(result.mapInsertRunMs, "s", 1000, 1)}; CPU ${s(result.mapInsertCpuMs, "s", 1000, 1)}`,
        `bytes, timed runs       ${disk(result.disk)}`,
        `bytes, a day            ${result.diskDay ? disk(result.diskDay) : "skipped"} (aim < 100 B)`,
      ].join("\n"),
    );
  }
}
