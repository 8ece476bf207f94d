/**
 * The Polymarket write path, for snapshots, the backfill and the demo's seed alike: page
 * text in, rows out, with the mapping done by the engine (`engine-map.ts`).
 *
 * Each keyset page becomes two JSONEachRow records tagged with its URL: the page as the
 * upstream sent it, and a copy with the events' nested markets cut out by a byte scanner
 * (`strip-markets.ts`, so an event's `raw` leaves its markets out). When a batch of pages is
 * big enough it is inserted, one INSERT per record kind, into two page-level input tables
 * of the Null engine, which store nothing, through the spool (`write/spool.ts`): from
 * spooled files on the embedded engine, streamed as the statement's body on a server. The
 * same bytes reach the same tables either way. Materialized views created for the run do
 * the rest inside the engine:
 * - the mapping views turn each page row into one input row per market (and per event),
 *   typed, with a `reason` when the object cannot be read;
 * - a valid row goes to `polymarket.markets` (`polymarket.events`) with the run's
 *   `sync_timestamp`, once per key and run: a key already written by this run, or seen
 *   twice in one batch, is dropped (keyset paging over a moving catalog and the
 *   pending-closed pass can list an object twice). Markets of a rejected event are left
 *   out;
 * - the same valid rows, without `raw`, go to `polymarket.markets_latest` (`events_latest`)
 *   as they are written, instead of being copied there when the run ends (which read the
 *   whole snapshot back); a failed run restores the previous latest rows (`discardRun`);
 * - a row with a `reason` goes to a small rejections table, which the run reads after each
 *   batch to log every rejected object with its page URL.
 *
 * Batches run one at a time, in the background while the next pages are fetched (a batch
 * also starts when the upstream has been quiet for two seconds with pages in hand). If any
 * statement fails the run fails and the runner deletes every row of the run's
 * `sync_timestamp` (`sync/run-history.ts`), so a failure never leaves half a snapshot. The
 * helper tables and views live in `internal` (hidden from users), are recreated by each run
 * and dropped when it ends; a source never runs twice at once, so no other run shares them.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { quoteString, type Warehouse } from "@epicenter/warehouse";
import type { Rejection } from "../../rejection";
import {
  type Chunks,
  type Feed,
  insertSpooled,
  insertStreamed,
  removeSpooled,
  spoolDirectory,
  spoolFile,
} from "../../write/spool";
import type { GammaPageText } from "./client";
import {
  EVENT_COPIED,
  EVENT_INPUT_COLUMNS,
  EVENT_PAGE_INPUT_COLUMNS,
  eventMappingSql,
  MARKET_COPIED,
  MARKET_INPUT_COLUMNS,
  marketMappingSql,
  PAGE_INPUT_COLUMNS,
} from "./engine-map";
import { stripNestedMarkets } from "./strip-markets";

/** Page text per batch when the caller does not say (runs pass `WriterLimits.engineBatchBytes`). */
export const DEFAULT_BATCH_BYTES = 160 * 1024 * 1024;

/** An upstream quiet for this long gets the pages in hand written meanwhile. */
export const DEFAULT_IDLE_MS = 2_000;

/** What the engine's JSON reader needs to hand over every field as its text. */
const READ_SETTINGS = {
  input_format_json_read_objects_as_strings: 1,
  input_format_json_read_arrays_as_strings: 1,
  input_format_json_read_numbers_as_strings: 1,
  input_format_json_read_bools_as_strings: 1,
  input_format_skip_unknown_fields: 1,
  input_format_null_as_default: 1,
  // Two insert streams and the views of each block pushed in parallel: without these the
  // whole statement runs on one core (measured: 4.4 s → 2.5 s wall for 44,000 markets).
  max_insert_threads: "2",
  parallel_view_processing: 1,
} as const;

export interface PageRejection extends Rejection {
  url: string;
}

/** Where the rows go: the snapshot tables and their latest twins, or (the demo's seed) tables alone. */
export interface BatchTargets {
  events: string;
  markets: string;
  /** Also write each row, without `raw`, to `<table>_latest`. */
  latest: boolean;
  /** Derive `lastTradeTime` from `polymarket.markets_latest`; without it a market has no previous state. */
  previousState: boolean;
}

export const SNAPSHOT_TARGETS: BatchTargets = {
  events: "polymarket.events",
  markets: "polymarket.markets",
  latest: true,
  previousState: true,
};

