/**
 * Where an exchange-wide feed stands (`internal.feed_state`, warehouse migration 13): a
 * venue's whole trade tape walked page by page instead of one market at a time.
 *
 * A feed is walked in spans. A span `[from, to]` is fixed when its walk begins (`to` a
 * second already past, so nothing new can enter it) and written down before the first
 * page; the walk pages back through it, newest first, and after each page's rows are in,
 * the cursor of the next page is written down. When the walk ends the feed is complete up
 * to `to` (`reached`), and the next span starts a second later. A walk killed anywhere
 * resumes from its span and cursor; the one page that may have been stored without its
 * cursor being written is fetched again and its rows, found stored, left out.
 */
import { toDateTime64, type Warehouse } from "@epicenter/warehouse";

export interface FeedState {
  /** The span of the current (or last) walk, Unix seconds, both inclusive. */
  windowFrom: number;
  windowTo: number;
  /** The next page of the current walk; '' before its first page, and once it ended. */
  cursor: string;
  /** The feed is complete up to this second; 0 before its first walk ended. */
  reached: number;
  /** The first second the feed covers: before it, history comes market by market. */
  started: number;
  pages: number;
  rows: number;
}

/** What one walk of a tape did. */
export interface TapeOutcome {
  pages: number;
  /** Trades written. */
  rows: number;
  skipped: number;
  /** The tape is complete up to this second. */
  reached: number;
  /** The first second it covers: earlier trades come market by market. */
  started: number;
  /** Whether the walk caught up with the last whole second. */
  caughtUp: boolean;
}

export interface StoredFeedState extends FeedState {
  /** Epoch ms of the write. */
  updatedAt: number;
}

export async function readFeedState(
  warehouse: Warehouse,
  source: string,
  feed: string,
): Promise<StoredFeedState | null> {
  const [row] = await warehouse.query<{
    window_from: number;
    window_to: number;
    cursor: string;
    reached: number;
    started: number;
    pages: string;
    rows: string;
    updated_at: string;
  }>(
    `SELECT window_from, window_to, cursor, reached, started, pages, rows,
            toUnixTimestamp64Milli(updated_at) AS updated_at
     FROM internal.feed_state FINAL
     WHERE source = {source:String} AND feed = {feed:String}`,
    { params: { source, feed } },
  );
  if (!row) return null;
  return {
    windowFrom: Number(row.window_from),
    windowTo: Number(row.window_to),
    cursor: row.cursor,
    reached: Number(row.reached),
    started: Number(row.started),
    pages: Number(row.pages),
    rows: Number(row.rows),
    updatedAt: Number(row.updated_at),
  };
}

/**
 * Writes `state`. Rows of one feed are ordered by `updated_at`, which must grow with each
 * write, across processes too: a walk writes many times a second, so it is the later of
 * now and the last write (`after`, the stored state's, at first) plus a millisecond.
 */
export function feedStateWriter(warehouse: Warehouse, source: string, feed: string, now: () => number, after = 0) {
  let last = after;
  return async (state: FeedState): Promise<void> => {
    last = Math.max(now(), last + 1);
    await warehouse.insert("internal.feed_state", [
      {
        source,
        feed,
        window_from: state.windowFrom,
        window_to: state.windowTo,
        cursor: state.cursor,
        reached: state.reached,
        started: state.started,
        pages: state.pages,
        rows: state.rows,
        updated_at: toDateTime64(last),
      },
    ]);
  };
}

/** A tape's name in `internal.feed_state`. */
export interface FeedName {
  source: string;
  feed: string;
}

/**
 * Where a tape stands, and the writer of its state: the stored state, or a new tape that
 * starts after `lastSecond` (written down at once, so its start holds across restarts);
 * with the outcome a walk starts from.
 */
export async function openTape(
  warehouse: Warehouse,
  name: FeedName,
  lastSecond: number,
  now: () => number,
): Promise<{ state: FeedState; write: (state: FeedState) => Promise<void>; outcome: TapeOutcome }> {
  const stored = await readFeedState(warehouse, name.source, name.feed);
  const write = feedStateWriter(warehouse, name.source, name.feed, now, stored?.updatedAt);
  const state: FeedState = stored ?? {
    windowFrom: lastSecond + 1,
    windowTo: lastSecond,
    cursor: "",
    reached: lastSecond,
    started: lastSecond + 1,
    pages: 0,
    rows: 0,
  };
  if (!stored) await write(state);
  const outcome = { pages: 0, rows: 0, skipped: 0, reached: state.reached, started: state.started, caughtUp: false };
  return { state, write, outcome };
}

/** Where a tape starts (Unix seconds), or null before its first walk. */
export async function tapeStart(warehouse: Warehouse, name: FeedName): Promise<number | null> {
  return (await readFeedState(warehouse, name.source, name.feed))?.started ?? null;
}
