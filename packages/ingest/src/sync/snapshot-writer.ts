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
 * One insert is in flight while the next batch is mapped, so fetching, mapping and the
 * engine's parsing overlap instead of taking turns.
 */
import type { Warehouse } from "@epicenter/warehouse";

export interface WriterLimits {
  /** Rows per INSERT. */
  maxRows: number;
  /** Approximate bytes per INSERT (the `raw` JSON dominates). */
  maxBytes: number;
}

export const DEFAULT_WRITER_LIMITS: WriterLimits = { maxRows: 5_000, maxBytes: 24 * 1024 * 1024 };

interface Buffer {
  rows: object[];
  bytes: number;
  seen: Set<string>;
  written: number;
}

export class SnapshotWriter {
  private readonly buffers = new Map<string, Buffer>();
  private inFlight: Promise<void> = Promise.resolve();
  private failure: unknown;

  constructor(
    private readonly warehouse: Warehouse,
    private readonly limits: WriterLimits = DEFAULT_WRITER_LIMITS,
  ) {}

  /** Queues a row; false when this key was already written in this run. */
  async add(table: string, key: string, row: object & { raw: string }): Promise<boolean> {
    const buffer = this.buffer(table);
    if (buffer.seen.has(key)) return false;
    buffer.seen.add(key);
    buffer.rows.push(row);
    buffer.bytes += row.raw.length + 512;
    if (buffer.rows.length >= this.limits.maxRows || buffer.bytes >= this.limits.maxBytes) await this.flushTable(table);
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
    await this.inFlight;
    if (this.failure) throw this.failure;
  }

  /** Waits for the in-flight insert without writing more (used when a run is abandoned). */
  async settle(): Promise<void> {
    await this.inFlight.catch(() => undefined);
  }

  private buffer(table: string): Buffer {
    let buffer = this.buffers.get(table);
    if (!buffer) {
      buffer = { rows: [], bytes: 0, seen: new Set(), written: 0 };
      this.buffers.set(table, buffer);
    }
    return buffer;
  }

  private async flushTable(table: string): Promise<void> {
    const buffer = this.buffer(table);
    if (buffer.rows.length === 0) return;
    const rows = buffer.rows;
    buffer.rows = [];
    buffer.bytes = 0;
    // One insert at a time: wait for the previous before handing the engine the next.
    await this.inFlight;
    if (this.failure) throw this.failure;
    this.inFlight = this.warehouse.insert(table, rows).then(
      () => {
        buffer.written += rows.length;
      },
      (error: unknown) => {
        this.failure ??= error;
      },
    );
  }
}