export interface GammaBatchWriterOptions {
  syncTimestamp: string;
  /** Spooled files (the embedded engine) or a streamed body (a server). */
  feed: Feed;
  batchBytes?: number;
  /** A batch starts early when no page has come for this long. */
  idleMs?: number;
  /** Called for each object the engine could not read, with the page it came from. */
  onRejection?: (rejected: PageRejection) => void;
  targets?: BatchTargets;
  /** Names of the run's helper tables and views: `<prefix>market_input` and so on. */
  helperPrefix?: string;
}

/** One page's two records, as JSONEachRow chunks. */
interface PageRecords {
  page: Chunks;
  events: Chunks;
}

const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** `body` (a JSON object) with `"page": url` as its first key, one row, without copying the body. */
function tagged(url: string, body: Uint8Array): Chunks {
  const open = body.indexOf(OPEN_OBJECT);
  const close = body.lastIndexOf(CLOSE_OBJECT);
  if (open < 0 || close < open) throw new Error(`page is not a JSON object: ${url}`);
  return [`{"page":${JSON.stringify(url)},`, body.subarray(open + 1, close + 1)];
}

export class GammaBatchWriter {
  private readonly feed: Feed;
  private readonly targets: BatchTargets;
  private readonly names: ReturnType<typeof helperNames>;
  private readonly dir: string | undefined;
  /** Pages since the last batch: held here when streamed, in `batch-<seq>/` of the spool when spooled. */
  private pending: PageRecords[] = [];
  private pendingBytes = 0;
  private pageSeq = 0;
  private batchSeq = 0;
  private running: Promise<void> = Promise.resolve();
  private failure: unknown;
  private prepared: Promise<void> | undefined;
  private readonly batchBytes: number;
  private readonly idleMs: number;
  private idleTimer: NodeJS.Timeout | undefined;
  /** Wall time of the batches' statements, for the run's log line and the benchmark. */
  engineMs = 0;
  batches = 0;

  constructor(
    private readonly warehouse: Warehouse,
    private readonly options: GammaBatchWriterOptions,
  ) {
    this.feed = options.feed;
    this.targets = options.targets ?? SNAPSHOT_TARGETS;
    this.names = helperNames(options.helperPrefix ?? "internal.polymarket_");
    this.dir = this.feed === "file" ? spoolDirectory("gamma") : undefined;
    this.batchBytes = options.batchBytes ?? DEFAULT_BATCH_BYTES;
    this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  }

  async add(page: GammaPageText): Promise<void> {
    this.stopIdleTimer();
    if (this.failure) throw this.failure;
    this.pageSeq += 1;
    const records = { page: tagged(page.url, page.body), events: tagged(page.url, stripNestedMarkets(page.body).body) };
    if (this.dir) {
      // Spooled at once, so no page is held in memory.
      const seq = String(this.pageSeq).padStart(6, "0");
      const batchDir = join(this.dir, `batch-${this.batchSeq}`);
      if (this.pending.length === 0) await mkdir(batchDir, { recursive: true });
      await spoolFile(join(batchDir, `page-${seq}.json`), records.page);
      await spoolFile(join(batchDir, `events-${seq}.json`), records.events);
      this.pending.push({ page: [], events: [] });
    } else {
      this.pending.push(records);
    }
    this.pendingBytes += page.body.length;
    if (this.pendingBytes >= this.batchBytes) {
      // Back-pressure: wait for the batch before this one, so fetching runs at most one batch ahead.
      await this.startBatch();
      if (this.failure) throw this.failure;
    } else {
      // An upstream that stalls between pages should not leave the engine idle with pages in hand.
      this.idleTimer = setTimeout(() => void this.startBatch(), this.idleMs);
      this.idleTimer.unref();
    }
  }

  /** Writes what is left and waits for every batch; throws the first failure. */
  async flush(): Promise<void> {
    this.stopIdleTimer();
    void this.startBatch();
    await this.running;
    if (this.failure) throw this.failure;
  }

  /** Waits for the batches started without starting another (a run being abandoned). */
  async settle(): Promise<void> {
    this.stopIdleTimer();
    await this.running;
  }

  /** Removes the spooled pages and the run's helper tables; the writer cannot be used afterwards. */
  async close(): Promise<void> {
    this.stopIdleTimer();
    this.pending = [];
    if (this.dir) removeSpooled(this.dir);
    // Views left behind (the warehouse went away) are harmless: they hang off input tables
    // nothing else writes, and the next run drops them before making its own.
    if (this.prepared) await this.dropHelpers().catch(() => undefined);
  }

