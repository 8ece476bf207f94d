/**
 * Issue 15's query figures on a large price history: the gallery's price-path and
 * calibration examples, timed through the product (`POST /api/query` on an in-process
 * `startServer`, with an API key), on the engine directly, and in DuckDB over the same
 * tables exported as Parquet, by the queries phase's `runQueryBench`. Also the bytes each
 * price point takes once the table is merged.
 *
 * Runs in a process of its own (`scripts/bench-history.ts`): chDB opens one data
 * directory per process, and this one is a fresh DATA_DIR with the synthetic history
 * (`history-synthetic.ts`) and nothing else.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrateWarehouse, openWarehouse, resolutionsSql, type Warehouse } from "@epicenter/warehouse";
import { parseConfig } from "../../apps/server/src/config";
import { startServer } from "../../apps/server/src/main";
import { EXAMPLE_QUERIES } from "../../apps/server/src/services/queries/examples";
import { benchParams, type ContentionTiming, runExamplesUnderContention } from "./contention";
import { exportParquet, openDuckDb, type ParquetExport } from "./duckdb";
import { measureTable, type TableBytes } from "./history-disk";
import { generateSyntheticHistory, type SyntheticHistory } from "./history-synthetic";
import { type HistoryQuery, type HistoryQueryTiming, timeHistoryQueries } from "./history-timing";
import { loadAverage } from "./machine";
import { createApiKey, serverEnv } from "./server-child";

export const PRICE_PATH_EXAMPLE = "5e1a0000-0000-4000-8000-000000000009";
export const CALIBRATION_EXAMPLE = "5e1a0000-0000-4000-8000-000000000010";
const BENCH_EMAIL = "bench@epicenter.test";
const HOG_EMAIL = "busy@epicenter.test";

function exampleSql(id: string): string {
  const found = EXAMPLE_QUERIES.find((query) => query.id === id);
  if (!found) throw new Error(`no example query ${id}`);
  return found.sql;
}

/** The price-path example with its market picked by a literal id instead of its subquery. */
export function withLiteralMarket(sql: string, id: string): string {
  const literal = sql.replace(
    /WITH \(\s*SELECT[\s\S]*?\) AS market_id[^\n]*\n/,
    `WITH '${id.replaceAll("'", "")}' AS market_id\n`,
  );
  if (literal === sql) throw new Error("the price-path example no longer starts with `WITH (SELECT …) AS market_id`");
  return literal;
}

/**
 * The calibration in DuckDB, over every point (DuckDB has no daily closes): the Yes
 * price at the last point of the last whole UTC day before the day asked, within the week
 * before it. Lists are 1-based in both, `has` is `list_contains`, `argMax` is `arg_max`, a
 * Bool averages once cast.
 */
const CALIBRATION_DUCKDB = `WITH resolved AS (
  SELECT id, outcomes[1] AS yes_outcome, outcomePrices[1] = 1 AS yes_won,
    closedTime - INTERVAL 24 HOUR AS asked_at
  FROM pm_markets_latest
  WHERE closed AND len(outcomePrices) = 2 AND list_contains(outcomePrices, 1) AND closedTime IS NOT NULL
),
before AS (
  SELECT p.id AS id, arg_max(p.price, p.ts) AS price
  FROM pm_prices AS p
  INNER JOIN resolved AS r ON p.id = r.id AND p.outcome = r.yes_outcome
  -- The days as a range of times, which DuckDB's join can use (a cast of p.ts it cannot).
  WHERE p.ts < date_trunc('day', r.asked_at) AND p.ts >= date_trunc('day', r.asked_at) - INTERVAL 7 DAY
  GROUP BY p.id
)
SELECT least(floor(price * 10) / 10, 0.9) AS bucket, count(*) AS markets,
  round(avg(price), 3) AS avg_price, round(avg(yes_won::INTEGER), 3) AS yes_rate
FROM before INNER JOIN resolved USING (id)
GROUP BY bucket
ORDER BY bucket`;

/**
 * The calibration as it was first written (the Yes series joined on the 77-digit token id,
 * nothing for the primary index), and the same with the series picked by the market and
 * its `outcome` label instead: engine-only diagnostics beside whatever the gallery ships.
 */
const CALIBRATION_PLAIN = (series: string) => `WITH resolved AS (
  SELECT id, clobTokenIds[1] AS yes_token, outcomePrices[1] = 1 AS yes_won,
    toDateTime(closedTime, 'UTC') - INTERVAL 24 HOUR AS asked_at
  FROM polymarket.markets_latest FINAL
  WHERE closed AND length(outcomePrices) = 2 AND has(outcomePrices, 1) AND closedTime IS NOT NULL
),
before AS (
  SELECT p.id AS id, argMax(p.price, p.ts) AS price
  FROM polymarket.prices AS p
  ${series}
  AND p.ts <= r.asked_at AND p.ts > r.asked_at - INTERVAL 7 DAY
  GROUP BY p.id
)
SELECT least(floor(price * 10) / 10, 0.9) AS bucket, count() AS markets,
  round(avg(price), 3) AS avg_price, round(avg(yes_won), 3) AS yes_rate
FROM before INNER JOIN resolved USING (id)
GROUP BY bucket
ORDER BY bucket`;

