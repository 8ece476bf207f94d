/**
 * The data catalog: the market tables users can query, their columns and row counts, and
 * sample rows. Only the market namespaces are listed; bookkeeping (`internal`, the sync
 * history) and engine or foreign system schemas are hidden by rule, not by accident.
 * Sample rows are read through the same sandbox as user SQL.
 */
import { type Namespace, type QueryResult, type Table, VENUE_FACTS, VENUES } from "@epicenter/contracts";
import { AS_OF_TABLE_FUNCTIONS, MARKET_DATABASES, tableRowCounts, type Warehouse } from "@epicenter/warehouse";
import { type QueryServiceDeps, runQuery } from "../queries/run-query";
import { describeColumn, describeTable } from "./descriptions";

const HIDDEN_PREFIXES = ["duckdb_", "information_schema", "pg_catalog", ".inner"];
const HIDDEN_NAMES = new Set(["sync_run_history", "schema_migrations", "backfill_state"]);

/** The spec's hiding rules for the catalog. */
export function isHiddenTable(namespace: string, name: string): boolean {
  if (namespace === "internal" || !(MARKET_DATABASES as readonly string[]).includes(namespace)) return true;
  if (HIDDEN_NAMES.has(name)) return true;
  return HIDDEN_PREFIXES.some((prefix) => name.startsWith(prefix) || namespace.startsWith(prefix));
}

const SOURCES: Record<string, Table["source"]> = {
  ...Object.fromEntries(VENUES.map((venue) => [VENUE_FACTS[venue].database, VENUE_FACTS[venue].label])),
  crossvenue: "Cross-venue",
  internal: "System",
};

interface TableRow {
  database: string;
  name: string;
}

interface ColumnRow {
  database: string;
  table: string;
  name: string;
  type: string;
}

export async function listTables(warehouse: Warehouse, options: { withStats: boolean }): Promise<Table[]> {
  const [tables, columns, counts] = await Promise.all([
    warehouse.query<TableRow>(
      `SELECT database, name FROM system.tables
       WHERE database IN {databases:Array(String)} AND NOT is_temporary
       ORDER BY database, name`,
      { params: { databases: MARKET_DATABASES } },
    ),
    warehouse.query<ColumnRow>(
      `SELECT database, table, name, type FROM system.columns
       WHERE database IN {databases:Array(String)}
       ORDER BY database, table, position`,
      { params: { databases: MARKET_DATABASES } },
    ),
    options.withStats ? tableRowCounts(warehouse, MARKET_DATABASES) : Promise.resolve(undefined),
  ]);
  const columnsOf = new Map<string, ColumnRow[]>();
  for (const column of columns) {
    const key = `${column.database}.${column.table}`;
    columnsOf.set(key, [...(columnsOf.get(key) ?? []), column]);
  }
  // The engine's `system.columns` leaves parameterised views out; their columns are what
  // the engine makes of a call (analysed, not run).
  await Promise.all(
    tables
      .filter((table) => isAsOfView(table.database, table.name) && !columnsOf.has(`${table.database}.${table.name}`))
      .map(async (table) => {
        const described = await warehouse.query<{ name: string; type: string }>(
          `DESCRIBE (SELECT * FROM ${table.database}.${table.name}(ts = now()))`,
        );
        columnsOf.set(
          `${table.database}.${table.name}`,
          described.map((column) => ({ database: table.database, table: table.name, ...column })),
        );
      }),
  );
  return tables
    .filter((table) => !isHiddenTable(table.database, table.name))
    .map((table) => {
      const fullName = `${table.database}.${table.name}`;
      return {
        name: table.name,
        table_name: table.name,
        namespace: table.database as Namespace,
        source: SOURCES[table.database] ?? "Other",
        full_name: fullName,
        description: describeTable(table.database, table.name),
        columns: (columnsOf.get(fullName) ?? []).map((column) => ({
          name: column.name,
          type: column.type,
          description: describeColumn(table.database, table.name, column.name),
        })),
        // Deduplicated for the `*_latest` tables: the count a query over them sees.
        row_count: counts ? (counts.get(fullName) ?? 0) : null,
      };
    });
}

/** True for the "as of" views, which are called with a moment: `polymarket.markets_asof(ts)`. */
export function isAsOfView(namespace: string, name: string): boolean {
  return AS_OF_TABLE_FUNCTIONS.has(`${namespace}.${name}`);
}

/** What a query reads a catalog table by: its name, or an as-of view called for now. */
export function tableSource(table: Pick<Table, "namespace" | "name">): string {
  const name = `${table.namespace}.${table.name}`;
  return isAsOfView(table.namespace, table.name) ? `${name}(now())` : name;
}

export async function getTable(warehouse: Warehouse, namespace: string, name: string): Promise<Table | undefined> {
  if (isHiddenTable(namespace, name)) return undefined;
  const tables = await listTables(warehouse, { withStats: true });
  return tables.find((table) => table.namespace === namespace && table.name === name);
}

/**
 * Sample rows of a catalog table, run as a user query (`runQuery`: the same admission,
 * sandbox and run record as the editor); undefined for a hidden or unknown table.
 */
export async function sampleTable(
  deps: QueryServiceDeps & { warehouse: Warehouse },
  namespace: string,
  name: string,
  request: {
    limit: number;
    userId: string | null;
    apiKeyId: string | null;
    origin: "catalog" | "seismo";
    signal?: AbortSignal | undefined;
  },
): Promise<{ sql: string; result: QueryResult } | undefined> {
  const table = await getTable(deps.warehouse, namespace, name);
  if (!table) return undefined;
  // Names come from the engine's own catalog, never from the request.
  const sql = `SELECT * FROM ${tableSource(table)} LIMIT ${request.limit}`;
  const result = await runQuery(deps, {
    sql,
    limit: request.limit,
    userId: request.userId,
    apiKeyId: request.apiKeyId,
    origin: request.origin,
    ...(request.signal ? { signal: request.signal } : {}),
  });
  return { sql, result };
}
