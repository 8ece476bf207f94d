/**
 * Live platform statistics (`GET /api/stats`, SPEC §1 "Stated statistics" and §7 `/stats`),
 * computed from the warehouse on every call rather than stated: distinct markets across
 * both venues, freshness as the time since the last successful snapshot run, the archive's
 * first snapshot, and per-venue counts (including the markets that never traded, which
 * the docs quote instead of a hard-coded share).
 *
 * These are fixed system queries over `internal.sync_run_history` as well as the market
 * tables, so they run on the app's warehouse connection with no user input, not through
 * the user-SQL sandbox (which must never read `internal`). Each venue's counts are its
 * reader's (`services/venues/`).
 */
import type { PlatformStats, SourceStats, Venue } from "@epicenter/contracts";
import { isoTimeOf, type Warehouse } from "@epicenter/warehouse";
import { venueReaders } from "../venues";

export interface PlatformStatsDeps {
  warehouse: Warehouse;
  clock: () => Date;
}

type Counts = Record<string, string | number | null>;

/** Snapshot rows of every venue, when the archive starts, and whether it holds any market row. */
const ARCHIVE = (() => {
  const databases = venueReaders().map((reader) => reader.facts.database);
  const first = (database: string) =>
    `(SELECT ifNull(min(sync_timestamp), toDateTime64('2106-01-01 00:00:00', 3, 'UTC')) FROM ${database}.markets)`;
  return `SELECT
    (SELECT sum(total_rows) FROM system.tables
      WHERE database IN (${databases.map((database) => `'${database}'`).join(", ")}) AND name IN ('events', 'markets')) AS snapshot_rows,
    (SELECT least(${databases.map(first).join(", ")})) AS archive_start,
    ${databases.map((database) => `(SELECT count() FROM ${database}.markets)`).join(" + ")} AS market_rows`;
})();

const LAST_SYNCS = `SELECT source, max(finished_at) AS last_sync
    FROM internal.sync_run_history FINAL
    WHERE kind = 'snapshot' AND revision = 1 AND success
    GROUP BY source`;

export async function getPlatformStats(deps: PlatformStatsDeps): Promise<PlatformStats> {
  const readers = venueReaders();
  const [counts, archive, syncs] = await Promise.all([
    Promise.all(readers.map((reader) => deps.warehouse.query<Counts>(reader.counts))),
    deps.warehouse.query<{ snapshot_rows: string | null; archive_start: string; market_rows: string }>(ARCHIVE),
    deps.warehouse.query<{ source: string; last_sync: string }>(LAST_SYNCS),
  ]);
  const lastSyncOf = (source: string) => isoTimeOf(syncs.find((row) => row.source === source)?.last_sync);
  const bySource = Object.fromEntries(
    readers.map((reader, index) => [reader.venue, sourceStats(counts[index]?.[0], lastSyncOf(reader.venue))]),
  ) as Record<Venue, SourceStats>;
  const venues = Object.values(bySource);
  const lastSync = venues
    .map((venue) => venue.last_sync)
    .filter((value): value is string => value !== null)
    .sort()
    .at(-1);
  const now = deps.clock();
  const hasRows = Number(archive[0]?.market_rows ?? 0) > 0;
  return {
    timestamp: now.toISOString(),
    markets_tracked: venues.reduce((total, venue) => total + venue.markets, 0),
    events_tracked: venues.reduce((total, venue) => total + venue.events, 0),
    snapshot_rows: Number(archive[0]?.snapshot_rows ?? 0),
    freshness_seconds: lastSync ? Math.max(0, Math.round((now.getTime() - Date.parse(lastSync)) / 1000)) : null,
    last_sync: lastSync ?? null,
    archive_start: hasRows ? isoTimeOf(archive[0]?.archive_start) : null,
    sources: readers.length,
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
