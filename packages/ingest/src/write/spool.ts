/**
 * The one way text gets into the warehouse from ingest: JSONEachRow bytes, read by the
 * engine from a spooled file on the embedded engine, streamed as an insert's body on a
 * server. The row writer (`snapshot-writer.ts`) and the Polymarket page batches
 * (`sources/polymarket/page-batch.ts`) both go through it.
 *
 * Embedded (chDB): the bytes are written to a file in a private temporary directory (RAM
 * backed `/dev/shm` when the machine has it) and read with `INSERT INTO t FROM INFILE …`
 * (a glob reads a whole batch of files in one statement). Measured on the bench machine
 * (`scripts/bench-ingest.ts`), the engine's file reader takes a 3.4 KB market row in ≈5 µs
 * (≈700 MB/s), while an insert whose data travels inside the statement text (what
 * `@clickhouse/client` does through `chdb/connection`) reads at ≈100–170 MB/s.
 *
 * Server (`CLICKHOUSE_URL`): the engine cannot see our files, so the same bytes are the
 * body of `INSERT INTO t FORMAT JSONEachRow`, sent as a raw stream (`exec`), never
 * re-encoded by the client. Tests pin this feed on chDB to prove both write the same rows.
 *
 * One statement is one INSERT either way, visible whole or not at all.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { type QueryOptions, quoteString, type Warehouse } from "@epicenter/warehouse";

/** How bytes reach the engine: a spooled file (embedded engine) or a streamed body (server). */
export type Feed = "file" | "stream";

export function defaultFeed(warehouse: Warehouse): Feed {
  return warehouse.kind === "chdb" ? "file" : "stream";
}

/** One JSONEachRow row (a JSON object, no newline around it) as pieces written one after another. */
export type Chunks = ReadonlyArray<string | Uint8Array>;

let root: string | undefined;
let sequence = 0;

/** The process's spool directory, removed when the process exits. */
function spoolRoot(): string {
  if (!root) {
    const base = process.platform === "linux" ? "/dev/shm" : tmpdir();
    try {
      root = mkdtempSync(join(base, "epicenter-ingest-"));
    } catch {
      // No writable /dev/shm (some containers): the ordinary temporary directory will do.
      root = mkdtempSync(join(tmpdir(), "epicenter-ingest-"));
    }
    const dir = root;
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  }
  return root;
}

/** A fresh directory of the spool for one writer's files; remove it with `removeSpooled`. */
export function spoolDirectory(prefix: string): string {
  sequence += 1;
  const dir = join(spoolRoot(), `${prefix}-${process.pid}-${sequence}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Writes `chunks` to `path` as one file, without joining them first (a spooled page is one row). */
export async function spoolFile(path: string, chunks: Chunks): Promise<void> {
  await writeFile(path, chunks);
}

export function removeSpooled(path: string): void {
  rmSync(path, { recursive: true, force: true });
}

export interface InsertOptions {
  /** `db.table` or `db.table (col, …)`. */
  into: string;
  settings?: QueryOptions["settings"];
}

/** One INSERT of JSONEachRow read from spooled file(s) (`path` may be a glob). Embedded engine only. */
export async function insertSpooled(warehouse: Warehouse, path: string, options: InsertOptions): Promise<void> {
  await warehouse.command(`INSERT INTO ${options.into} FROM INFILE ${quoteString(path)} FORMAT JSONEachRow`, {
    ...(options.settings ? { settings: options.settings } : {}),
  });
}

/**
 * One INSERT of `rows` sent as the statement's body. Rows go one a line, except on chDB
 * (which only tests stream to): there the body is appended to the statement text behind
 * the connection's `SET`s, and the engine ends a multi-statement insert's data at the end
 * of its line, so the rows are put on one line, which JSONEachRow reads alike.
 */
export async function insertStreamed(
  warehouse: Warehouse,
  rows: readonly Chunks[],
  options: InsertOptions,
): Promise<void> {
  const separator = warehouse.kind === "chdb" ? " " : "\n";
  await warehouse.withClient(
    async (client) => {
      const result = await client.exec({
        query: `INSERT INTO ${options.into} FORMAT JSONEachRow`,
        values: Readable.from(joined(rows, separator), { objectMode: false }),
        ...(options.settings ? { clickhouse_settings: options.settings } : {}),
      });
      // The answer to an INSERT is empty; reading it to the end frees the connection.
      for await (const _ of result.stream) {
      }
    },
    options.settings ? { settings: options.settings } : {},
  );
}

/** One INSERT of `rows` (JSONEachRow) by `feed`: through a spooled file, or streamed. */
export async function insertJsonEachRow(
  warehouse: Warehouse,
  rows: readonly Chunks[],
  options: InsertOptions & { feed: Feed },
): Promise<void> {
  if (rows.length === 0) return;
  if (options.feed === "stream") {
    await insertStreamed(warehouse, rows, options);
    return;
  }
  sequence += 1;
  const path = join(spoolRoot(), `${process.pid}-${sequence}.jsonl`);
  await spoolFile(path, joined(rows, "\n"));
  try {
    await insertSpooled(warehouse, path, options);
  } finally {
    removeSpooled(path);
  }
}

/** The rows with `separator` between them; rows of text become one string (one write, not thousands). */
function joined(rows: readonly Chunks[], separator: string): Chunks {
  if (rows.every((row) => row.every((chunk) => typeof chunk === "string"))) {
    return [rows.map((row) => row.join("")).join(separator)];
  }
  return rows.flatMap((row, i) => (i === 0 ? row : [separator, ...row]));
}
