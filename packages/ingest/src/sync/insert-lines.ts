/**
 * How a batch of JSONEachRow text gets into the warehouse, per backend.
 *
 * Embedded (chDB): the batch is written to a file in a private temporary directory (RAM
 * backed `/dev/shm` when the machine has it) and read by the engine with
 * `INSERT INTO t FROM INFILE … FORMAT JSONEachRow`. Measured on the bench machine
 * (`scripts/bench-ingest.ts`), the engine's file reader takes a 3.4 KB market row in
 * ≈5 µs (≈700 MB/s), while an insert whose data travels inside the statement text (what
 * `@clickhouse/client` does through `chdb/connection`, and chDB's own raw Buffer insert)
 * reads at ≈100–170 MB/s, ≈20–35 µs a row before any column is filled. The file is
 * removed when the statement ends, whatever its outcome. One statement is still one
 * INSERT, so the batch becomes one part, visible whole or not at all.
 *
 * Server (`CLICKHOUSE_URL`): the engine cannot see our files, so the same text is
 * streamed as the body of an ordinary insert.
 *
 * Either way `input_format_json_read_objects_as_strings` is pinned on: a row may carry
 * `raw` as a JSON object (not an escaped string), which the engine stores as its text.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { quoteString, type Warehouse } from "@epicenter/warehouse";

export const INSERT_SETTINGS = { input_format_json_read_objects_as_strings: 1 } as const;

let spoolDir: string | undefined;
let spoolSeq = 0;

function spool(): string {
  if (!spoolDir) {
    const base = process.platform === "linux" ? "/dev/shm" : tmpdir();
    try {
      spoolDir = mkdtempSync(join(base, "epicenter-ingest-"));
    } catch {
      spoolDir = mkdtempSync(join(tmpdir(), "epicenter-ingest-"));
    }
    const dir = spoolDir;
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  }
  return spoolDir;
}

/** Appends `text` (JSONEachRow lines) to `table` as one INSERT. */
export async function insertJsonLines(warehouse: Warehouse, table: string, text: string): Promise<void> {
  if (text.length === 0) return;
  if (warehouse.kind !== "chdb") {
    await warehouse.withClient(async (client) => {
      await client.insert({
        table,
        values: Readable.from([text]),
        format: "JSONEachRow",
        clickhouse_settings: INSERT_SETTINGS,
      });
    });
    return;
  }
  spoolSeq += 1;
  const path = join(spool(), `${process.pid}-${spoolSeq}.jsonl`);
  await writeFile(path, text);
  try {
    await warehouse.command(`INSERT INTO ${table} FROM INFILE ${quoteString(path)} FORMAT JSONEachRow`, {
      settings: INSERT_SETTINGS,
    });
  } finally {
    await unlink(path).catch(() => undefined);
  }
}
