/**
 * Buffers one run's rows and writes them in batches, one INSERT per batch per table.
 *
 * Why this is safe against duplicates and half batches:
 * - Every row of a run carries the run's one `sync_timestamp`, and the writer drops a
 *   key it has already written in this run (keyset paging over a moving catalog can
 *   return an object twice), so a run never produces two rows of one (key,
 *   sync_timestamp).
 * - A batch is one INSERT of at most a few thousand rows, far below
 *   `max_insert_block_size`, into one monthly partition: ClickHouse writes it as one part,
 *   which becomes visible whole or not at all.
 * - A batch is never retried inside a run. If an insert fails, the run fails and the
 *   runner deletes every row with the run's `sync_timestamp`, so the outcome is the
 *   same whether the failed insert had in fact landed or not (`sync/run-history.ts`).
 *
 * Each row is serialised to its JSONEachRow line when it is added (once: `raw` may go
 * inline as a JSON object, which the engine stores as its text), so a page's parsed
 * objects are garbage as soon as the page is mapped. Batches reach the engine through
 * the spool (`spool.ts`): a file on the embedded engine, a streamed body on a server. Up to
 * `maxInFlight` inserts run at once on separate pooled connections (chDB runs one query
 * per connection, and two connections use both cores of a small machine) while the next
 * batch is mapped, so fetching, mapping and the engine's parsing overlap.
 */
import type { Warehouse } from "@epicenter/warehouse";
import { defaultFeed, type Feed, insertJsonEachRow } from "./spool";

export interface WriterLimits {
  /** Rows per INSERT. */
  maxRows: number;
  /** Approximate bytes per INSERT (the `raw` JSON dominates). */
  maxBytes: number;
  /** Inserts running at once (each on its own pooled connection). */
  maxInFlight: number;
  /**
   * Upstream page text per batch where the engine maps the pages (`sources/polymarket/page-batch.ts`).
   * Bigger than `maxBytes`: each batch makes parts in four tables, and fewer, larger parts
   * cost less to write and to merge (measured: 160 MB batches ran a 150,000-market snapshot
   * ~30 % faster than 48 MB ones). The engine holds about three times a batch in memory.
   */
  engineBatchBytes: number;
}

export const DEFAULT_WRITER_LIMITS: WriterLimits = {
  maxRows: 10_000,
  maxBytes: 48 * 1024 * 1024,
  maxInFlight: 2,
  engineBatchBytes: 160 * 1024 * 1024,
};

interface Buffer {
  lines: string[];
  bytes: number;
  seen: Set<string>;
  written: number;
}

/**
 * Pinned on for every insert: a row may carry `raw` as a JSON object (not an escaped
 * string), which the engine stores as its text.
 */
export const INSERT_SETTINGS = { input_format_json_read_objects_as_strings: 1 } as const;

/** A row for the writer: typed columns plus `raw`, as JSON text or as the upstream object. */
export type WriterRow = object & { raw: string | object };

export class SnapshotWriter {
  private readonly buffers = new Map<string, Buffer>();
  private readonly inFlight = new Set<Promise<void>>();
  private failure: unknown;

  constructor(
    private readonly warehouse: Warehouse,
    readonly limits: WriterLimits = DEFAULT_WRITER_LIMITS,
    private readonly feed: Feed = defaultFeed(warehouse),
  ) {}

  /** Queues a row; false when this key was already written in this run. */
  async add(table: string, key: string, row: WriterRow): Promise<boolean> {
    const buffer = this.buffer(table);
    if (buffer.seen.has(key)) return false;
    buffer.seen.add(key);
    const line = JSON.stringify(row);
    buffer.lines.push(line);
    buffer.bytes += line.length;
    if (buffer.lines.length >= this.limits.maxRows || buffer.bytes >= this.limits.maxBytes)
      await this.flushTable(table);
    return true;
  }

  has(table: string, key: string): boolean {
    return this.buffers.get(table)?.seen.has(key) ?? false;
  }

  /** Rows accepted for `table` so far (written or buffered). */
  count(table: string): number {
    return this.buffers.get(table)?.seen.size ?? 0;
  }

  /** Writes everything buffered and waits for it; throws the first insert failure. */
  async flush(): Promise<void> {
    for (const table of this.buffers.keys()) await this.flushTable(table);
    await Promise.all(this.inFlight);
    if (this.failure) throw this.failure;
  }

  /** Waits for the in-flight inserts without writing more (used when a run is abandoned). */
  async settle(): Promise<void> {
    await Promise.all(this.inFlight);
  }

  private buffer(table: string): Buffer {
    let buffer = this.buffers.get(table);
    if (!buffer) {
      buffer = { lines: [], bytes: 0, seen: new Set(), written: 0 };
      this.buffers.set(table, buffer);
    }
    return buffer;
  }

  private async flushTable(table: string): Promise<void> {
    const buffer = this.buffer(table);
    if (buffer.lines.length === 0) return;
    const lines = buffer.lines;
    buffer.lines = [];
    buffer.bytes = 0;
    // Back-pressure: wait for a free slot before handing the engine the next batch.
    while (this.inFlight.size >= Math.max(1, this.limits.maxInFlight)) await Promise.race(this.inFlight);
    if (this.failure) throw this.failure;
    const insert: Promise<void> = insertJsonEachRow(
      this.warehouse,
      lines.map((line) => [line]),
      {
        into: table,
        feed: this.feed,
        settings: INSERT_SETTINGS,
      },
    ).then(
      () => {
        buffer.written += lines.length;
      },
      (error: unknown) => {
        this.failure ??= error;
      },
    );
    const tracked = insert.finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }
}
