/**
 * The alternative a researcher would otherwise pick: DuckDB over Parquet files.
 *
 * The files are written by the engine itself (`INSERT INTO FUNCTION file(…, 'Parquet')`)
 * on an app-side warehouse connection, never through the sandbox, which refuses `file`.
 * The snapshot tables are exported in their sort order (day, key, time), so DuckDB's
 * row-group statistics can skip by time the way the engine's primary index does; the
 * latest tables are exported as their `FINAL` state, so DuckDB reads them without
 * deduplicating. `raw` (the upstream JSON) is left out: no benchmark query reads it, and
 * a columnar reader would not read it either, it would only slow the export.
 */
import { mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { type DuckDBConnection, DuckDBInstance, version as duckdbVersion } from "@duckdb/node-api";
import type { Warehouse } from "@epicenter/warehouse";

export const PARQUET_TABLES = [
  { view: "pm_markets", source: "polymarket.markets", order: "toDate(sync_timestamp), id, sync_timestamp" },
  { view: "pm_markets_latest", source: "polymarket.markets_latest FINAL", order: "id" },
  { view: "k_markets", source: "kalshi.markets", order: "toDate(sync_timestamp), ticker, sync_timestamp" },
  { view: "k_markets_latest", source: "kalshi.markets_latest FINAL", order: "ticker" },
] as const;

export interface ParquetExport {
  dir: string;
  files: Array<{ view: string; bytes: number; ms: number }>;
}

export async function exportParquet(warehouse: Warehouse, dir: string): Promise<ParquetExport> {
  mkdirSync(dir, { recursive: true });
  const files: ParquetExport["files"] = [];
  for (const table of PARQUET_TABLES) {
    const path = join(dir, `${table.view}.parquet`);
    const started = performance.now();
    await warehouse.command(
      `INSERT INTO FUNCTION file('${path}', 'Parquet')
       SELECT * EXCEPT (raw) FROM ${table.source} ORDER BY ${table.order}`,
      { settings: { engine_file_truncate_on_insert: 1, output_format_parquet_compression_method: "zstd" } },
    );
    files.push({ view: table.view, bytes: statSync(path).size, ms: performance.now() - started });
  }
  return { dir, files };
}

export interface DuckDb {
  version: string;
  run(sql: string): Promise<number>;
  /** The answer's rows, as JS values. */
  rows(sql: string): Promise<Array<Record<string, unknown>>>;
  close(): void;
}

export async function openDuckDb(dir: string, threads: number): Promise<DuckDb> {
  const instance = await DuckDBInstance.create(":memory:", { threads: String(threads) });
  const connection: DuckDBConnection = await instance.connect();
  await connection.run("SET TimeZone = 'UTC'");
  for (const table of PARQUET_TABLES) {
    await connection.run(
      `CREATE VIEW ${table.view} AS SELECT * FROM read_parquet('${join(dir, `${table.view}.parquet`)}')`,
    );
  }
  return {
    version: duckdbVersion(),
    // Rows are materialised as JS values, as the other two paths decode theirs.
    run: async (sql) => (await connection.runAndReadAll(sql)).getRowObjectsJS().length,
    rows: async (sql) => (await connection.runAndReadAll(sql)).getRowObjectsJS() as Array<Record<string, unknown>>,
    close: () => {
      connection.closeSync();
      instance.closeSync();
    },
  };
}
