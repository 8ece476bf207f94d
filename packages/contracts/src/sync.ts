/**
 * `GET /api/sync/status` (and `GET /sync/status`): where each source's archive stands
 * (SPEC §3 "Sync status"). Built by `getSyncStatus` in `@epicenter/ingest`.
 */
import { z } from "zod";
import { ZVenue } from "./venues";

/** The sources the archive syncs: one per venue. */
export const ZSyncSourceName = ZVenue;
export type SyncSourceName = z.infer<typeof ZSyncSourceName>;

export const ZSourceSyncStatus = z.enum(["syncing", "idle", "error", "backfilling"]);
export type SourceSyncStatus = z.infer<typeof ZSourceSyncStatus>;

export const ZSyncRun = z.object({
  run_id: z.string(),
  source: ZSyncSourceName,
  duration_ms: z.number().int().nonnegative(),
  events_written: z.number().int().nonnegative(),
  markets_written: z.number().int().nonnegative(),
  success: z.boolean(),
});
export type SyncRun = z.infer<typeof ZSyncRun>;

export const ZHistoryProgress = z.object({
  /** Closed markets with their whole life in, and open markets refreshed lately. */
  markets_done: z.number().int().nonnegative(),
  /** Markets the archive knows (snapshots and backfill) that have a history to fetch. */
  markets_known: z.number().int().nonnegative(),
  /** Markets whose last step failed at the venue (a delisted ticker's 404, say), tried again later. */
  markets_failing: z.number().int().nonnegative(),
  /** Open markets the archive knows. */
  open_markets: z.number().int().nonnegative(),
  /**
   * Open markets whose history is current at full fidelity: refreshed within their tier
   * of the schedule (10 minutes while trading, hourly after a day's trading, daily else).
   */
  open_markets_current: z.number().int().nonnegative(),
  /**
   * The open market furthest behind its schedule: its history is stored up to `since` (its
   * open when never fetched), and why it is behind; null when every open market is current.
   */
  oldest_gap: z
    .object({
      market: z.string(),
      since: z.iso.datetime(),
      reason: z.enum(["not reached yet", "upstream error", "refresh due"]),
    })
    .nullable(),
  /** Price points, candles and trades stored. */
  points_stored: z.number().int().nonnegative(),
  /** ISO 8601 time of the oldest stored point, null before the first. */
  oldest_point: z.iso.datetime().nullable(),
  /**
   * ISO 8601 time up to which every trade of the exchange is stored, from the venue's
   * exchange-wide trade tape; null where the venue's trades come market by market.
   */
  trades_complete_until: z.iso.datetime().nullable(),
  markets_per_minute: z.number().nonnegative(),
  /** At the last hour's pace; null while nothing has been fetched lately. */
  estimated_seconds_left: z.number().int().nonnegative().nullable(),
});
export type HistoryProgress = z.infer<typeof ZHistoryProgress>;

export const ZLiveFeed = z.object({
  connections: z.number().int().nonnegative(),
  open: z.number().int().nonnegative(),
  messages: z.number().int().nonnegative(),
  book_changes: z.number().int().nonnegative(),
  trades: z.number().int().nonnegative(),
  /** Of those, the trades new to the venue's tape (the others it held already, from REST). */
  trades_stored: z.number().int().nonnegative(),
  gaps: z.number().int().nonnegative(),
  reconnects: z.number().int().nonnegative(),
  signed: z.boolean(),
  /** What this capture does not take (Kalshi's books without a key), or null. */
  not_captured: z.string().nullable(),
});
export type LiveFeed = z.infer<typeof ZLiveFeed>;

export const ZSourceSync = z.object({
  status: ZSourceSyncStatus,
  is_backfilling: z.boolean(),
  /** Event type → objects backfilled so far. */
  backfill_offsets: z.record(z.string(), z.number().int().nonnegative()),
  open_events_tracked: z.number().int().nonnegative(),
  /** ISO 8601 time of the last successful snapshot, null before the first. */
  last_sync: z.iso.datetime().nullable(),
  events_count: z.number().int().nonnegative(),
  markets_count: z.number().int().nonnegative(),
  recent_runs: z.array(ZSyncRun),
  /** The price, candle and trade history (`polymarket.prices`, `kalshi.candles`, the trades). */
  history: ZHistoryProgress,
  /**
   * Each of the venue's rate limits by host, as measured at the client: the share of the
   * venue's own limit the last minute used (0–1). Empty where no scheduler runs here.
   */
  limits_used: z.record(z.string(), z.number().nonnegative()),
  /**
   * The venue's live feed as the capture follows it (`SYNC_WORKERS` live): sockets, what
   * they read, the gaps opened in `<venue>.stream_gaps`, and what an unsigned connection
   * does not capture. Null where no capture runs here (or before the first snapshot).
   */
  live_feed: ZLiveFeed.nullable(),
});
export type SourceSync = z.infer<typeof ZSourceSync>;

export const ZSyncStatusResponse = z.object({
  timestamp: z.iso.datetime(),
  /** One entry per venue. */
  sources: z.record(ZVenue, ZSourceSync),
  /** `namespace.table` → rows. */
  table_counts: z.record(z.string(), z.number().int().nonnegative()),
});
export type SyncStatusResponse = z.infer<typeof ZSyncStatusResponse>;
