import { onCluster } from "../ddl";
import type { WarehouseMigration } from "./types";

/**
 * `polymarket.coverage_days` and `kalshi.coverage_days`: the snapshot side of the coverage
 * ledger, per UTC day and market — how many snapshots of the market are stored, beside how
 * many snapshots of the venue were taken that day. A market open all day is in every one
 * of them; fewer means it opened or closed that day, or a run missed it.
 *
 * Views over the snapshot tables, not tables: the per-market count is the `market_day`
 * projection's (migration 5), so the whole archive's days are a projection read, and the
 * venue's count reads one timestamp column. A change is a new migration that replaces them.
 */
const VENUES = [
  { database: "polymarket", key: "id" },
  { database: "kalshi", key: "ticker" },
] as const;

export const coverageDays: WarehouseMigration = {
  version: 16,
  name: "the coverage ledger's snapshots per market and day",
  statements: (ctx) =>
    VENUES.map(
      ({ database, key }) =>
        `CREATE OR REPLACE VIEW ${database}.coverage_days${onCluster(ctx)} AS
SELECT m.day AS day, m.${key} AS ${key}, m.snapshots AS snapshots, v.snapshots AS venue_snapshots
FROM (SELECT toDate(sync_timestamp) AS day, ${key}, count() AS snapshots FROM ${database}.markets GROUP BY day, ${key}) AS m
INNER JOIN (SELECT toDate(sync_timestamp) AS day, uniqExact(sync_timestamp) AS snapshots FROM ${database}.markets GROUP BY day) AS v
ON v.day = m.day`,
    ),
};
