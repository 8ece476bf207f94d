/**
 * `npm run bench -- --only books` (issue 28): what the order-book archive costs and how
 * fast "as of" answers, at the venues' scale, in a child process with a warehouse of its own.
 *
 * - Bytes per market-snapshot of depth: `--books-markets` markets (default 150,000) × six
 *   captures (an hour at the spec's cadence, every market captured each time), top 10 levels
 *   a side, written in the table's own layout and merged. Two books: sizes redrawn at every
 *   capture (the worst case), and books as they move, where a level keeps its size for
 *   about five captures and the middle for about ten.
 * - Capture time: one capture of `--books-capture-markets` (default 20,000) Polymarket
 *   markets from the replay through the real path (`captureBooks`), at the CLOB's `/books`
 *   limit, beside the snapshot of the same catalog.
 * - As of: a day of books at the tiers' rates (a fifth of the markets traded, every capture;
 *   the rest hourly) and a day of market snapshots, both for `--books-markets` markets;
 *   `book_asof` and `markets_asof` at five moments, each beside DuckDB over the engine's
 *   Parquet export of the same rows, the same question.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { DuckDBInstance } from "@duckdb/node-api";
import {
  captureBooks,
  createRateLimiter,
  replayIngestConfig,
  runSync,
  silentLogger,
  startReplayServer,
} from "@epicenter/ingest";
import { migrateWarehouse, openWarehouse, type Warehouse } from "@epicenter/warehouse";
import { loadAverage } from "./bench/machine";
import { quantile } from "./bench/stats";

const median = (values: readonly number[]) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

export interface BooksBenchOptions {
  markets: number;
  captureMarkets: number;
}

export interface BooksBenchResult {
  storage: Array<{ kind: string; rows: number; compressedBytes: number; diskBytes: number }>;
  capture: { markets: number; snapshotMs: number; captureMs: number; captured: number; requests: number };
  asOf: Array<{ query: string; rows: number; engineMs: number; duckdbMs: number }>;
  asOfRows: { books: number; snapshots: number };
  load: string;
}

export async function runBooksBench(
  options: BooksBenchOptions,
  log: (line: string) => void = console.log,
): Promise<BooksBenchResult> {
  log(`books: ${options.markets} markets, a capture of ${options.captureMarkets}`);
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", fileURLToPath(import.meta.url), "--child", JSON.stringify(options)],
    { maxBuffer: 16 * 1024 * 1024, env: { ...process.env, UV_THREADPOOL_SIZE: "16" } },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as BooksBenchResult;
}

export function summarize(result: BooksBenchResult): string[] {
  const kib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return [
    ...result.storage.map(
      (s) =>
        `${s.kind}: ${(s.compressedBytes / s.rows).toFixed(1)} B per market-snapshot compressed (${(s.diskBytes / s.rows).toFixed(1)} B on disk with marks and index), ${s.rows.toLocaleString("en-US")} rows, ${kib(s.diskBytes)}`,
    ),
    `capture: ${result.capture.captured.toLocaleString("en-US")} Polymarket books in ${(result.capture.captureMs / 1000).toFixed(1)} s (${result.capture.requests} requests) after a snapshot of ${result.capture.markets.toLocaleString("en-US")} markets in ${(result.capture.snapshotMs / 1000).toFixed(1)} s: +${((100 * result.capture.captureMs) / result.capture.snapshotMs).toFixed(0)} %`,
    `as of over a day of ${result.asOfRows.books.toLocaleString("en-US")} book rows and ${result.asOfRows.snapshots.toLocaleString("en-US")} snapshot rows:`,
    ...result.asOf.map(
      (q) =>
        `  ${q.query}: ${q.rows.toLocaleString("en-US")} rows, engine ${q.engineMs.toFixed(0)} ms, DuckDB ${q.duckdbMs.toFixed(0)} ms (${(q.engineMs / q.duckdbMs).toFixed(2)}×)`,
    ),
    `load ${result.load}`,
  ];
}

const HOUR_S = 3600;

/** Books in the table's layout from SQL: `variant` worst (sizes redrawn) or moving (levels persist). */
function generateBooks(markets: number, captures: number, start: number, variant: "worst" | "moving", where = "1") {
  const epoch = (salt: string, every: number) =>
    variant === "worst" ? `c` : `intDiv(c + cityHash64(m, '${salt}') % ${every}, ${every})`;
  return `INSERT INTO kalshi.books (sync_timestamp, ticker, book_timestamp, state, bid_price, bid_size, ask_price, ask_size)
SELECT sync_timestamp, ticker, NULL, if(active, 'active', 'hourly'),
  arrayMap(k -> toDecimal32((mid - k) / 100, 4), range(1, least(11, mid))) AS bids,
  arrayMap(k -> round(5 + cityHash64(m, k, ${epoch("b", 5)}) % 200000 / 100, 2), arrayEnumerate(bids)),
  arrayMap(k -> toDecimal32((mid + k) / 100, 4), range(1, least(11, 100 - mid))) AS asks,
  arrayMap(k -> round(5 + cityHash64(m, -k, ${epoch("a", 5)}) % 200000 / 100, 2), arrayEnumerate(asks))
FROM (
  SELECT number % ${markets} AS m, intDiv(number, ${markets}) AS c,
    concat('KXBENCH-', toString(m)) AS ticker,
    fromUnixTimestamp64Milli(toInt64((${start} + c * 600) * 1000), 'UTC') AS sync_timestamp,
    m % 5 = 0 AS active,
    toInt32(3 + cityHash64(m, ${variant === "worst" ? "c" : epoch("mid", 10)}) % 94) AS mid
  FROM numbers(${markets * captures})
)
WHERE ${where}`;
}

