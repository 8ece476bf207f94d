import { onCluster } from "../ddl";
import type { WarehouseMigration } from "./types";

/**
 * The coverage ledger per market and UTC day, both sides: `coverage_days` (migration 16)
 * gains the history stored for each day beside the snapshots — price points or candles at
 * each fidelity, trades, the day's first and last point — and, on Kalshi, the contracts
 * the stored trades add up to beside the venue's own count of them that day (the hourly
 * candles' volume, attributed to the day each hour begins). A day with history and no
 * snapshot (history from before the install) is there too, with no snapshots.
 *
 * Still views: each side is grouped by (day, market), the sides stacked (`UNION ALL`) and
 * summed per (day, market), so a filter on the market or the day reaches every side's
 * read and a question about one market reads only its ranges (joined sides would read
 * every market's). Counts need no `FINAL`: the history worker stores a point once.
 * Contracts are Float64 (Kalshi's fractional counts); the other counts are UInt64.
 */
/** Columns of contracts, fractional on Kalshi; the others count rows. */
const CONTRACTS = new Set(["contracts_traded", "venue_contracts"]);

/** One venue's view: each side grouped by (day, market), stacked, and summed per (day, market). */
function view(
  database: string,
  key: string,
  columns: readonly string[],
  sides: ReadonlyArray<{ from: string; day: string; values: Record<string, string>; first?: string; last?: string }>,
): string {
  const all = ["snapshots", ...columns];
  const branches = [
    {
      from: `${database}.markets`,
      day: "toDate(sync_timestamp)",
      values: { snapshots: "count()" } as Record<string, string>,
    },
    ...sides,
  ].map(
    (side) =>
      `SELECT ${side.day} AS day, ${key}, ${all.map((column) => `toFloat64(${side.values[column] ?? "0"}) AS ${column}`).join(", ")},
       ${"first" in side ? `toNullable(${side.first})` : "CAST(NULL AS Nullable(DateTime('UTC')))"} AS first,
       ${"last" in side ? `toNullable(${side.last})` : "CAST(NULL AS Nullable(DateTime('UTC')))"} AS last
     FROM ${side.from} GROUP BY day, ${key}`,
  );
  const counts = all.map((column) =>
    CONTRACTS.has(column) ? `sum(${column}) AS ${column}` : `toUInt64(sum(${column})) AS ${column}`,
  );
  return `
SELECT m.day AS day, m.${key} AS ${key}, m.snapshots AS snapshots, v.snapshots AS venue_snapshots,
       ${columns.map((column) => `m.${column} AS ${column}`).join(", ")}, m.first_point AS first_point, m.last_point AS last_point
FROM (
  SELECT day, ${key}, ${counts.join(", ")}, min(first) AS first_point, max(last) AS last_point
  FROM (${branches.join(" UNION ALL ")})
  GROUP BY day, ${key}
) AS m
LEFT JOIN (SELECT toDate(sync_timestamp) AS day, uniqExact(sync_timestamp) AS snapshots FROM ${database}.markets GROUP BY day) AS v
ON v.day = m.day`;
}

const polymarket = view(
  "polymarket",
  "id",
  ["price_points_minute", "price_points_hour", "trades"],
  [
    {
      from: "polymarket.prices",
      day: "toDate(ts)",
      values: {
        price_points_minute: "countIf(fidelity_minutes = 1)",
        price_points_hour: "countIf(fidelity_minutes = 60)",
      },
      first: "min(ts)",
      last: "max(ts)",
    },
    { from: "polymarket.trades", day: "toDate(ts)", values: { trades: "count()" }, first: "min(ts)", last: "max(ts)" },
  ],
);

const kalshi = view(
  "kalshi",
  "ticker",
  ["candles_minute", "candles_hour", "trades", "contracts_traded", "venue_contracts"],
  [
    {
      from: "kalshi.candles",
      day: "toDate(end_period_ts - period_minutes * 60)",
      values: {
        candles_minute: "countIf(period_minutes = 1)",
        candles_hour: "countIf(period_minutes = 60)",
        venue_contracts: "sumIf(coalesce(volume, 0), period_minutes = 60)",
      },
      first: "min(end_period_ts)",
      last: "max(end_period_ts)",
    },
    {
      from: "kalshi.trades",
      day: "toDate(created_time)",
      values: { trades: "count()", contracts_traded: "sum(count)" },
      first: "toDateTime(min(created_time), 'UTC')",
      last: "toDateTime(max(created_time), 'UTC')",
    },
  ],
);

export const coverageDaysHistory: WarehouseMigration = {
  version: 17,
  name: "the coverage ledger's history per market and day",
  statements: (ctx) => [
    `CREATE OR REPLACE VIEW polymarket.coverage_days${onCluster(ctx)} AS ${polymarket}`,
    `CREATE OR REPLACE VIEW kalshi.coverage_days${onCluster(ctx)} AS ${kalshi}`,
  ],
};
