/**
 * Live platform statistics (`GET /api/stats`, SPEC §1 "Stated statistics" and §7 `/stats`),
 * computed from the warehouse on every call rather than stated: distinct markets across
 * both venues, freshness as the time since the last successful snapshot run, the archive's
 * first snapshot, and per-venue counts (including the markets that never traded, which
 * the docs quote instead of a hard-coded share).
 *
 * These are fixed system queries over `internal.sync_run_history` as well as the market
 * tables, so they run on the app's warehouse connection with no user input, not through
 * the user-SQL sandbox (which must never read `internal`). Distinct counts read the
 * latest-state tables without FINAL: `uniqExact(key)` is the same number and skips the
 * merge.
 */
import type { PlatformStats, SourceStats } from "@epicenter/contracts";
import type { Warehouse } from "@epicenter/warehouse";

export interface PlatformStatsDeps {
  warehouse: Warehouse;
  clock: () => Date;
}

type Counts = Record<string, string | number | null>;

const SOURCE_COUNTS = {
  polymarket: `SELECT
      (SELECT uniqExact(id) FROM polymarket.markets_latest) AS markets,
      (SELECT uniqExact(id) FROM polymarket.events_latest) AS events,
      (SELECT countIf(NOT ifNull(closed, false)) FROM polymarket.markets_latest FINAL) AS open_markets,
      (SELECT countIf(ifNull(volume, 0) = 0) FROM polymarket.markets_latest FINAL) AS zero_volume_markets`,
  kalshi: `SELECT
      (SELECT uniqExact(ticker) FROM kalshi.markets_latest) AS markets,
      (SELECT uniqExact(event_ticker) FROM kalshi.events_latest) AS events,
      (SELECT countIf(status = 'active') FROM kalshi.markets_latest FINAL) AS open_markets,
      (SELECT countIf(ifNull(volume, 0) = 0) FROM kalshi.markets_latest FINAL) AS zero_volume_markets`,
} as const;

const ARCHIVE = `SELECT
    (SELECT sum(total_rows) FROM system.tables
      WHERE database IN ('polymarket', 'kalshi') AND name IN ('events', 'markets')) AS snapshot_rows,
    (SELECT least(
        (SELECT ifNull(min(sync_timestamp), toDateTime64('2106-01-01 00:00:00', 3, 'UTC')) FROM polymarket.markets),
        (SELECT ifNull(min(sync_timestamp), toDateTime64('2106-01-01 00:00:00', 3, 'UTC')) FROM kalshi.markets))) AS archive_start,
    (SELECT count() FROM polymarket.markets) + (SELECT count() FROM kalshi.markets) AS market_rows`;

const LAST_SYNCS = `SELECT source, toString(max(finished_at)) AS last_sync
    FROM internal.sync_run_history FINAL
    WHERE kind = 'snapshot' AND revision = 1 AND success
    GROUP BY source`;

const toIso = (value: string | null | undefined): string | null =>
  value ? `${value.replace(" ", "T").replace(/(\.\d+)?$/, (fraction) => fraction || ".000")}Z` : null;

export async function getPlatformStats(deps: PlatformStatsDeps): Promise<PlatformStats> {
  const [polymarket, kalshi, archive, syncs] = await Promise.all([
    deps.warehouse.query<Counts>(SOURCE_COUNTS.polymarket),
    deps.warehouse.query<Counts>(SOURCE_COUNTS.kalshi),
    deps.warehouse.query<{ snapshot_rows: string | null; archive_start: string; market_rows: string }>(ARCHIVE),
    deps.warehouse.query<{ source: string; last_sync: string }>(LAST_SYNCS),
  ]);
  const lastSyncOf = (source: string) => toIso(syncs.find((row) => row.source === source)?.last_sync);
  const bySource = {
    polymarket: sourceStats(polymarket[0], lastSyncOf("polymarket")),
    kalshi: sourceStats(kalshi[0], lastSyncOf("kalshi")),
  };
  const lastSync = [bySource.polymarket.last_sync, bySource.kalshi.last_sync]
    .filter((value): value is string => value !== null)
    .sort()
    .at(-1);
  const now = deps.clock();
  const hasRows = Number(archive[0]?.market_rows ?? 0) > 0;
  return {
    timestamp: now.toISOString(),
    markets_tracked: bySource.polymarket.markets + bySource.kalshi.markets,
    events_tracked: bySource.polymarket.events + bySource.kalshi.events,
    snapshot_rows: Number(archive[0]?.snapshot_rows ?? 0),
    freshness_seconds: lastSync ? Math.max(0, Math.round((now.getTime() - Date.parse(lastSync)) / 1000)) : null,
    last_sync: lastSync ?? null,
    archive_start: hasRows ? toIso(archive[0]?.archive_start) : null,
    sources: 2,
    by_source: bySource,
  };
}

function sourceStats(row: Counts | undefined, lastSync: string | null): SourceStats {
  const count = (name: string) => Number(row?.[name] ?? 0);
  return {
    markets: count("markets"),
    events: count("events"),
    open_markets: count("open_markets"),
    zero_volume_markets: count("zero_volume_markets"),
    last_sync: lastSync,
  };
}
