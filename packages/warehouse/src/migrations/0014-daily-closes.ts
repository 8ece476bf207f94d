import { createTable, onCluster, storageTable, type TableSpec } from "../ddl";
import type { WarehouseMigration } from "./types";

/**
 * `polymarket.daily_closes`: each outcome's last price point of each UTC day, fed from
 * `polymarket.prices` by a materialized view as the points arrive, and filled once from
 * what is stored when the migration runs.
 *
 * Whole-archive questions ("the price a day before each resolved market closed") read a
 * row per market-day here instead of every point: measured on 200 M points (docs/
 * BENCHMARKS.md, History), the calibration takes 0.49–0.65 s on this table against 17–18 s
 * on the points, which hash a 77-digit token id per row. The outcome's label is in the
 * key, so a question picks the Yes series without the token id.
 *
 * One row per (id, outcome, day) once merged; an insert block adds its own last point of
 * the day, so before a merge a day may have several rows: read with
 * `argMax(close, last_ts)` (or FINAL), which is exact either way. A point fetched again
 * adds a row equal to one already there. Monthly partitions, like the points.
 */
const DAILY_CLOSES: TableSpec = {
  database: "polymarket",
  name: "daily_closes",
  columns: [
    "id String",
    "outcome LowCardinality(String)",
    "day Date",
    "token_id String CODEC(ZSTD(1))",
    "last_ts DateTime('UTC') CODEC(DoubleDelta, ZSTD(1))",
    "close Float64 CODEC(Gorilla, ZSTD(1))",
  ],
  engine: { kind: "ReplacingMergeTree", version: "last_ts" },
  partitionBy: "toYYYYMM(day)",
  orderBy: "(id, outcome, day)",
  shardBy: "cityHash64(id)",
};

/** Each (id, outcome, day) of a set of points, as its last point. */
const ROLLUP = `SELECT id, outcome, toDate(ts) AS day, any(token_id) AS token_id, max(ts) AS last_ts, argMax(price, ts) AS close`;

export const dailyCloses: WarehouseMigration = {
  version: 14,
  name: "Polymarket's daily closes, a rollup of its price points fed as they arrive",
  statements: (ctx) => {
    const target = storageTable(ctx, "polymarket", "daily_closes");
    const points = storageTable(ctx, "polymarket", "prices");
    return [
      ...createTable(ctx, DAILY_CLOSES),
      // On a cluster each shard rolls up its own points: both tables shard by the market id.
      // The view itself is plumbing, kept out of the venue's database and the catalog.
      `CREATE MATERIALIZED VIEW IF NOT EXISTS internal.polymarket_daily_closes_feed${onCluster(ctx)} TO ${target} AS ${ROLLUP} FROM ${points} GROUP BY id, outcome, day`,
      // What was stored before the view. Run again after an interruption it adds rows equal
      // to those there, which the table folds.
      `INSERT INTO ${ctx.cluster ? "polymarket.daily_closes" : target} ${ROLLUP} FROM polymarket.prices GROUP BY id, outcome, day`,
    ];
  },
};
