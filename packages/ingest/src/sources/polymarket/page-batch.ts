/**
 * The Polymarket snapshot's write path on the embedded engine: page text in, rows out,
 * with the mapping done by the engine (`engine-map.ts`).
 *
 * Each page body is written untouched to a file in the run's spool directory (RAM backed
 * `/dev/shm` where there is one). When a batch of pages is big enough the engine reads the
 * batch's files once per table with its native JSON reader and inserts one row per market
 * (and per event) into an input table of the Null engine, which stores nothing. Two
 * materialized views, created for the run, route each input row:
 * - a valid row goes to `polymarket.markets` (`polymarket.events`) with the run's
 *   `sync_timestamp`, once per key and run: a key already written by this run, or seen
 *   twice in one batch, is dropped (keyset paging over a moving catalog and the
 *   pending-closed pass can list an object twice). Markets of a rejected event are left
 *   out, as in the JavaScript mapping. `lastTradeTime` is derived from the previous state,
 *   a `Join` table of `polymarket.markets_latest` taken when the run starts (the rule in
 *   `map.ts`);
 * - the same valid rows, without `raw`, go to `polymarket.markets_latest` (`events_latest`)
 *   as they are written, instead of being copied there when the run ends (which read the whole
 *   snapshot back); a failed run restores the previous latest rows (`discardRun`);
 * - a row with a `reason` goes to a small rejections table, which the run reads after each
 *   batch to log every rejected object with its page URL.
 * So the page text is read once per table and never copied through a staging table.
 *
 * Batches run one at a time, in the background while the next pages are fetched (a batch
 * also starts when the upstream has been quiet for two seconds with pages in hand). Each
 * batch is one INSERT per table; if any statement fails the run fails and the runner
 * deletes every row of the run's `sync_timestamp` (`sync/run-history.ts`), so a failure
 * never leaves half a snapshot. The helper tables and views live in `internal` (hidden
 * from users), are recreated by each run and dropped when it ends; a source never runs
 * twice at once, so no other run shares them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { quoteString, type Warehouse } from "@epicenter/warehouse";
import type { Rejection } from "../../rejection";
import type { GammaPageText } from "./client";
import {
  EVENT_COPIED,
  EVENT_FIELDS,
  EVENT_INPUT_COLUMNS,
  eventReasonSql,
  eventSelectList,
  MARKET_COPIED,
  MARKET_FIELDS,
  MARKET_INPUT_COLUMNS,
  marketSelectList,
  textTuple,
} from "./engine-map";
import { stripNestedMarkets } from "./strip-markets";

const MARKETS = "polymarket.markets";
const EVENTS = "polymarket.events";
const MARKET_INPUT = "internal.polymarket_market_input";
const EVENT_INPUT = "internal.polymarket_event_input";
const REJECTIONS = "internal.polymarket_rejections";
const PREVIOUS = "internal.polymarket_previous_state";
const VIEWS = {
  markets: "internal.polymarket_markets_mv",
  events: "internal.polymarket_events_mv",
  latestMarkets: "internal.polymarket_markets_latest_mv",
  latestEvents: "internal.polymarket_events_latest_mv",
  marketRejections: "internal.polymarket_market_rejections_mv",
  eventRejections: "internal.polymarket_event_rejections_mv",
};

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

export interface GammaBatchWriterOptions {
  syncTimestamp: string;
  batchBytes?: number;
  /** A batch starts early when no page has come for this long. */
  idleMs?: number;
  /** Called for each object the engine could not read, with the page it came from. */
  onRejection?: (rejected: PageRejection) => void;
}

