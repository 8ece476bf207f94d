/**
 * What a source's run function gets and returns. Each source implements
 * `snapshot(context)` (one pass over its open catalog plus the pending-closed window) and
 * writes pages through `writePage`-style helpers that the backfill reuses.
 */
import type { Warehouse } from "@epicenter/warehouse";
import type { PageFetcher } from "../http/fetch-page";
import type { Logger } from "../logger";
import type { Rejection } from "../rejection";
import type { SnapshotWriter } from "./snapshot-writer";

export interface SourceRunContext {
  warehouse: Warehouse;
  fetchPage: PageFetcher;
  baseUrl: string;
  writer: SnapshotWriter;
  /** The run's one `sync_timestamp`, as warehouse text. */
  syncTimestamp: string;
  /** Wall-clock ms at the run's start (windows such as "closed in the last 7 days"). */
  startedAt: number;
  logger: Logger;
  signal?: AbortSignal;
  /**
   * Where Polymarket snapshot pages are mapped: by the engine over the page text (the
   * default on the embedded engine) or in JavaScript (always on a server, which cannot
   * read our spool files; tests pin it to compare the two).
   */
  mapping?: "engine" | "javascript";
  /** Set by a source that wrote the latest-state tables during the run itself. */
  latestPublished?: boolean;
}

export interface RunCounts {
  pages: number;
  skipped: number;
  combosExcluded: number;
}

export function emptyCounts(): RunCounts {
  return { pages: 0, skipped: 0, combosExcluded: 0 };
}

/** How long after closing an event keeps being captured until its final state is in. */
export const PENDING_CLOSED_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The stated rule for objects that fail validation: skip the object, log it with the
 * page URL and count it. Its page and run go on: the rest of the page is valid data, and
 * one malformed object in 150,000 must not stop the archive. Whole pages that fail (not
 * JSON, no list) are retried and then fail the run, in `http/fetch-page.ts`.
 */
export function reportRejections(ctx: SourceRunContext, url: string, rejections: Rejection[], counts: RunCounts) {
  for (const rejected of rejections) {
    counts.skipped += 1;
    ctx.logger.warn("upstream object failed validation; skipped", { url, ...rejected });
  }
}
