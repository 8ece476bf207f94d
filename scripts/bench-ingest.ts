/**
 * Ingest benchmark: one full Polymarket snapshot of a large catalog (150,000 markets by
 * default) from the replay server on loopback into a fresh embedded warehouse.
 *
 * Prints and returns: the run's duration; the map + insert rate (market rows per second
 * of the time the run spent outside waiting for upstream pages); the time from the run's
 * start until the snapshot is queryable (a count of its rows by `sync_timestamp` answers
 * the full number); and bytes on disk per market snapshot row from `system.parts`.
 * Run with `npx tsx scripts/bench-ingest.ts [catalogSize]`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runSync, silentLogger, startReplayServer } from "@epicenter/ingest";
import { migrateWarehouse, openWarehouse } from "@epicenter/warehouse";

export interface IngestBenchResult {
  catalogMarkets: number;
  marketsWritten: number;
  eventsWritten: number;
  runDurationMs: number;
  upstreamWaitMs: number;
  mapInsertRowsPerSecond: number;
  queryableAfterMs: number;
  bytesPerMarketRow: number;
  bytesPerMarketRowWithoutRaw: number;
}

export async function runIngestBench(options: { catalogSize?: number } = {}): Promise<IngestBenchResult> {
  const catalogSize = options.catalogSize ?? 150_000;
  const dir = mkdtempSync(join(tmpdir(), "epicenter-bench-ingest-"));
  const warehouse = openWarehouse({ path: join(dir, "warehouse"), poolSize: 2 });
  const replay = await startReplayServer({ catalogSize });
  try {
    await migrateWarehouse(warehouse);
    let upstreamWaitMs = 0;
    const timedFetch: typeof fetch = async (...args) => {
      const started = performance.now();
      const response = await globalThis.fetch(...args);
      const body = await response.text();
      upstreamWaitMs += performance.now() - started;
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const started = performance.now();
    const summary = await runSync(
      {
        warehouse,
        logger: silentLogger,
        config: { polymarketApiUrl: replay.url.polymarket, kalshiApiUrl: replay.url.kalshi },
        fetch: timedFetch,
      },
      { source: "polymarket" },
    );
    if (!summary.success) throw new Error(`bench run failed: ${summary.error}`);
    const [visible] = await warehouse.query<{ n: string }>(
      "SELECT count() AS n FROM polymarket.markets WHERE sync_timestamp = {ts:DateTime64(3, 'UTC')}",
      { params: { ts: summary.sync_timestamp } },
    );
    const queryableAfterMs = performance.now() - started;
    if (Number(visible?.n) !== summary.markets_written) throw new Error("snapshot not fully visible");

    await warehouse.command("OPTIMIZE TABLE polymarket.markets FINAL");
    const [parts] = await warehouse.query<{ bytes: string; rows: string }>(
      "SELECT sum(bytes_on_disk) AS bytes, sum(rows) AS rows FROM system.parts WHERE database = 'polymarket' AND table = 'markets' AND active",
    );
    const [rawBytes] = await warehouse.query<{ bytes: string }>(
      "SELECT sum(data_compressed_bytes) AS bytes FROM system.columns WHERE database = 'polymarket' AND table = 'markets' AND name = 'raw'",
    );
    const rows = Number(parts?.rows ?? 0);
    const mapInsertMs = summary.duration_ms - upstreamWaitMs;
    return {
      catalogMarkets: catalogSize,
      marketsWritten: summary.markets_written,
      eventsWritten: summary.events_written,
      runDurationMs: summary.duration_ms,
      upstreamWaitMs: Math.round(upstreamWaitMs),
      mapInsertRowsPerSecond: Math.round(summary.markets_written / (mapInsertMs / 1000)),
      queryableAfterMs: Math.round(queryableAfterMs),
      bytesPerMarketRow: Math.round(Number(parts?.bytes ?? 0) / rows),
      bytesPerMarketRowWithoutRaw: Math.round((Number(parts?.bytes ?? 0) - Number(rawBytes?.bytes ?? 0)) / rows),
    };
  } finally {
    await replay.close();
    await warehouse.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = await runIngestBench({ catalogSize: Number(process.argv[2] ?? 150_000) });
  console.log(JSON.stringify(result, null, 2));
  console.log(
    [
      `run duration            ${(result.runDurationMs / 1000).toFixed(1)} s (${result.marketsWritten} markets, ${result.eventsWritten} events)`,
      `map+insert              ${result.mapInsertRowsPerSecond} rows/s (goal >= 50,000)`,
      `queryable after         ${(result.queryableAfterMs / 1000).toFixed(1)} s (goal <= 60 s)`,
      `bytes per market row    ${result.bytesPerMarketRow} B (${result.bytesPerMarketRowWithoutRaw} B without raw; aim < 100 B)`,
    ].join("\n"),
  );
}