/** The two examples and the price path as the gallery ships it, in both dialects; two engine-only diagnostics. */
export function historyQueries(lookupId: string): HistoryQuery[] {
  const path = exampleSql(PRICE_PATH_EXAMPLE);
  const calibration = exampleSql(CALIBRATION_EXAMPLE);
  const id = `'${lookupId.replaceAll("'", "")}'`;
  return [
    {
      id: "h1-price-path-literal",
      title: "One market's full price history (example 9, literal id)",
      clickhouse: withLiteralMarket(path, lookupId),
      duckdb: `SELECT ts, outcome, price FROM pm_prices WHERE id = ${id} ORDER BY outcome, ts`,
      isSmallResult: false,
    },
    {
      id: "h2-price-path-example",
      title: "The same, as the gallery ships it (market by subquery)",
      clickhouse: path,
      duckdb: `SELECT ts, outcome, price FROM pm_prices
WHERE id = (
  SELECT id FROM pm_markets_latest
  WHERE closed AND list_contains(outcomePrices, 1)
  ORDER BY volume DESC NULLS LAST
  LIMIT 1
)
ORDER BY outcome, ts`,
      isSmallResult: false,
    },
    {
      id: "h3-calibration",
      title: "Calibration (example 10)",
      clickhouse: calibration,
      duckdb: CALIBRATION_DUCKDB,
      isSmallResult: true,
    },
    {
      id: "d1-calibration-plain-join",
      title: "Diagnostic: the calibration joined on the token id, without the example's index condition",
      clickhouse: CALIBRATION_PLAIN(
        "INNER JOIN resolved AS r ON p.id = r.id AND p.token_id = r.yes_token\n  WHERE true",
      ),
      duckdb: "",
      isSmallResult: true,
      engineOnly: true,
    },
    {
      id: "d2-calibration-by-outcome",
      title: "Diagnostic: the same with the Yes series picked by `outcome`, not by the token id",
      clickhouse: CALIBRATION_PLAIN("INNER JOIN resolved AS r ON p.id = r.id\n  WHERE p.outcome = 'Yes'"),
      duckdb: "",
      isSmallResult: true,
      engineOnly: true,
    },
  ];
}

export interface HistoryQueryResult {
  synthetic: SyntheticHistory;
  /** `polymarket.prices` after `OPTIMIZE … FINAL`. */
  prices: TableBytes;
  lookupId: string;
  parquet: ParquetExport;
  runs: number;
  timings: HistoryQueryTiming[];
  /** The calibration's answer, so the report shows that the data made sense of it. */
  calibration: Array<Record<string, unknown>>;
  /** Whether DuckDB's answer over every point is the same, bucket for bucket. */
  calibrationAgrees: boolean;
  /** Deriving the resolutions ledger over the whole archive (the migration's backfill). */
  ledgerMs: number;
  /** Every gallery example on this archive, quiet and beside another user's scans. */
  contention: ContentionTiming[];
  engineVersion: string;
  duckdbVersion: string;
  /** The 1-minute load average when the data was ready, and when the queries were done. */
  load: { generated: number; queried: number };
}

/** Exports `polymarket.prices` in its sort order, as the queries phase exports the snapshots. */
async function exportPrices(warehouse: Warehouse, dir: string): Promise<ParquetExport["files"][number]> {
  const path = join(dir, "pm_prices.parquet");
  const started = performance.now();
  await warehouse.command(
    `INSERT INTO FUNCTION file('${path}', 'Parquet') SELECT * FROM polymarket.prices ORDER BY id, token_id, ts`,
    { settings: { engine_file_truncate_on_insert: 1, output_format_parquet_compression_method: "zstd" } },
  );
  return { view: "pm_prices", bytes: statSync(path).size, ms: performance.now() - started };
}

