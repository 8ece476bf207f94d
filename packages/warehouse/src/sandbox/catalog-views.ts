/**
 * What ClickHouse clients and BI tools read to discover a server — `system.databases`,
 * `system.tables`, `system.columns`, `system.settings`, `system.functions`,
 * `information_schema.*` — as views limited to the market databases, in two databases of
 * our own (`epicenter_system`, `epicenter_information_schema`). The ClickHouse interface
 * points a statement's `system.x` and `information_schema.x` at them, so the engine runs a
 * driver's metadata SQL unchanged (joins, `multiIf`, whatever the next release sends)
 * and nothing else of `system` is reachable: no other database, no `internal`, no query
 * log, no paths (the snapshot disk a sandbox worker reads from is cut out of the DDL).
 *
 * The views read the engine's own catalogue as the querying user (SQL SECURITY INVOKER),
 * so the sandbox's engine user holds SELECT on exactly the system tables named here
 * (`SYSTEM_TABLES_READ`); the allow-list still refuses `system.x` in user SQL itself.
 * `system.settings` shows the truth — `readonly` is 1 — so tools do not offer writes.
 */
import { MARKET_DATABASES } from "./allow-list";

export interface CatalogView {
  database: "epicenter_system" | "epicenter_information_schema";
  name: string;
  select: string;
}

const markets = `(${MARKET_DATABASES.map((name) => `'${name}'`).join(", ")})`;

/** Settings a client may read (and the ClickHouse interface may be sent); the rest stay hidden. */
export const VISIBLE_SETTINGS: readonly string[] = [
  "readonly",
  "max_result_rows",
  "max_result_bytes",
  "result_overflow_mode",
  "max_execution_time",
  "max_memory_usage",
  "max_threads",
  "max_block_size",
  "limit",
  "offset",
  "session_timezone",
  "date_time_output_format",
  "date_time_input_format",
  "output_format_json_quote_64bit_integers",
  "output_format_json_quote_decimals",
  "output_format_json_named_tuples_as_objects",
  "output_format_decimal_trailing_zeros",
  "cloud_mode",
  "allow_experimental_analyzer",
  "enable_analyzer",
  "join_use_nulls",
];

// The disk a worker's snapshot is attached from, printed last in a table's SETTINGS.
const withoutDisk = (column: string) =>
  `replaceRegexpAll(${column}, '(, | SETTINGS )disk = disk\\\\(.*\\\\)$', '') AS ${column}`;

const system = (name: string, select: string): CatalogView => ({ database: "epicenter_system", name, select });

const SYSTEM_VIEWS: CatalogView[] = [
  system(
    "databases",
    `SELECT * REPLACE ('' AS data_path, '' AS metadata_path) FROM system.databases WHERE name IN ${markets}`,
  ),
  // Paths blanked, not dropped: JDBC reads an empty data_paths as "a remote table".
  system(
    "tables",
    `SELECT * REPLACE (arrayMap(path -> '', data_paths) AS data_paths, '' AS metadata_path,
       ${withoutDisk("create_table_query")}, ${withoutDisk("engine_full")})
     FROM system.tables WHERE database IN ${markets} AND NOT is_temporary`,
  ),
  // DBeaver's table statistics.
  system(
    "parts",
    `SELECT database, table, name, partition, active, rows, bytes_on_disk, bytes_on_disk AS bytes, marks,
       modification_time, min_date, max_date, min_time, max_time
     FROM system.parts WHERE database IN ${markets}`,
  ),
  system("table_engines", "SELECT * FROM system.table_engines"),
  system("columns", `SELECT * FROM system.columns WHERE database IN ${markets}`),
  system(
    "settings",
    `SELECT * FROM system.settings WHERE name IN (${VISIBLE_SETTINGS.map((name) => `'${name}'`).join(", ")})`,
  ),
  system("functions", "SELECT * FROM system.functions"),
  system("table_functions", "SELECT * FROM system.table_functions WHERE name IN ('numbers', 'values', 'zeros')"),
  system("data_type_families", "SELECT * FROM system.data_type_families"),
  system("one", "SELECT * FROM system.one"),
];

/** The system tables the views read, which the sandbox's engine user may SELECT from. */
export const SYSTEM_TABLES_READ: readonly string[] = [
  "databases",
  "tables",
  "parts",
  "table_engines",
  "columns",
  "settings",
  "functions",
  "table_functions",
  "data_type_families",
  "one",
];

const schema = (name: string, select: string): CatalogView[] => [
  { database: "epicenter_information_schema", name, select },
  { database: "epicenter_information_schema", name: name.toUpperCase(), select },
];

/** Both spellings of every column, as ClickHouse's own `information_schema` has them. */
const bothCases = (pairs: [string, string][]) =>
  pairs.flatMap(([expression, name]) => [`${expression} AS ${name}`, `${name} AS ${name.toUpperCase()}`]).join(", ");

const INFORMATION_SCHEMA_VIEWS: CatalogView[] = [
  ...schema(
    "schemata",
    `SELECT ${bothCases([
      ["name", "catalog_name"],
      ["name", "schema_name"],
      ["'default'", "schema_owner"],
      ["CAST(NULL, 'Nullable(String)')", "default_character_set_catalog"],
      ["CAST(NULL, 'Nullable(String)')", "default_character_set_schema"],
      ["CAST(NULL, 'Nullable(String)')", "default_character_set_name"],
      ["CAST(NULL, 'Nullable(String)')", "sql_path"],
    ])} FROM epicenter_system.databases`,
  ),
  ...schema(
    "tables",
    `SELECT ${bothCases([
      ["database", "table_catalog"],
      ["database", "table_schema"],
      ["name", "table_name"],
      ["multiIf(engine LIKE '%View', 'VIEW', 'BASE TABLE')", "table_type"],
      ["total_rows", "table_rows"],
      ["total_bytes", "data_length"],
      ["'utf8mb4_0900_ai_ci'", "table_collation"],
      ["comment", "table_comment"],
    ])} FROM epicenter_system.tables`,
  ),
  ...schema(
    "columns",
    `SELECT ${bothCases([
      ["database", "table_catalog"],
      ["database", "table_schema"],
      ["table", "table_name"],
      ["name", "column_name"],
      ["position", "ordinal_position"],
      ["default_expression", "column_default"],
      ["if(type LIKE 'Nullable(%)', 'YES', 'NO')", "is_nullable"],
      ["type", "data_type"],
      ["character_octet_length", "character_maximum_length"],
      ["character_octet_length", "character_octet_length"],
      ["numeric_precision", "numeric_precision"],
      ["numeric_precision_radix", "numeric_precision_radix"],
      ["numeric_scale", "numeric_scale"],
      ["datetime_precision", "datetime_precision"],
      ["comment", "column_comment"],
      ["type", "column_type"],
    ])} FROM epicenter_system.columns`,
  ),
  ...schema(
    "views",
    `SELECT ${bothCases([
      ["database", "table_catalog"],
      ["database", "table_schema"],
      ["name", "table_name"],
      ["as_select", "view_definition"],
      ["'NONE'", "check_option"],
      ["'NO'", "is_updatable"],
    ])} FROM epicenter_system.tables WHERE engine LIKE '%View'`,
  ),
];

/** Every catalogue view, `epicenter_system` first (the `information_schema` views read it). */
export const CATALOG_VIEWS: readonly CatalogView[] = [...SYSTEM_VIEWS, ...INFORMATION_SCHEMA_VIEWS];
