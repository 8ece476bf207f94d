import { createTable, type TableSpec } from "../ddl";
import type { WarehouseMigration } from "./types";

/**
 * The coverage ledger users query: `polymarket.coverage` and `kalshi.coverage`, one row per
 * market the history worker has reached (the newest after FINAL), written with its state
 * each time a step ends for it. What it says:
 * - `state`: `complete` (a closed market's whole life is in), `current` (an open market
 *   brought up to date at `updated_at`, refreshed every `refresh_minutes` by its activity),
 *   or `upstream error` (the venue answered its requests with `error`; tried again at
 *   `retry_at`);
 * - `history_until`: up to when its prices or candles and its trades are stored;
 * - `venue_has_none`: its whole life was asked for and the venue had no point of it;
 * - `points`, `last_trade`.
 * A market the archive knows (`<venue>.markets_latest`) with no row here is not reached yet.
 * Kalshi's trades after the tape's start come from the exchange-wide tape, whatever the row.
 */
const coverage = (database: string, key: string): TableSpec => ({
  database,
  name: "coverage",
  columns: [
    `${key} String`,
    "is_open Bool",
    "state LowCardinality(String)",
    "history_until DateTime('UTC')",
    "venue_has_none Bool",
    "points UInt64",
    "last_trade Nullable(DateTime('UTC'))",
    "refresh_minutes UInt16",
    "error String",
    "failures UInt16",
    "retry_at Nullable(DateTime('UTC'))",
    "updated_at DateTime64(3, 'UTC')",
  ],
  engine: { kind: "ReplacingMergeTree", version: "updated_at" },
  orderBy: key,
  shardBy: `cityHash64(${key})`,
});

export const COVERAGE_TABLES = [coverage("polymarket", "id"), coverage("kalshi", "ticker")] as const;

export const coverageLedger: WarehouseMigration = {
  version: 15,
  name: "the coverage ledger: where each market's history stands, in the venues' databases",
  statements: (ctx) => COVERAGE_TABLES.flatMap((spec) => createTable(ctx, spec)),
};
