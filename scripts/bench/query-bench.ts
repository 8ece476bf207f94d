/**
 * Each query three ways, side by side in the same run:
 * - product: `POST /api/query` over HTTP on loopback with an API key, on a real
 *   `startServer` (auth, validation by the engine's parser, the sandbox, recording the run),
 *   called and timed from a process of its own as a user's client is (`product-client.ts`);
 * - engine: the same SQL on a warehouse client over the same data, under the sandbox's
 *   engine settings, nothing else;
 * - DuckDB: the translated SQL over the Parquet export.
 * One warm-up each, then `runs` rounds; within a round the three paths run back to back
 * for every query, so machine noise lands on all three alike, in an order that changes
 * from round to round and query to query, since the call right after another engine's work
 * pays for the cold caches. The product's response also carries the service's own time
 * (`execution_time_ms`), which splits the overhead into HTTP + auth and the sandbox's
 * validation.
 *
 * The profile of each query (rows the engine will read, and the granules the primary index
 * keeps for the snapshot tables) comes from `EXPLAIN ESTIMATE` and `EXPLAIN indexes = 1`:
 * chDB has no `system.query_log`, and its result metrics count result rows, not rows read.
 */
import { sandboxSettings, type Warehouse } from "@epicenter/warehouse";
import type { DuckDb } from "./duckdb";
import { type Endpoint, openProductClient } from "./product-client";
import type { BenchQuery } from "./queries";
import { type Spread, spreadOf } from "./stats";

export interface QueryProfile {
  rowsRead: number;
  bytesRead: number;
  engineElapsedMs: number;
  /** `Granules: kept/total` per table read, from `EXPLAIN indexes = 1`. */
  granules: string[];
}

export interface QueryTiming {
  query: BenchQuery;
  rows: { product: number; engine: number; duckdb: number };
  product: Spread;
  service: Spread;
  engine: Spread;
  duckdb: Spread;
  profile: QueryProfile | undefined;
}

export interface QueryBenchTarget {
  baseUrl: string;
  apiKey: string;
  warehouse: Warehouse;
  warehousePath: string;
  duck: DuckDb | undefined;
}

const ROW_LIMIT = 10_000;
/** Product (0), engine (1) and DuckDB (2) in every order. */
const ORDERS = [
  [0, 1, 2],
  [1, 2, 0],
  [2, 0, 1],
  [0, 2, 1],
  [1, 0, 2],
  [2, 1, 0],
] as const;

export async function runQueryBench(
  target: QueryBenchTarget,
  queries: readonly BenchQuery[],
  runs: number,
  log: (line: string) => void,
): Promise<QueryTiming[]> {
  const client = openProductClient(target.baseUrl, target.apiKey);
  const product = async (sql: string, endpoint?: Endpoint) => {
    const answer = await client.run(sql, ROW_LIMIT, undefined, endpoint);
    if (answer.error !== null) throw new Error(`POST /api/query ${answer.error}`);
    return { ms: answer.ms, rows: answer.rows, serviceMs: answer.serviceMs ?? Number.NaN };
  };
  // The engine's own time with the settings the sandbox runs user SQL under (threads,
  // aggregation in order, limits): product − engine is then the service's cost alone, not
  // a difference in how the engine was told to run the query.
  const settings = sandboxSettings();
  const engine = async (sql: string) => {
    const started = performance.now();
    const rows = await target.warehouse.query(sql, { settings });
    return { ms: performance.now() - started, rows: rows.length };
  };
  const duckdb = async (sql: string) => {
    if (!target.duck) return { ms: Number.NaN, rows: Number.NaN };
    const started = performance.now();
    const rows = await target.duck.run(sql);
    return { ms: performance.now() - started, rows };
  };

  const samples = queries.map(() => ({
    product: [] as number[],
    service: [] as number[],
    engine: [] as number[],
    duckdb: [] as number[],
  }));
  const rows = queries.map(() => ({ product: 0, engine: 0, duckdb: 0 }));
  for (let round = -1; round < runs; round += 1) {
    for (const [i, query] of queries.entries()) {
      // A call right after DuckDB's (or after an idle pause) pays for cold caches and
      // DuckDB's threads winding down: ~3 ms on a small query (measured: product first, 4-5.5
      // ms over the engine; engine first, 1-1.7 ms). So the order runs through all six
      // permutations, shifted per query, and no path always follows the same one.
      const order = ORDERS[(((round + i) % ORDERS.length) + ORDERS.length) % ORDERS.length] as readonly number[];
      let p = { ms: 0, rows: 0, serviceMs: 0 };
      let e = { ms: 0, rows: 0 };
      let d = { ms: 0, rows: 0 };
      const paths = [
        async () => {
          p = await product(query.clickhouse, query.endpoint);
        },
        async () => {
          e = await engine(query.clickhouse);
        },
        async () => {
          d = await duckdb(query.duckdb);
        },
      ];
      for (const path of order) await (paths[path] as () => Promise<void>)();
      const bucket = samples[i] as (typeof samples)[number];
      rows[i] = { product: p.rows, engine: e.rows, duckdb: d.rows };
      if (round < 0) continue; // warm-up: caches, first-touch of the Parquet files
      bucket.product.push(p.ms);
      bucket.service.push(p.serviceMs);
      bucket.engine.push(e.ms);
      bucket.duckdb.push(d.ms);
    }
    log(`  query round ${round < 0 ? "warm-up" : round + 1}/${runs} done`);
  }

  client.close();
  const profiles = await profileQueries(target, queries);
  return queries.map((query, i) => {
    const bucket = samples[i] as (typeof samples)[number];
    return {
      query,
      rows: rows[i] as QueryTiming["rows"],
      product: spreadOf(bucket.product),
      service: spreadOf(bucket.service),
      engine: spreadOf(bucket.engine),
      duckdb: spreadOf(bucket.duckdb),
      profile: profiles[i],
    };
  });
}

async function profileQueries(
  target: QueryBenchTarget,
  queries: readonly BenchQuery[],
): Promise<Array<QueryProfile | undefined>> {
  const out: Array<QueryProfile | undefined> = [];
  for (const query of queries) {
    try {
      const explain = await target.warehouse.query<{ explain: string }>(`EXPLAIN indexes = 1 ${query.clickhouse}`);
      const granules: string[] = [];
      let table = "";
      for (const { explain: line } of explain) {
        const named = /Table: ([\w.]+)/.exec(line)?.[1] ?? /ReadFromMergeTree \(([\w.]+)\)/.exec(line)?.[1];
        if (named) table = named;
        const kept = /Granules: (\d+\/\d+)/.exec(line)?.[1];
        if (kept) granules.push(`${table} ${kept}`);
      }
      const estimate = await target.warehouse.query<{ rows: string }>(`EXPLAIN ESTIMATE ${query.clickhouse}`);
      const started = performance.now();
      await target.warehouse.query(query.clickhouse);
      out.push({
        rowsRead: estimate.reduce((total, row) => total + Number(row.rows), 0),
        bytesRead: Number.NaN,
        engineElapsedMs: performance.now() - started,
        // Keep the last (most refined) figure per table: PrimaryKey, then Skip indexes.
        granules: [...new Map(granules.map((g) => [g.split(" ")[0], g])).values()],
      });
    } catch (error) {
      out.push(undefined);
      console.error(`profile of ${query.id} failed: ${error instanceof Error ? error.message : error}`);
    }
  }
  return out;
}
