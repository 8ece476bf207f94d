/**
 * What a venue is to the archive: the `Source` each `sources/<venue>/index.ts` exports,
 * and the run types a source and the frame (`sync/`, `scheduler.ts`, `status.ts`,
 * `demo-history.ts`) share. The frame knows sources only through this shape, so it never
 * asks which venue it runs; a source knows nothing of the frame but what is here.
 *
 * A run hands a source a `SourceRun` (where to read and write, the run's one
 * `sync_timestamp`) and the source answers with its `RunOutcome`; it owns its writers and
 * counters for the length of the call. If it fails it throws, and the frame removes every
 * row of the run (`sync/run-history.ts`).
 */
import type { Warehouse } from "@epicenter/warehouse";
import type { BookAnswer, BookTarget } from "./books";
import type { PageFetcher } from "./http/fetch-page";
import type { RateLimit } from "./http/rate-limiter";
import type { LiveFrame, LiveTrade } from "./live";
import type { Logger } from "./logger";
import type { Rejection } from "./rejection";
import type { CatalogOptions } from "./replay/catalog";
import type { WriterLimits } from "./write/snapshot-writer";
import type { Feed } from "./write/spool";

/**
 * Upstream base URLs by venue, from the server's config (`POLYMARKET_API_URL`,
 * `POLYMARKET_CLOB_URL`, `POLYMARKET_DATA_URL`, `KALSHI_API_URL`): each source reads its own.
 */
export interface IngestConfig {
  polymarket: {
    /** Gamma: events and markets. */
    apiUrl: string;
    /** The CLOB: price history. */
    clobUrl: string;
    /** The Data API: trades. */
    dataUrl: string;
    /** The CLOB's market channel (`POLYMARKET_WS_URL`): the live feed. */
    wsUrl?: string;
  };
  kalshi: {
    /** The Trade API v2: events, markets, candles and trades. */
    apiUrl: string;
    /**
     * The account tier's read tokens per second (`KALSHI_RATE_TOKENS_PER_SECOND`; Basic 200,
     * Advanced 300, Premier 1,000, …); Basic when absent.
     */
    rateTokensPerSecond?: number;
    /** The Trade API's WebSocket (`KALSHI_WS_URL`): the live feed. */
    wsUrl?: string;
    /**
     * The operator's API key (`KALSHI_API_KEY_ID`) and its private key's PEM (read from
     * `KALSHI_PRIVATE_KEY_PATH`): the live feed's upgrade is signed with them. Without
     * them the feed is unsigned, and Kalshi's order books are not captured live.
     */
    credentials?: { keyId: string; privateKey: string };
  };
}

/** A snapshot table of a source (`<source>.<name>`), with its latest-state twin `<name>_latest`. */
export interface SnapshotTableRef {
  database: string;
  name: "events" | "markets";
  key: string;
}

export interface SourceRun {
  warehouse: Warehouse;
  fetchPage: PageFetcher;
  baseUrl: string;
  /** The run's one `sync_timestamp`, as warehouse text. */
  syncTimestamp: string;
  /** Wall-clock ms at the run's start (windows such as "closed in the last 7 days"). */
  startedAt: number;
  logger: Logger;
  signal?: AbortSignal;
  limits: WriterLimits;
  /** How written bytes reach the engine (`write/spool.ts`). */
  feed: Feed;
}

export interface RunOutcome {
  pages: number;
  /** Objects that failed validation, logged with their page URL and left out. */
  skipped: number;
  /** Combo objects dropped on purpose (Kalshi `KXMVE`), not errors. */
  combosExcluded: number;
  eventsWritten: number;
  marketsWritten: number;
  /** True when the source wrote the `*_latest` tables itself; else the frame copies the run there. */
  latestPublished: boolean;
}

/** Where a resumable backfill stands: a window (Polymarket) and a cursor. */
export interface BackfillPosition {
  /** Epoch ms of the current end-date window. */
  windowStart?: number;
  cursor: string | null;
}

/** One kind of closed history a source backfills, a bounded number of pages per call. */
export interface BackfillStep {
  /** Its name in `internal.backfill_state` and in the status's `backfill_offsets`. */
  eventType: string;
  run(
    run: SourceRun,
    from: BackfillPosition,
    pages: number,
  ): Promise<RunOutcome & { position: BackfillPosition; done: boolean }>;
}

