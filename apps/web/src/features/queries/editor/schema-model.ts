/**
 * The schema browser's search, as plain data: which tables and columns a search shows.
 * A table shows when its name, full name or description holds every word searched, with
 * all its columns; otherwise it shows with the columns whose name, type or description
 * hold them. A table shown for a search is opened when one of its columns holds a word
 * searched, so "candles close" shows `price_close`. Tables keep the catalog's order,
 * grouped by database.
 */
import type { Table, TableColumn } from "@epicenter/contracts";

export interface SchemaEntry {
  table: Table;
  columns: readonly TableColumn[];
  /** Opened by the search: one of its columns holds a word searched. */
  isOpenedBySearch: boolean;
}

export interface SchemaGroup {
  database: string;
  entries: SchemaEntry[];
}

const wordsOf = (search: string) => search.toLowerCase().split(/\s+/).filter(Boolean);
const holdsAll = (text: string, words: readonly string[]) => {
  const lower = text.toLowerCase();
  return words.every((word) => lower.includes(word));
};

export function searchSchema(tables: readonly Table[], search: string): SchemaGroup[] {
  const words = wordsOf(search);
  const groups = new Map<string, SchemaEntry[]>();
  for (const table of tables) {
    let entry: SchemaEntry | null = null;
    const columnText = (column: TableColumn) => `${column.name} ${column.type} ${column.description ?? ""}`;
    const isOpenedBySearch =
      words.length > 0 &&
      table.columns.some((column) => words.some((word) => columnText(column).toLowerCase().includes(word)));
    if (words.length === 0 || holdsAll(`${table.full_name} ${table.description ?? ""}`, words)) {
      entry = { table, columns: table.columns, isOpenedBySearch };
    } else {
      const columns = table.columns.filter((column) => holdsAll(`${table.full_name} ${columnText(column)}`, words));
      if (columns.length > 0) entry = { table, columns, isOpenedBySearch: true };
    }
    if (entry) groups.set(table.namespace, [...(groups.get(table.namespace) ?? []), entry]);
  }
  return [...groups].map(([database, entries]) => ({ database, entries }));
}
