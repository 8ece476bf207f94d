/**
 * Format SQL (Shift+Alt+F in the editor): sql-formatter's ClickHouse dialect, with the
 * editor's `{name:Type}` parameters kept whole and two-space indents. Words keep their case:
 * the engine's identifiers are case-sensitive, and some columns are called as keywords are
 * (`volume`), so upper-casing keywords would rename them.
 * A text it cannot read is left as it is and the reason returned, so formatting never
 * loses a query.
 */
import { format } from "sql-formatter";

export type FormatOutcome = { ok: true; sql: string } | { ok: false; reason: string };

export function formatSql(sql: string): FormatOutcome {
  try {
    const formatted = format(sql, {
      language: "clickhouse",
      keywordCase: "preserve",
      tabWidth: 2,
      paramTypes: { custom: [{ regex: String.raw`\{[A-Za-z_][A-Za-z0-9_]*:[^{}]+\}` }] },
    });
    return { ok: true, sql: formatted };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error) };
  }
}
