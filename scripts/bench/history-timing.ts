/**
 * Times the history queries three ways, as `query-bench.ts` does for the snapshot queries
 * (product over HTTP with an API key, the engine directly, DuckDB over Parquet; rounds
 * in an order that changes from round to round), with two differences the large history
 * needs:
 * - a path may fail (the product refuses a query past the sandbox's time limit); the
 *   failure and the time it took are recorded, not thrown;
 * - a path whose warm-up took over `SLOW_MS` is timed `SLOW_RUNS` times instead of
 *   `runs` (a 30-second query six times over is minutes and says nothing more).
 * The engine path runs under the sandbox's settings except its time limit, so it reports
 * how long the query really takes.
 */
import { sandboxSettings, type Warehouse } from "@epicenter/warehouse";
import type { DuckDb } from "./duckdb";
import { openProductClient } from "./product-client";
import type { BenchQuery } from "./queries";
import { type Spread, spreadOf } from "./stats";

const ROW_LIMIT = 10_000;
const SLOW_MS = 5_000;
const SLOW_RUNS = 3;
const ORDERS = [
  [0, 1, 2],
  [1, 2, 0],
  [2, 0, 1],
  [0, 2, 1],
  [1, 0, 2],
  [2, 1, 0],
] as const;

export interface PathTiming {
  spread: Spread;
  rows: number;
  /** The last failure's message, when a run failed. */
  error: string | null;
  failures: number;
}

/** A query of the history bench; a diagnostic runs on the engine only. */
export type HistoryQuery = BenchQuery & { engineOnly?: boolean };

export interface HistoryQueryTiming {
  query: HistoryQuery;
  product: PathTiming;
  /** The service's own `execution_time_ms`, for the runs that succeeded. */
  service: Spread;
  engine: PathTiming;
  duckdb: PathTiming;
  /** Rows the engine expects to read (`EXPLAIN ESTIMATE`) and granules kept per table (`EXPLAIN indexes = 1`). */
  profile: { rowsToRead: number; granules: string[] } | null;
}

interface Target {
  baseUrl: string;
  apiKey: string;
  warehouse: Warehouse;
  duck: DuckDb;
}

interface Sample {
  ms: number;
  rows: number;
  error: string | null;
  serviceMs?: number;
}

export async function timeHistoryQueries(
  target: Target,
  queries: readonly HistoryQuery[],
  runs: number,
  log: (line: string) => void,
): Promise<HistoryQueryTiming[]> {
  const engineSettings = sandboxSettings({ maxExecutionSeconds: 600 });
  const client = openProductClient(target.baseUrl, target.apiKey);
  const timed = async (work: () => Promise<Omit<Sample, "ms">>): Promise<Sample> => {
    const started = performance.now();
    try {
      return { ...(await work()), ms: performance.now() - started };
    } catch (error) {
      return {
        ms: performance.now() - started,
        rows: 0,
        error: error instanceof Error ? error.message : String(error),
      };
    }
  };
  const paths = [
    async (sql: string): Promise<Sample> => {
      const answer = await client.run(sql, ROW_LIMIT);
      return {
        ms: answer.ms,
        rows: answer.rows,
        error: answer.error,
        ...(answer.serviceMs === undefined ? {} : { serviceMs: answer.serviceMs }),
      };
    },
    (sql: string) =>
      timed(async () => ({
        rows: (await target.warehouse.query(sql, { settings: engineSettings })).length,
        error: null,
      })),
    (sql: string) => timed(async () => ({ rows: await target.duck.run(sql), error: null })),
  ];

  const results: HistoryQueryTiming[] = [];
  for (const [i, query] of queries.entries()) {
    const sql = [query.clickhouse, query.clickhouse, query.duckdb];
    const samples: Sample[][] = [[], [], []];
    // A path not run has no samples: its spread is empty (NaN).
    const wanted = query.engineOnly ? [0, runs, 0] : [runs, runs, runs];
    for (let round = -1; round < Math.max(...wanted); round += 1) {
      const order = ORDERS[(((round + i) % ORDERS.length) + ORDERS.length) % ORDERS.length] as readonly number[];
      for (const path of order) {
        if (round >= (wanted[path] as number) || (wanted[path] === 0 && round < 0)) continue;
        const sample = await (paths[path] as (sql: string) => Promise<Sample>)(sql[path] as string);
        if (round < 0) {
          if (sample.ms > SLOW_MS) wanted[path] = Math.min(runs, SLOW_RUNS);
          (samples[path] as Sample[]).push({ ...sample, ms: Number.NaN });
        } else (samples[path] as Sample[]).push(sample);
      }
      log(`  ${query.id} round ${round < 0 ? "warm-up" : round + 1} done`);
    }
    const pathTiming = (list: Sample[]): PathTiming => {
      const timedRuns = list.filter((s) => !Number.isNaN(s.ms));
      const failed = list.filter((s) => s.error !== null);
      return {
        spread: spreadOf(timedRuns.map((s) => s.ms)),
        rows: list.at(-1)?.rows ?? 0,
        error: failed.at(-1)?.error ?? null,
        failures: failed.length,
      };
    };
    const product = samples[0] as Sample[];
    results.push({
      query,
      product: pathTiming(product),
      service: spreadOf(
        product.filter((s) => !Number.isNaN(s.ms) && s.serviceMs !== undefined).map((s) => s.serviceMs as number),
      ),
      engine: pathTiming(samples[1] as Sample[]),
      duckdb: pathTiming(samples[2] as Sample[]),
      profile: await profile(target.warehouse, query.clickhouse),
    });
  }
  client.close();
  return results;
}

async function profile(warehouse: Warehouse, sql: string): Promise<HistoryQueryTiming["profile"]> {
  try {
    const granules = new Map<string, string>();
    let table = "";
    for (const { explain } of await warehouse.query<{ explain: string }>(`EXPLAIN indexes = 1 ${sql}`)) {
      const named = /ReadFromMergeTree \(([\w.]+)\)/.exec(explain)?.[1];
      if (named) table = named;
      const kept = /Granules: (\d+\/\d+)/.exec(explain)?.[1];
      // The last figure per table is the most refined (partition, then primary key).
      if (kept && table) granules.set(table, `${table} ${kept}`);
    }
    const estimate = await warehouse.query<{ rows: string }>(`EXPLAIN ESTIMATE ${sql}`);
    return {
      rowsToRead: estimate.reduce((total, row) => total + Number(row.rows), 0),
      granules: [...granules.values()],
    };
  } catch {
    return null;
  }
}
