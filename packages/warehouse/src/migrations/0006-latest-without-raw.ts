import { onCluster, storageTable } from "../ddl";
import type { WarehouseMigration } from "./types";

/**
 * The latest-state tables (`*_latest`) without `raw`: the upstream object lives in the
 * snapshot tables, once per snapshot, and the latest tables keep the typed columns that
 * the current-state questions read.
 *
 * Why: every run writes each object twice, once to its snapshot table and once to its
 * latest table, and `raw` is four fifths of a row's bytes (a Polymarket market is ~3.4 KB
 * of JSON). Measured on a 150,000-market snapshot (`npm run bench -- --only ingest`,
 * chDB 26.7, 2 cores): copying `raw` into the latest tables took about a third of the
 * run's engine time. No query of the product read `*_latest.raw`; a market's newest
 * object is `SELECT raw FROM polymarket.markets WHERE id = … ORDER BY sync_timestamp DESC
 * LIMIT 1`.
 *
 * On a cluster the column goes from the storage tables and from the Distributed tables.
 */
const LATEST_TABLES = [
  { database: "polymarket", table: "events_latest" },
  { database: "polymarket", table: "markets_latest" },
  { database: "kalshi", table: "events_latest" },
  { database: "kalshi", table: "markets_latest" },
] as const;

export const latestWithoutRaw: WarehouseMigration = {
  version: 6,
  name: "latest-state tables without raw",
  statements: (ctx) =>
    LATEST_TABLES.flatMap(({ database, table }) => [
      `ALTER TABLE ${storageTable(ctx, database, table)}${onCluster(ctx)} DROP COLUMN IF EXISTS raw`,
      ...(ctx.cluster ? [`ALTER TABLE ${database}.${table}${onCluster(ctx)} DROP COLUMN IF EXISTS raw`] : []),
    ]),
};
