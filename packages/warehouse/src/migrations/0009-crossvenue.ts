import { createDatabase, createTable, type TableSpec } from "../ddl";
import type { WarehouseMigration } from "./types";

/**
 * The same question on both venues: `crossvenue.market_pairs`, one row per matched
 * Polymarket market and Kalshi market, and `crossvenue.event_pairs`, the events that hold
 * them. Written by the matcher after each snapshot (`packages/ingest/src/crossvenue/`) and
 * by an admin's review; read by researchers and the arbitrage dashboard.
 *
 * A pair's row is replaced, not appended: `ReplacingMergeTree(updated_at)` on the pair,
 * so `FINAL` is its current state. `method` says who decided (`auto`, or an admin's
 * `confirmed` / `rejected`); the matcher never overwrites an admin's decision. Only
 * `same_contract` pairs that are not rejected feed the arbitrage figures.
 */
const ts = "DateTime64(3, 'UTC')";

export const CROSSVENUE_TABLES: readonly TableSpec[] = [
  {
    database: "crossvenue",
    name: "market_pairs",
    columns: [
      "polymarket_id String",
      "kalshi_ticker String",
      "polymarket_event_id String",
      "kalshi_event_ticker String",
      "relation LowCardinality(String)",
      "orientation LowCardinality(String)",
      "score Float32",
      "method LowCardinality(String)",
      "reasons Array(String)",
      `matched_at ${ts}`,
      "reviewed_by Nullable(String)",
      `updated_at ${ts}`,
    ],
    engine: { kind: "ReplacingMergeTree", version: "updated_at" },
    orderBy: "(polymarket_id, kalshi_ticker)",
    shardBy: "cityHash64(polymarket_id)",
  },
  {
    database: "crossvenue",
    name: "event_pairs",
    columns: [
      "polymarket_event_id String",
      "kalshi_event_ticker String",
      "market_pairs UInt32",
      "same_contract_pairs UInt32",
      "score Float32",
      `matched_at ${ts}`,
      `updated_at ${ts}`,
    ],
    engine: { kind: "ReplacingMergeTree", version: "updated_at" },
    orderBy: "(polymarket_event_id, kalshi_event_ticker)",
    shardBy: "cityHash64(polymarket_event_id)",
  },
];

export const crossVenue: WarehouseMigration = {
  version: 9,
  name: "cross-venue market and event pairs",
  statements: (ctx) => [
    createDatabase(ctx, "crossvenue"),
    ...CROSSVENUE_TABLES.flatMap((spec) => createTable(ctx, spec)),
  ],
};