export async function runHistoryQueries(
  options: { points: number; runs: number; now: number; keep?: boolean },
  log: (line: string) => void,
): Promise<HistoryQueryResult> {
  const dataDir = mkdtempSync(join(tmpdir(), "epicenter-bench-history-"));
  const warehousePath = join(dataDir, "warehouse");
  const parquetDir = join(dataDir, "parquet");
  const env = serverEnv(dataDir, 0, BENCH_EMAIL);
  try {
    const writer = openWarehouse({ path: warehousePath, poolSize: 2, settings: { max_insert_threads: "2" } });
    let synthetic: SyntheticHistory;
    let prices: TableBytes;
    let parquet: ParquetExport;
    let lookupId: string;
    let generatedLoad: number;
    let ledgerMs: number;
    try {
      await migrateWarehouse(writer);
      synthetic = await generateSyntheticHistory(writer, { points: options.points, now: options.now }, log);
      log(
        `generated ${synthetic.points.toLocaleString("en-US")} price points of ${synthetic.markets.toLocaleString("en-US")} markets in ${(synthetic.generateMs / 1000).toFixed(0)} s`,
      );
      prices = await measureTable(writer, "polymarket.prices");
      // The resolutions ledger over the whole archive, as the migration derives it for an archive that has one.
      const derived = performance.now();
      await writer.command(resolutionsSql("polymarket", "all"));
      ledgerMs = performance.now() - derived;
      const [ledger] = await writer.query<{ n: string }>("SELECT count() AS n FROM polymarket.resolutions FINAL");
      log(
        `resolutions ledger: ${Number(ledger?.n).toLocaleString("en-US")} markets derived from the snapshots and ${synthetic.points.toLocaleString("en-US")} points in ${(ledgerMs / 1000).toFixed(1)} s`,
      );
      // The daily closes as a running archive holds them: merged in the background.
      const merged = performance.now();
      await writer.command("OPTIMIZE TABLE polymarket.daily_closes FINAL");
      const [closes] = await writer.query<{ n: string }>("SELECT count() AS n FROM polymarket.daily_closes");
      log(
        `daily closes: ${Number(closes?.n).toLocaleString("en-US")} rows, merged in ${((performance.now() - merged) / 1000).toFixed(0)} s`,
      );
      log(
        `OPTIMIZE FINAL in ${(prices.optimizeMs / 1000).toFixed(0)} s: ${(prices.compressedBytes / prices.rows).toFixed(2)} B per point (${prices.parts} parts)`,
      );
      // The market the gallery's example picks: the most traded resolved one.
      const [lookup] = await writer.query<{ id: string }>(
        `SELECT id FROM polymarket.markets_latest FINAL WHERE closed AND has(outcomePrices, 1)
         ORDER BY volume DESC NULLS LAST LIMIT 1`,
      );
      lookupId = lookup?.id ?? "";
      parquet = await exportParquet(writer, parquetDir);
      parquet.files.push(await exportPrices(writer, parquetDir));
      generatedLoad = loadAverage();
      log(
        `parquet export: ${parquet.files.map((f) => `${f.view} ${(f.ms / 1000).toFixed(0)} s`).join(", ")} (load average ${generatedLoad})`,
      );
    } finally {
      await writer.close();
    }

    const apiKey = await createApiKey(env, BENCH_EMAIL);
    const server = await startServer(parseConfig({ ...env, PORT: "0" }));
    const warehouse = openWarehouse({ path: warehousePath, poolSize: 2 });
    const duck = await openDuckDb(parquetDir, 2);
    try {
      await duck.run(`CREATE VIEW pm_prices AS SELECT * FROM read_parquet('${join(parquetDir, "pm_prices.parquet")}')`);
      const engineVersion = (await warehouse.query<{ v: string }>("SELECT version() AS v"))[0]?.v ?? "unknown";
      const queries = historyQueries(lookupId);
      const timings = await timeHistoryQueries(
        { baseUrl: `http://127.0.0.1:${server.port}`, apiKey, warehouse, duck },
        queries,
        options.runs,
        log,
      );
      const calibration = await warehouse.query<Record<string, unknown>>(queries[2]?.clickhouse ?? "");
      const answer = (rows: Array<Record<string, unknown>>) =>
        JSON.stringify(
          rows.map((row) => [row.bucket, row.markets, row.avg_price, row.yes_rate].map((value) => Number(value))),
        );
      const calibrationAgrees = answer(calibration) === answer(await duck.rows(queries[2]?.duckdb ?? ""));
      log(
        `calibration: DuckDB's answer over every point ${calibrationAgrees ? "equals" : "DIFFERS FROM"} the product's`,
      );
      // The gallery's history examples (the calibration over 200 M points among them) beside another user's scans.
      const contention = await runExamplesUnderContention(
        {
          baseUrl: `http://127.0.0.1:${server.port}`,
          apiKey,
          hogKey: await createApiKey(env, HOG_EMAIL, { allow: true }),
        },
        benchParams(lookupId, ""),
        3,
        log,
      );
      return {
        contention,
        synthetic,
        prices,
        lookupId,
        parquet,
        runs: options.runs,
        timings,
        calibration,
        calibrationAgrees,
        ledgerMs,
        engineVersion,
        duckdbVersion: duck.version,
        load: { generated: generatedLoad, queried: loadAverage() },
      };
    } finally {
      duck.close();
      await warehouse.close();
      await server.stop();
    }
  } finally {
    if (options.keep) log(`history data dir kept: ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
}