export class GammaBatchWriter {
  private readonly dir: string;
  private readonly urls = new Map<string, string>();
  private pendingPages = 0;
  private pendingBytes = 0;
  private batchSeq = 0;
  private pageSeq = 0;
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
    this.dir = spoolDir();
    this.batchBytes = options.batchBytes ?? DEFAULT_BATCH_BYTES;
    this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  }

  /** The engine reads pages from files, so only the embedded engine (same machine) can. */
  static supports(warehouse: Warehouse): boolean {
    return warehouse.kind === "chdb";
  }

  async add(page: GammaPageText): Promise<void> {
    this.stopIdleTimer();
    if (this.failure) throw this.failure;
    this.pageSeq += 1;
    const seq = String(this.pageSeq).padStart(6, "0");
    const batchDir = join(this.dir, `batch-${this.batchSeq}`);
    if (this.pendingPages === 0) await mkdir(batchDir, { recursive: true });
    await writeFile(join(batchDir, `page-${seq}.json`), page.body);
    await writeFile(join(batchDir, `events-${seq}.json`), stripNestedMarkets(page.body).body);
    this.urls.set(`page-${seq}.json`, page.url);
    this.urls.set(`events-${seq}.json`, page.url);
    this.pendingPages += 1;
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
    rmSync(this.dir, { recursive: true, force: true });
    // Views left behind (the warehouse went away) are harmless: they hang off input tables
    // nothing else writes, and the next run drops them before making its own.
    if (this.prepared) await this.dropHelpers().catch(() => undefined);
  }

  /** Rows of this run in `table` (after `flush`). */
  async written(table: typeof MARKETS | typeof EVENTS): Promise<number> {
    const [row] = await this.warehouse.query<{ n: string }>(
      `SELECT count() AS n FROM ${table} WHERE sync_timestamp = {ts:DateTime64(3, 'UTC')}`,
      { params: { ts: this.options.syncTimestamp } },
    );
    return Number(row?.n ?? 0);
  }

  /**
   * Queues the pending pages as a batch behind the batches before it (they run one at a
   * time) and returns when the batch before this one is done.
   */
  private startBatch(): Promise<void> {
    const previous = this.running;
    if (this.pendingPages === 0) return previous;
    const batchDir = join(this.dir, `batch-${this.batchSeq}`);
    this.batchSeq += 1;
    this.pendingPages = 0;
    this.pendingBytes = 0;
    this.running = previous.then(async () => {
      if (this.failure) return;
      try {
        await this.runBatch(batchDir);
        rmSync(batchDir, { recursive: true, force: true });
      } catch (error) {
        this.failure ??= error;
      }
    });
    return previous;
  }

  private stopIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  private async runBatch(batchDir: string): Promise<void> {
    this.prepared ??= this.prepare();
    await this.prepared;
    const started = performance.now();
    const pages = quoteString(join(batchDir, "page-*.json"));
    const events = quoteString(join(batchDir, "events-*.json"));
    const eventTuple = textTuple(EVENT_FIELDS);
    await Promise.all([
      this.warehouse.command(
        `INSERT INTO ${MARKET_INPUT} (${names(MARKET_INPUT_COLUMNS)})
SELECT ${names(MARKET_INPUT_COLUMNS)} FROM (
SELECT page, event_id, event_reason, ${marketSelectList("x", "m")}
FROM (
  SELECT page, event_id, event_reason, m, JSONExtract(m, '${textTuple(MARKET_FIELDS)}') AS x
  FROM (
    SELECT _file AS page, ifNull(tupleElement(e, 'id'), '') AS event_id, ${eventReasonSql("e")} AS event_reason,
      tupleElement(e, 'markets') AS markets
    FROM file(${pages}, 'JSONEachRow', 'events Array(${eventTuple.replace(/\)$/, ", markets Array(String))")})')
    ARRAY JOIN events AS e
  )
  ARRAY JOIN markets AS m
))`,
        { settings: READ_SETTINGS },
      ),
      this.warehouse.command(
        `INSERT INTO ${EVENT_INPUT} (${names(EVENT_INPUT_COLUMNS)})
SELECT ${names(EVENT_INPUT_COLUMNS)} FROM (
SELECT page, ${eventSelectList("x", "e")}, market_count
FROM (
  SELECT _file AS page, e, market_count, JSONExtract(e, '${eventTuple}') AS x
  FROM file(${events}, 'JSONEachRow', 'events Array(String), market_counts Array(UInt32)')
  ARRAY JOIN events AS e, market_counts AS market_count
))`,
        { settings: READ_SETTINGS },
      ),
    ]);

    const rejected = await this.warehouse.query<{
      page: string;
      kind: "event" | "market";
      key: string;
      reason: string;
    }>(`SELECT page, kind, key, reason FROM ${REJECTIONS}`);
    for (const row of rejected) {
      this.options.onRejection?.({
        url: this.urls.get(row.page) ?? row.page,
        kind: row.kind,
        key: row.key || "(no key)",
        reason: row.reason,
      });
    }
    if (rejected.length > 0) await this.warehouse.command(`TRUNCATE TABLE ${REJECTIONS}`);
    this.engineMs += performance.now() - started;
    this.batches += 1;
  }

  /** The run's input tables, previous state and views (`ts` is baked into the views). */
  private async prepare(): Promise<void> {
    await this.dropHelpers();
    const ts = quoteString(this.options.syncTimestamp);
    const tsValue = `toDateTime64(${ts}, 3, 'UTC')`;
    const statements = [
      `CREATE TABLE ${MARKET_INPUT} (${MARKET_INPUT_COLUMNS.join(", ")}) ENGINE = Null`,
      `CREATE TABLE ${EVENT_INPUT} (${EVENT_INPUT_COLUMNS.join(", ")}) ENGINE = Null`,
      `CREATE TABLE ${REJECTIONS} (page String, kind String, key String, reason String) ENGINE = Memory`,
      `CREATE TABLE ${PREVIOUS} ENGINE = Join(ANY, LEFT, id) AS
SELECT id, volume, lastTradeTime, toUInt8(1) AS seen FROM polymarket.markets_latest FINAL`,
      marketView(VIEWS.markets, MARKETS, tsValue, "snapshot"),
      marketView(VIEWS.latestMarkets, `${MARKETS}_latest`, tsValue, "latest"),
      `CREATE MATERIALIZED VIEW ${VIEWS.marketRejections} TO ${REJECTIONS} AS
SELECT page, 'market' AS kind, id AS key, reason FROM ${MARKET_INPUT} WHERE reason != '' AND event_reason = ''`,
      eventView(VIEWS.events, EVENTS, tsValue, "snapshot"),
      eventView(VIEWS.latestEvents, `${EVENTS}_latest`, tsValue, "latest"),
      `CREATE MATERIALIZED VIEW ${VIEWS.eventRejections} TO ${REJECTIONS} AS
SELECT page, 'event' AS kind, id AS key, reason FROM ${EVENT_INPUT} WHERE reason != ''`,
    ];
    for (const statement of statements) await this.warehouse.command(statement);
  }

  private async dropHelpers(): Promise<void> {
    for (const view of Object.values(VIEWS)) await this.warehouse.command(`DROP VIEW IF EXISTS ${view}`);
    for (const table of [MARKET_INPUT, EVENT_INPUT, REJECTIONS, PREVIOUS])
      await this.warehouse.command(`DROP TABLE IF EXISTS ${table}`);
  }
}