/** What the demo generator needs of a source (`demo-history.ts`). */
export interface DemoSeed {
  /**
   * How the generated order books read a generated market snapshot (SQL over the
   * markets table): its Yes price (0–1), whether it is open, whether it traded in the last day.
   */
  books: { yes: string; open: string; active: string };
  /**
   * Column rewrites per table for each generated step, appended to `REPLACE (ts AS
   * sync_timestamp…)`: `n` is the step, `ts` its time, `{steps:UInt32}` their number;
   * `traded(key)` is the share of its final volume a market has reached by step `n`.
   */
  moves: Partial<Record<SnapshotTableRef["name"], (traded: (key: string) => string) => string>>;
  /** Writes the replay catalog's objects, mapped, into `tables` (shaped like the snapshot tables). */
  seed(
    warehouse: Warehouse,
    tables: Record<SnapshotTableRef["name"], string>,
    catalog: CatalogOptions,
    fixturesDir: string,
  ): Promise<void>;
}

/**
 * An upstream host a source reads, with the limit it documents. Hosts are limited by
 * name, once per process: a history host named like the source's own (Kalshi's one API)
 * shares the snapshot's limiter, so together they stay under the one limit.
 */
export interface UpstreamHost {
  name: string;
  rateLimit(config: IngestConfig): RateLimit;
  baseUrl(config: IngestConfig): string;
}

export interface HistoryRun {
  warehouse: Warehouse;
  /**
   * One fetcher per host of `SourceHistory.hosts`, by name, behind the host's limiter;
   * `maxCost` is the most one request may spend of it (a batch's size is bounded by it).
   */
  hosts: Record<string, { fetchPage: PageFetcher; baseUrl: string; maxCost: number }>;
  /** Wall-clock ms at the step's start: only periods that ended by then are fetched. */
  now: number;
  /** An open market's history older than this many ms is brought up to date. */
  refreshMs: number;
  /** Rows per insert (tests make it small so a killed step has written some). */
  batchRows?: number;
  logger: Logger;
  signal?: AbortSignal;
}

export interface HistoryOutcome {
  pages: number;
  /** Upstream objects that failed validation, logged with their URL and left out. */
  skipped: number;
  /** Markets this step brought up to date (a closed one: its whole life). */
  markets: number;
  /** Markets whose requests failed: recorded with their error and tried again later. */
  failed: number;
  /** Price points, candles and trades written. */
  points: number;
  /** False once nothing is left to fetch until open markets are due again. */
  more: boolean;
}

/** A source's price and trade history (issue: history from day one). */
export interface SourceHistory {
  /** The hosts the history reads. */
  hosts: readonly UpstreamHost[];
  /**
   * One bounded step over at most `markets` markets, most wanted first: open markets never
   * fetched, then open markets due a refresh, then closed markets not yet done, newest
   * close first. Resumable by construction: where each series stands is read from the
   * stored data, so a step killed anywhere is repeated without duplicates or gaps.
   */
  step(run: HistoryRun, markets: number): Promise<HistoryOutcome>;
  /** The history tables and their time columns (points stored, the oldest point). */
  tables: readonly { table: string; time: string }[];
  /** Markets the archive knows and can fetch history for (the status's "known"). */
  knownMarketsSql: string;
  /** Those markets as `chooseTargets` reads them (`../history.ts`). */
  marketsSql: string;
  /**
   * How often a step is due for the exchange-wide feeds a step walks first (Kalshi's trade
   * tape), however little else is due; none when absent.
   */
  feedIntervalMs?: number;
}

/** What a source needs of the order-book capture frame (`sync/books.ts`). */
export interface BookHost {
  fetchPage: PageFetcher;
  baseUrl: string;
}

/**
 * A source's order books, captured after each snapshot (issue 28): which markets have
 * one, and how one request of them is read. The frame tiers, budgets, writes and records.
 */
export interface SourceBooks {
  /** The host the books are read from; its limiter is shared by name. */
  host: UpstreamHost;
  /** Markets per request. */
  batch: number;
  /** What one market of a request costs of the host's limit (Kalshi bills each ticker). */
  costPerMarket: number;
  /** The share of the host's limit the books may plan to spend between two snapshots. */
  budgetShare: number;
  /**
   * The markets of the snapshot at `{ts:DateTime64(3, 'UTC')}` that have a book, most
   * traded first: `market` (the key), `book_id` (what the venue knows the book by) and
   * `active` (traded in the last day).
   */
  targetsSql: string;
  fetch(host: BookHost, targets: readonly BookTarget[], signal?: AbortSignal): Promise<BookAnswer>;
}