async function storage(warehouse: Warehouse, kind: string) {
  await warehouse.command("OPTIMIZE TABLE kalshi.books FINAL");
  const [row] = await warehouse.query<{ rows: string; compressed: string; disk: string }>(
    `SELECT sum(rows) AS rows, sum(data_compressed_bytes) AS compressed, sum(bytes_on_disk) AS disk
     FROM system.parts WHERE active AND database = 'kalshi' AND table = 'books'`,
  );
  return { kind, rows: Number(row?.rows), compressedBytes: Number(row?.compressed), diskBytes: Number(row?.disk) };
}

async function timed(run: () => Promise<unknown>, times = 5): Promise<number> {
  await run();
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

async function child(options: BooksBenchOptions): Promise<BooksBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), "epicenter-bench-books-"));
  const warehouse = openWarehouse({ path: join(dir, "warehouse"), poolSize: 2 });
  try {
    await migrateWarehouse(warehouse);
    const start = Math.floor(Date.now() / 1000 / HOUR_S) * HOUR_S - 24 * HOUR_S;
    const result: BooksBenchResult = {
      storage: [],
      capture: { markets: 0, snapshotMs: 0, captureMs: 0, captured: 0, requests: 0 },
      asOf: [],
      asOfRows: { books: 0, snapshots: 0 },
      load: loadAverage().toFixed(2),
    };
    for (const variant of ["worst", "moving"] as const) {
      await warehouse.command("TRUNCATE TABLE kalshi.books");
      await warehouse.command(generateBooks(options.markets, 6, start, variant));
      result.storage.push(
        await storage(warehouse, variant === "worst" ? "sizes redrawn each capture" : "books as they move"),
      );
    }

    // A day at the tiers' rates: a fifth of the markets every capture, the rest once an hour.
    await warehouse.command("TRUNCATE TABLE kalshi.books");
    await warehouse.command(generateBooks(options.markets, 144, start, "moving", "active OR c % 6 = m % 6"));
    await warehouse.command(
      `INSERT INTO kalshi.markets (sync_timestamp, ticker, event_ticker, title, status, last_price_dollars, yes_bid_dollars, yes_ask_dollars, volume, raw)
       SELECT fromUnixTimestamp64Milli(toInt64((${start} + intDiv(number, ${options.markets}) * 600) * 1000), 'UTC'),
              concat('KXBENCH-', toString(number % ${options.markets})), concat('KXBENCH-E', toString(intDiv(number % ${options.markets}, 10))),
              concat('Bench market ', toString(number % ${options.markets})), 'active',
              (3 + cityHash64(number % ${options.markets}, intDiv(number, ${options.markets} * 10)) % 94) / 100,
              NULL, NULL, number % 1000, ''
       FROM numbers(${options.markets * 144})`,
    );
    await warehouse.command(
      `INSERT INTO kalshi.markets_latest SELECT * EXCEPT (raw) FROM kalshi.markets WHERE sync_timestamp = (SELECT max(sync_timestamp) FROM kalshi.markets)`,
    );
    const [counts] = await warehouse.query<{ books: string; snapshots: string }>(
      "SELECT (SELECT count() FROM kalshi.books) AS books, (SELECT count() FROM kalshi.markets) AS snapshots",
    );
    result.asOfRows = { books: Number(counts?.books), snapshots: Number(counts?.snapshots) };

    const file = (name: string) => join(dir, `${name}.parquet`);
    await warehouse.command(
      `INSERT INTO FUNCTION file('${file("books")}', 'Parquet') SELECT * FROM kalshi.books ORDER BY toStartOfHour(sync_timestamp), ticker, sync_timestamp`,
      { settings: { engine_file_truncate_on_insert: 1, output_format_parquet_compression_method: "zstd" } },
    );
    await warehouse.command(
      `INSERT INTO FUNCTION file('${file("markets")}', 'Parquet') SELECT * EXCEPT (raw) FROM kalshi.markets ORDER BY toDate(sync_timestamp), ticker, sync_timestamp`,
      { settings: { engine_file_truncate_on_insert: 1, output_format_parquet_compression_method: "zstd" } },
    );
    const instance = await DuckDBInstance.create(":memory:", { threads: "2" });
    const duck = await instance.connect();
    await duck.run("SET TimeZone = 'UTC'");
    await duck.run(`CREATE VIEW books AS SELECT * FROM read_parquet('${file("books")}')`);
    await duck.run(`CREATE VIEW markets AS SELECT * FROM read_parquet('${file("markets")}')`);

    const moments = [3, 7, 12, 17, 21].map((hours) => start + hours * HOUR_S + 300);
    const iso = (s: number) => new Date(s * 1000).toISOString().replace("T", " ").replace("Z", "");
    const queries = [
      {
        query: "every market's book as of a moment (levels)",
        engine: (t: number) => `SELECT count() AS n FROM kalshi.book_asof(ts = '${iso(t)}')`,
        duckdb: (t: number) => `SELECT count(*) AS n FROM (
          SELECT ticker, arg_max(state, sync_timestamp) AS state, arg_max(bid_price, sync_timestamp) AS bids, arg_max(ask_price, sync_timestamp) AS asks
          FROM books WHERE sync_timestamp <= TIMESTAMP '${iso(t)}' AND sync_timestamp > TIMESTAMP '${iso(t)}' - INTERVAL 70 MINUTE
          GROUP BY ticker HAVING state != 'closed') AS b, unnest(list_concat(bids, asks)) AS l`,
      },
      {
        query: "every market's snapshot as of a moment",
        engine: (t: number) =>
          `SELECT count() AS n, sum(last_price_dollars) AS s FROM kalshi.markets_asof(ts = '${iso(t)}')`,
        duckdb: (t: number) => `SELECT count(*) AS n, sum(last_price_dollars) AS s FROM (
          SELECT ticker, arg_max(last_price_dollars, sync_timestamp) AS last_price_dollars
          FROM markets WHERE sync_timestamp <= TIMESTAMP '${iso(t)}' AND sync_timestamp > TIMESTAMP '${iso(t)}' - INTERVAL 24 HOUR
          GROUP BY ticker)`,
      },
    ];
    for (const q of queries) {
      let rows = 0;
      const engineSamples: number[] = [];
      for (const t of moments) {
        const [row] = await warehouse.query<{ n: string }>(q.engine(t));
        rows = Number(row?.n);
        engineSamples.push(await timed(() => warehouse.query(q.engine(t)), 2));
      }
      const engineMs = median(engineSamples);
      const duckRows: number[] = [];
      const duckMs: number[] = [];
      for (const t of moments) {
        const answer = await duck.runAndReadAll(q.duckdb(t));
        duckRows.push(Number((answer.getRowObjectsJS()[0] as { n: bigint }).n));
        duckMs.push(await timed(() => duck.runAndReadAll(q.duckdb(t)), 2));
      }
      if (duckRows.at(-1) !== rows) throw new Error(`${q.query}: engine ${rows} rows, DuckDB ${duckRows.at(-1)}`);
      result.asOf.push({ query: q.query, rows, engineMs, duckdbMs: median(duckMs) });
    }
    duck.closeSync();
    instance.closeSync();

    // One capture through the real path, after a snapshot of the same catalog.
    const replay = await startReplayServer({ catalogSize: options.captureMarkets });
    try {
      const deps = {
        warehouse,
        config: replayIngestConfig(replay),
        logger: silentLogger,
        rateLimiters: new Map([["polymarket", createRateLimiter({ requests: 100_000, perMs: 1_000 })]]),
      };
      const run = await runSync(deps, { source: "polymarket" });
      const captured = await captureBooks(deps, "polymarket", run.sync_timestamp, { intervalSeconds: 600 });
      result.capture = {
        markets: run.markets_written,
        snapshotMs: run.duration_ms,
        captureMs: captured.duration_ms,
        captured: captured.captured,
        requests: captured.requests,
      };
    } finally {
      await replay.close();
    }
    result.load = `${result.load} → ${loadAverage().toFixed(2)}`;
    return result;
  } finally {
    await warehouse.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === "--child") {
  const result = await child(JSON.parse(process.argv[3] ?? "{}") as BooksBenchOptions);
  console.log(JSON.stringify(result));
}