  /** Rows of this run in the events and markets targets (after `flush`). */
  async written(): Promise<{ events: number; markets: number }> {
    const count = async (table: string) => {
      const [row] = await this.warehouse.query<{ n: string }>(
        `SELECT count() AS n FROM ${table} WHERE sync_timestamp = {ts:DateTime64(3, 'UTC')}`,
        { params: { ts: this.options.syncTimestamp } },
      );
      return Number(row?.n ?? 0);
    };
    return { events: await count(this.targets.events), markets: await count(this.targets.markets) };
  }

  /**
   * Queues the pending pages as a batch behind the batches before it (they run one at a
   * time) and returns when the batch before this one is done.
   */
  private startBatch(): Promise<void> {
    const previous = this.running;
    if (this.pending.length === 0) return previous;
    const batch = this.pending;
    const batchDir = this.dir && join(this.dir, `batch-${this.batchSeq}`);
    this.batchSeq += 1;
    this.pending = [];
    this.pendingBytes = 0;
    this.running = previous.then(async () => {
      if (this.failure) return;
      try {
        await this.runBatch(batch, batchDir);
      } catch (error) {
        this.failure ??= error;
      } finally {
        if (batchDir) removeSpooled(batchDir);
      }
    });
    return previous;
  }

  private stopIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  private async runBatch(batch: PageRecords[], batchDir: string | undefined): Promise<void> {
    this.prepared ??= this.prepare();
    await this.prepared;
    const started = performance.now();
    const { pageInput, eventPageInput } = this.names;
    const options = { settings: READ_SETTINGS };
    await Promise.all(
      batchDir
        ? [
            insertSpooled(this.warehouse, join(batchDir, "page-*.json"), { into: pageInput, ...options }),
            insertSpooled(this.warehouse, join(batchDir, "events-*.json"), { into: eventPageInput, ...options }),
          ]
        : [
            insertStreamed(
              this.warehouse,
              batch.map((records) => records.page),
              { into: pageInput, ...options },
            ),
            insertStreamed(
              this.warehouse,
              batch.map((records) => records.events),
              { into: eventPageInput, ...options },
            ),
          ],
    );

    const rejected = await this.warehouse.query<{
      page: string;
      kind: "event" | "market";
      key: string;
      reason: string;
    }>(`SELECT page, kind, key, reason FROM ${this.names.rejections}`);
    for (const row of rejected) {
      this.options.onRejection?.({ url: row.page, kind: row.kind, key: row.key || "(no key)", reason: row.reason });
    }
    if (rejected.length > 0) await this.warehouse.command(`TRUNCATE TABLE ${this.names.rejections}`);
    this.engineMs += performance.now() - started;
    this.batches += 1;
  }

  /** The run's input tables, previous state and views (`ts` is baked into the views). */
  private async prepare(): Promise<void> {
    await this.dropHelpers();
    const n = this.names;
    const { events, markets, latest, previousState } = this.targets;
    const ts = `toDateTime64(${quoteString(this.options.syncTimestamp)}, 3, 'UTC')`;
    const statements = [
      `CREATE TABLE ${n.pageInput} (${PAGE_INPUT_COLUMNS.join(", ")}) ENGINE = Null`,
      `CREATE TABLE ${n.eventPageInput} (${EVENT_PAGE_INPUT_COLUMNS.join(", ")}) ENGINE = Null`,
      `CREATE TABLE ${n.marketInput} (${MARKET_INPUT_COLUMNS.join(", ")}) ENGINE = Null`,
      `CREATE TABLE ${n.eventInput} (${EVENT_INPUT_COLUMNS.join(", ")}) ENGINE = Null`,
      `CREATE TABLE ${n.rejections} (page String, kind String, key String, reason String) ENGINE = Memory`,
      `CREATE TABLE ${n.previous} ENGINE = Join(ANY, LEFT, id) AS
SELECT id, volume, lastTradeTime, toUInt8(1) AS seen FROM polymarket.markets_latest FINAL${previousState ? "" : " WHERE 0"}`,
      marketView(n, n.views.markets, markets, ts, "snapshot"),
      ...(latest ? [marketView(n, n.views.latestMarkets, `${markets}_latest`, ts, "latest")] : []),
      `CREATE MATERIALIZED VIEW ${n.views.marketRejections} TO ${n.rejections} AS
SELECT page, 'market' AS kind, id AS key, reason FROM ${n.marketInput} WHERE reason != '' AND event_reason = ''`,
      eventView(n, n.views.events, events, ts, "snapshot"),
      ...(latest ? [eventView(n, n.views.latestEvents, `${events}_latest`, ts, "latest")] : []),
      `CREATE MATERIALIZED VIEW ${n.views.eventRejections} TO ${n.rejections} AS
SELECT page, 'event' AS kind, id AS key, reason FROM ${n.eventInput} WHERE reason != ''`,
      // The mapping views last: a page row finds every view below it in place.
      `CREATE MATERIALIZED VIEW ${n.views.mapMarkets} TO ${n.marketInput} AS\n${marketMappingSql(n.pageInput)}`,
      `CREATE MATERIALIZED VIEW ${n.views.mapEvents} TO ${n.eventInput} AS\n${eventMappingSql(n.eventPageInput)}`,
    ];
    for (const statement of statements) await this.warehouse.command(statement);
  }