/** How a source's live feed is followed (`live-capture.ts`; API_FORMATS §5). */
export interface SourceLive {
  /** The feed's WebSocket URL. */
  url(config: IngestConfig): string;
  /** Markets one connection follows (Polymarket serves about 500 tokens a socket; two a market). */
  perConnection: number;
  /**
   * The open markets to follow, most traded first: `market` (the key) and `books`, the ids
   * the venue knows its books by, the Yes book first (Polymarket's two tokens, Kalshi's ticker).
   */
  targetsSql: string;
  /** The upgrade's headers (signed where the source has credentials), and whether they are signed. */
  connect(config: IngestConfig, now: number): { headers: Record<string, string>; signed: boolean };
  /** What a new connection sends to follow `books`. */
  subscribe(books: readonly string[], signed: boolean): string[];
  /** What an unsigned connection does not capture, for the status; null when it captures everything. */
  unsignedGap: string | null;
  /** One text frame, read (`sources/<venue>/live.ts`). */
  read(text: string): LiveFrame;
  /** The heartbeat the client sends (Polymarket's `PING`); null where the venue pings and the socket answers. */
  ping: { text: string; everyMs: number } | null;
  /**
   * Stores the stream's trades in the venue's one tape (`<venue>.trades`, `source =
   * 'stream'`), less those it holds already, however they came; answers how many were new.
   * The REST walkers leave out in turn what the stream stored, so each trade is stored once.
   */
  storeTrades(warehouse: Warehouse, trades: readonly LiveTrade[]): Promise<number>;
}

export interface Source<Name extends string = string> {
  /** Also the warehouse database of its tables. */
  name: Name;
  /** `events` first, then `markets`. */
  tables: readonly SnapshotTableRef[];
  /** The client-side limit, kept under the venue's documented one (a tier may be configured). */
  rateLimit(config: IngestConfig): RateLimit;
  baseUrl(config: IngestConfig): string;
  /** One pass over the open catalog plus the pending-closed window. */
  snapshot(run: SourceRun): Promise<RunOutcome>;
  /** Run in this order; each until it has caught up. */
  backfill: readonly BackfillStep[];
  /** A query answering one number `n`: events still open (the status's `open_events_tracked`). */
  openEventsSql: string;
  demo: DemoSeed;
  history: SourceHistory;
  books: SourceBooks;
  live: SourceLive;
}

/** How long after closing an event keeps being captured until its final state is in. */
export const PENDING_CLOSED_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * A source's counts while it runs, owned by the source and turned into its outcome. The
 * stated rule for objects that fail validation: skip the object, log it with the page URL
 * and count it. Its page and run go on: the rest of the page is valid data, and one
 * malformed object in 150,000 must not stop the archive. Whole pages that fail (not JSON,
 * no list) are retried and then fail the run, in `http/fetch-page.ts`.
 */
export class RunTally {
  pages = 0;
  skipped = 0;
  combosExcluded = 0;

  constructor(private readonly logger: Logger) {}

  reject(url: string, rejections: readonly Rejection[]): void {
    for (const rejected of rejections) {
      this.skipped += 1;
      this.logger.warn({ url, ...rejected }, "upstream object failed validation; skipped");
    }
  }

  outcome(written: { events: number; markets: number }, latestPublished: boolean): RunOutcome {
    return {
      pages: this.pages,
      skipped: this.skipped,
      combosExcluded: this.combosExcluded,
      eventsWritten: written.events,
      marketsWritten: written.markets,
      latestPublished,
    };
  }

  /** The failure to throw: the cause's message, with what the run had counted before it. */
  failed(cause: unknown): RunFailed {
    return new RunFailed(cause, this.outcome({ events: 0, markets: 0 }, false));
  }
}

/** A source's run that failed part-way, carrying what it had counted (the run record keeps it). */
export class RunFailed extends Error {
  constructor(
    readonly reason: unknown,
    readonly partial: RunOutcome,
  ) {
    super(reason instanceof Error ? reason.message : String(reason));
    this.name = "RunFailed";
  }
}
