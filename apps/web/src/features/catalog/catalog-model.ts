/**
 * The catalog's rules of SPEC §2 as pure functions: dataset ids (`namespace-table`), the
 * simplified types, the first non-null sample value per column, and the 100-character cut.
 */
import { isAsOfView, type SampleData, type Table } from "@epicenter/contracts";

export const SAMPLE_TEXT_LIMIT = 100;

export function datasetId(table: { namespace: string; name: string }): string {
  return `${table.namespace}-${table.name}`;
}

/** `polymarket-markets_latest` → polymarket, markets_latest. Namespaces have no dash. */
export function parseDatasetId(id: string): { namespace: string; table: string } | null {
  const dash = id.indexOf("-");
  if (dash <= 0 || dash === id.length - 1) return null;
  return { namespace: id.slice(0, dash), table: id.slice(dash + 1) };
}

/** Nullable removed, DateTime64 → DateTime, Float32/64 → Float, Int8–64 → Int, UInt8–64 → UInt. */
export function simplifyType(type: string): string {
  let simplified = type;
  while (/Nullable\(/.test(simplified))
    simplified = simplified.replace(/Nullable\(([^()]*(?:\([^()]*\))?[^()]*)\)/, "$1");
  return simplified
    .replace(/DateTime64(\([^)]*\))?/g, "DateTime")
    .replace(/\bFloat(32|64)\b/g, "Float")
    .replace(/\bUInt(8|16|32|64)\b/g, "UInt")
    .replace(/\bInt(8|16|32|64)\b/g, "Int");
}

/** The statement 'Query in Editor' opens. */
export function tableQuery(table: { namespace: string; name: string }): string {
  if (isAsOfView(table.name))
    return `SELECT * FROM ${table.namespace}.${table.name}(now() - INTERVAL 1 HOUR) LIMIT 100`;
  return `SELECT * FROM ${table.namespace}.${table.name} LIMIT 100`;
}

/** A sample value as text, cut at 100 characters. */
export function sampleText(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > SAMPLE_TEXT_LIMIT ? `${text.slice(0, SAMPLE_TEXT_LIMIT)}…` : text;
}

/**
 * Column name → the first sample value that says something: not NULL, and not an empty
 * string or array (an empty `resolutionSource` tells a reader nothing a NULL would not).
 */
export function firstSampleValues(sample: SampleData | undefined): Map<string, unknown> {
  const values = new Map<string, unknown>();
  if (!sample) return values;
  sample.columns.forEach((column, index) => {
    const row = sample.sample_data.find((candidate) => isPresent(candidate[index]));
    if (row) values.set(column, row[index]);
  });
  return values;
}

function isPresent(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === "string") return value !== "";
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

/** Search by name: the table name or `namespace.table`, case-insensitive. */
export function matchesSearch(table: Pick<Table, "name" | "full_name">, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return table.name.toLowerCase().includes(needle) || table.full_name.toLowerCase().includes(needle);
}

export function formatRowsAndColumns(rows: number, columns: number): string {
  return `${rows.toLocaleString("en-US")} rows • ${columns} columns`;
}
