/** Bytes a history table takes per stored row, from the engine's own parts, once merged. */
import type { Warehouse } from "@epicenter/warehouse";

export interface TableBytes {
  table: string;
  rows: number;
  parts: number;
  /** Column data as stored (after codecs), without marks and indexes. */
  compressedBytes: number;
  uncompressedBytes: number;
  /** Whole parts: data, marks, primary index, checksums. */
  bytesOnDisk: number;
  optimizeMs: number;
  /** Compressed bytes per column (empty when the parts are compact and the engine does not split them). */
  columns: Array<{ name: string; compressedBytes: number }>;
}

/** `OPTIMIZE TABLE … FINAL`, then the table's active parts and columns from `system.parts` and `system.columns`. */
export async function measureTable(warehouse: Warehouse, table: string): Promise<TableBytes> {
  const [database, name] = table.split(".") as [string, string];
  const started = performance.now();
  await warehouse.command(`OPTIMIZE TABLE ${table} FINAL`);
  const optimizeMs = performance.now() - started;
  const params = { database, name };
  const [parts] = await warehouse.query<{ rows: string; parts: string; compressed: string; raw: string; disk: string }>(
    `SELECT sum(rows) AS rows, count() AS parts, sum(data_compressed_bytes) AS compressed,
            sum(data_uncompressed_bytes) AS raw, sum(bytes_on_disk) AS disk
     FROM system.parts WHERE active AND database = {database:String} AND table = {name:String}`,
    { params },
  );
  const columns = await warehouse.query<{ name: string; bytes: string }>(
    `SELECT name, data_compressed_bytes AS bytes FROM system.columns
     WHERE database = {database:String} AND table = {name:String} ORDER BY position`,
    { params },
  );
  const perColumn = columns.map((c) => ({ name: c.name, compressedBytes: Number(c.bytes) }));
  return {
    table,
    rows: Number(parts?.rows ?? 0),
    parts: Number(parts?.parts ?? 0),
    compressedBytes: Number(parts?.compressed ?? 0),
    uncompressedBytes: Number(parts?.raw ?? 0),
    bytesOnDisk: Number(parts?.disk ?? 0),
    optimizeMs,
    columns: perColumn.some((c) => c.compressedBytes > 0) ? perColumn : [],
  };
}
