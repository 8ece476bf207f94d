import { createDatabase, createTable } from "../ddl";
import type { WarehouseMigration } from "./types";

/** The three namespaces and the bookkeeping the sync keeps in `internal`. */
export const namespaces: WarehouseMigration = {
  version: 1,
  name: "namespaces and sync bookkeeping",
  statements: (ctx) => [
    createDatabase(ctx, "polymarket"),
    createDatabase(ctx, "kalshi"),
    createDatabase(ctx, "internal"),
    ...createTable(ctx, {
      database: "internal",
      name: "sync_run_history",
      columns: [
        "run_id String",
        "source LowCardinality(String)",
        "kind LowCardinality(String) DEFAULT 'snapshot'",
        "started_at DateTime64(3, 'UTC')",
        "finished_at Nullable(DateTime64(3, 'UTC'))",
        "duration_ms UInt64",
        "events_written UInt64",
        "markets_written UInt64",
        "success Bool",
        "error Nullable(String)",
        // The run's one snapshot time: what a cleanup deletes if the run never finishes.
        "sync_timestamp Nullable(DateTime64(3, 'UTC'))",
        "objects_skipped UInt64 DEFAULT 0",
        // 0 = the start marker written before the first batch, 1 = the final outcome.
        "revision UInt8 DEFAULT 1",
      ],
      // A run is written twice (start marker, then outcome); FINAL keeps the outcome, and
      // a start marker with no outcome is a run that was killed mid-way.
      engine: { kind: "ReplacingMergeTree", version: "revision" },
      orderBy: "(source, started_at, run_id)",
    }),
    // Where each backfill stands, one row per (source, event type); the newest wins.
    ...createTable(ctx, {
      database: "internal",
      name: "backfill_state",
      columns: [
        "source LowCardinality(String)",
        "event_type LowCardinality(String)",
        "position String",
        "offset UInt64",
        "done Bool",
        "updated_at DateTime64(3, 'UTC')",
      ],
      engine: { kind: "ReplacingMergeTree", version: "updated_at" },
      orderBy: "(source, event_type)",
    }),
  ],
};