/** Where a run's view writes: the snapshot table, or the latest-state table beside it. */
type ViewTarget = "snapshot" | "latest";

/**
 * The view that routes a run's valid market rows to `table`. Into the snapshot table each
 * key goes once per run, with `raw`; the latest table (a ReplacingMergeTree on the key,
 * where a second copy of a key in one run replaces the first) takes the typed columns.
 */
function marketView(view: string, table: string, ts: string, target: ViewTarget): string {
  const previous = (column: string) => `joinGet('${PREVIOUS}', '${column}', id)`;
  const isSnapshot = target === "snapshot";
  return `CREATE MATERIALIZED VIEW ${view} TO ${table} AS
SELECT ${ts} AS sync_timestamp, ${MARKET_COPIED.map((name) => `\`${name}\``).join(", ")},
  if(joinGetOrNull('${PREVIOUS}', 'seen', id) IS NULL, NULL,
    if(volume > ifNull(${previous("volume")}, 0), ${ts}, ${previous("lastTradeTime")})) AS lastTradeTime${isSnapshot ? ",\n  raw" : ""}
FROM ${MARKET_INPUT}
WHERE reason = '' AND event_reason = ''${isSnapshot ? onlyNewKeys(table, ts) : ""}`;
}

function eventView(view: string, table: string, ts: string, target: ViewTarget): string {
  const isSnapshot = target === "snapshot";
  return `CREATE MATERIALIZED VIEW ${view} TO ${table} AS
SELECT ${ts} AS sync_timestamp, ${EVENT_COPIED.map((name) => `\`${name}\``).join(", ")}${isSnapshot ? ", raw" : ""}
FROM ${EVENT_INPUT}
WHERE reason = ''${isSnapshot ? onlyNewKeys(table, ts) : ""}`;
}

/** Keys this run has not written to `table` yet, each once. */
function onlyNewKeys(table: string, ts: string): string {
  return ` AND id NOT IN (SELECT id FROM ${table} WHERE sync_timestamp = ${ts})\nLIMIT 1 BY id`;
}

/** The column names of a column list (`name Type, …`), in order. */
function names(columns: readonly string[]): string {
  return columns.map((column) => column.split(" ")[0]).join(", ");
}

function spoolDir(): string {
  if (process.platform === "linux") {
    try {
      return mkdtempSync(join("/dev/shm", "epicenter-gamma-"));
    } catch {
      // No writable /dev/shm (some containers): the ordinary temporary directory will do.
    }
  }
  return mkdtempSync(join(tmpdir(), "epicenter-gamma-"));
}
