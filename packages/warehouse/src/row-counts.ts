/**
 * Row counts of tables as a reader of them would count them. A plain MergeTree's count is
 * the engine's `total_rows`; a ReplacingMergeTree (the `*_latest` tables) holds one row per
 * key only once its parts are merged, so its `total_rows` jumps as merges run (2,545 then
 * 763 minutes apart, seen in the catalog): it is counted with FINAL instead, the number of
 * rows a query over it sees. The history tables are ReplacingMergeTree too, but a point
 * fetched twice is dropped as it arrives (`0007-history-tables.ts`), so their `total_rows`
 * is already the count a reader sees, and counting hundreds of millions of rows with FINAL
 * would cost seconds.
 */
import type { Warehouse } from "./client";
import { quoteIdentifier } from "./ddl";

export async function tableRowCounts(warehouse: Warehouse, databases: readonly string[]): Promise<Map<string, number>> {
  const tables = await warehouse.query<{ database: string; name: string; engine: string; total_rows: string | null }>(
    `SELECT database, name, engine, total_rows FROM system.tables
     WHERE database IN {databases:Array(String)} AND NOT is_temporary
       AND engine NOT IN ('View', 'MaterializedView')`,
    { params: { databases } },
  );
  const counts = new Map<string, number>();
  const replacing = tables.filter(
    (table) => table.engine.includes("ReplacingMergeTree") && table.name.endsWith("_latest"),
  );
  for (const table of tables) counts.set(`${table.database}.${table.name}`, Number(table.total_rows ?? 0));
  if (replacing.length > 0) {
    const [row] = await warehouse.query<Record<string, string>>(
      `SELECT ${replacing
        .map(
          (table, index) =>
            `(SELECT count() FROM ${quoteIdentifier(table.database)}.${quoteIdentifier(table.name)} FINAL) AS c${index}`,
        )
        .join(", ")}`,
    );
    replacing.forEach((table, index) => {
      counts.set(`${table.database}.${table.name}`, Number(row?.[`c${index}`] ?? 0));
    });
  }
  return counts;
}