  private async dropHelpers(): Promise<void> {
    const n = this.names;
    for (const view of Object.values(n.views)) await this.warehouse.command(`DROP VIEW IF EXISTS ${view}`);
    for (const table of [n.pageInput, n.eventPageInput, n.marketInput, n.eventInput, n.rejections, n.previous])
      await this.warehouse.command(`DROP TABLE IF EXISTS ${table}`);
  }
}

function helperNames(prefix: string) {
  return {
    pageInput: `${prefix}page_input`,
    eventPageInput: `${prefix}event_page_input`,
    marketInput: `${prefix}market_input`,
    eventInput: `${prefix}event_input`,
    rejections: `${prefix}rejections`,
    previous: `${prefix}previous_state`,
    views: {
      mapMarkets: `${prefix}map_markets_mv`,
      mapEvents: `${prefix}map_events_mv`,
      markets: `${prefix}markets_mv`,
      events: `${prefix}events_mv`,
      latestMarkets: `${prefix}markets_latest_mv`,
      latestEvents: `${prefix}events_latest_mv`,
      marketRejections: `${prefix}market_rejections_mv`,
      eventRejections: `${prefix}event_rejections_mv`,
    },
  };
}

type HelperNames = ReturnType<typeof helperNames>;

/** Where a run's view writes: the snapshot table, or the latest-state table beside it. */
type ViewTarget = "snapshot" | "latest";

/**
 * The view that routes a run's valid market rows to `table`. Into the snapshot table each
 * key goes once per run, with `raw`; the latest table (a ReplacingMergeTree on the key,
 * where a second copy of a key in one run replaces the first) takes the typed columns.
 *
 * `lastTradeTime`: Gamma exposes no trade timestamp, so it is observed: the
 * `sync_timestamp` of the first snapshot in which the market's cumulative volume
 * (`volumeNum`, else `volume`) is higher than in the previous state, carried forward while
 * the volume stands still, so a trade happened in the 10 minutes before it. A market seen
 * for the first time has NULL (its trades predate our observation), as does one never
 * traded.
 */
function marketView(n: HelperNames, view: string, table: string, ts: string, target: ViewTarget): string {
  const previous = (column: string) => `joinGet('${n.previous}', '${column}', id)`;
  const isSnapshot = target === "snapshot";
  return `CREATE MATERIALIZED VIEW ${view} TO ${table} AS
SELECT ${ts} AS sync_timestamp, ${MARKET_COPIED.map((name) => `\`${name}\``).join(", ")},
  if(joinGetOrNull('${n.previous}', 'seen', id) IS NULL, NULL,
    if(volume > ifNull(${previous("volume")}, 0), ${ts}, ${previous("lastTradeTime")})) AS lastTradeTime${isSnapshot ? ",\n  raw" : ""}
FROM ${n.marketInput}
WHERE reason = '' AND event_reason = ''${isSnapshot ? onlyNewKeys(table, ts) : ""}`;
}

function eventView(n: HelperNames, view: string, table: string, ts: string, target: ViewTarget): string {
  const isSnapshot = target === "snapshot";
  return `CREATE MATERIALIZED VIEW ${view} TO ${table} AS
SELECT ${ts} AS sync_timestamp, ${EVENT_COPIED.map((name) => `\`${name}\``).join(", ")}${isSnapshot ? ", raw" : ""}
FROM ${n.eventInput}
WHERE reason = ''${isSnapshot ? onlyNewKeys(table, ts) : ""}`;
}

/** Keys this run has not written to `table` yet, each once. */
function onlyNewKeys(table: string, ts: string): string {
  return ` AND id NOT IN (SELECT id FROM ${table} WHERE sync_timestamp = ${ts})\nLIMIT 1 BY id`;
}
