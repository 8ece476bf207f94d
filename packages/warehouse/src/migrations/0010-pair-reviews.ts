import { createTable, type TableSpec } from "../ddl";
import type { WarehouseMigration } from "./types";

/**
 * `internal.pair_reviews`: every admin decision on a cross-venue pair, one row per change
 * (confirm, reject, or a pair made by hand), with who and when. Append-only, so the log
 * keeps each change even after `crossvenue.market_pairs` has replaced the pair's row.
 * It sits in `internal`, out of the reach of user SQL and the catalog: `reviewed_by` is an
 * admin's user id, which researchers have no need to read beside who decided what.
 */
export const PAIR_REVIEWS_TABLE: TableSpec = {
  database: "internal",
  name: "pair_reviews",
  columns: [
    "polymarket_id String",
    "kalshi_ticker String",
    "action LowCardinality(String)",
    "relation LowCardinality(String)",
    "orientation LowCardinality(String)",
    "reviewed_by String",
    "reviewed_at DateTime64(3, 'UTC')",
  ],
  engine: { kind: "MergeTree" },
  orderBy: "(reviewed_at, polymarket_id, kalshi_ticker)",
  shardBy: "cityHash64(polymarket_id)",
};

export const pairReviews: WarehouseMigration = {
  version: 10,
  name: "the log of admins' cross-venue pair reviews",
  statements: (ctx) => createTable(ctx, PAIR_REVIEWS_TABLE),
};
