import { createTable, type TableSpec } from "../ddl";
import type { WarehouseMigration } from "./types";

/**
 * `internal.matcher_runs`: one row per cross-venue matcher run, what it read and wrote.
 * `pass` is `full` (every open market against every open market), `new` (the markets
 * created since the last run) or `closed` (one window of close dates of the one-time pass
 * over closed markets); the `closed` rows are where that pass stands, so it resumes
 * after a restart at the window after the last one recorded, and stops once `done`.
 */
export const MATCHER_RUNS_TABLE: TableSpec = {
  database: "internal",
  name: "matcher_runs",
  columns: [
    "started_at DateTime64(3, 'UTC')",
    "pass LowCardinality(String)",
    "closes_from Nullable(DateTime64(3, 'UTC'))",
    "closes_until Nullable(DateTime64(3, 'UTC'))",
    "done Bool",
    "candidates UInt32",
    "same_contract UInt32",
    "related UInt32",
    "written UInt32",
    "retired UInt32",
    "duration_ms UInt32",
  ],
  engine: { kind: "MergeTree" },
  orderBy: "(pass, started_at)",
};

export const matcherRuns: WarehouseMigration = {
  version: 11,
  name: "the log of cross-venue matcher runs",
  statements: (ctx) => createTable(ctx, MATCHER_RUNS_TABLE),
};
