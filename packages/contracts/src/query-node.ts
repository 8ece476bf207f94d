/**
 * The one value for "a query" and the one for "a result", everywhere the product holds
 * either: saved queries, dashboard tiles, Seismo's SQL blocks and report charts, the
 * editor's URL; tiles, previews, samples and the editor's grid. A `QueryNode` is plain data
 * tagged with a `kind` (STYLE.md), so what is in the URL, in an API body and in the store
 * is the same value. A `QueryResult` holds rows as value arrays (compact, and exact when
 * two columns share a name); the public REST answer keeps its spec shape (`data` as
 * objects) at its edge only.
 */
import { z } from "zod";
import { ZSavedParams } from "./query-params";

/** Longest statement accepted anywhere; the engine's `max_query_size` is 256 KiB and the wrapping needs room. */
export const MAX_QUERY_LENGTH = 100_000;
/** Most rows one interactive result holds; a download may hold more (`MAX_EXPORT_ROW_LIMIT`). */
export const MAX_QUERY_ROW_LIMIT = 100_000;
/** Rows a query returns when the caller does not say. */
export const DEFAULT_QUERY_ROW_LIMIT = 1_000;

export const ZQueryColumn = z.object({
  name: z.string(),
  type: z.string().describe("The engine's type, e.g. Nullable(Float64)."),
});
export type QueryColumn = z.infer<typeof ZQueryColumn>;

/** A chart drawn from a result, stored with the query as a plain data value. */
export const ZChartSpec = z
  .object({
    kind: z.literal("chart"),
    type: z.enum(["line", "bar", "area", "scatter"]),
    x: z.string().min(1).describe("Column on the x axis"),
    y: z.array(z.string().min(1)).min(1).max(8).describe("Columns plotted on the y axis"),
    series: z
      .string()
      .min(1)
      .optional()
      .describe(
        "A column whose values split the first y column into one series each (rows in long form: x, series, value); up to 8 series, in order of first appearance",
      ),
  })
  .meta({ id: "ChartSpec" });
export type ChartSpec = z.infer<typeof ZChartSpec>;

export const ZNumberSpec = z
  .object({
    kind: z.literal("number"),
    column: z.string().min(1).describe("Column of the first row shown as the number"),
  })
  .meta({ id: "NumberSpec" });
export type NumberSpec = z.infer<typeof ZNumberSpec>;

export const ZTableSpec = z.object({ kind: z.literal("table") }).meta({ id: "TableTileSpec" });
export type TableSpec = z.infer<typeof ZTableSpec>;

/** How a result is shown: a chart, one number, or the table. */
export const ZQueryView = z.discriminatedUnion("kind", [ZChartSpec, ZNumberSpec, ZTableSpec]).meta({ id: "QueryView" });
export type QueryView = z.infer<typeof ZQueryView>;

export const ZQueryNode = z
  .object({
    kind: z.literal("sql"),
    sql: z.string().min(1).max(MAX_QUERY_LENGTH).describe("One SELECT statement (WITH and UNION allowed)."),
    title: z.string().max(200).optional(),
    view: ZQueryView.optional().describe("How its result is shown; the table when absent."),
    params: ZSavedParams.optional().describe("Values of its `{name:Type}` parameters, by name, as text."),
  })
  .meta({ id: "QueryNode" });
export type QueryNode = z.infer<typeof ZQueryNode>;

export const ZQueryResult = z
  .object({
    columns: z.array(ZQueryColumn),
    rows: z.array(z.array(z.unknown())).describe("One array of values per row, in column order."),
    row_count: z.number().int().nonnegative(),
    truncated: z.boolean().describe("True when the statement had more rows (or bytes) than the limit."),
    truncated_by: z
      .enum(["rows", "bytes"])
      .optional()
      .describe("What cut a truncated result: the row limit, or the bytes one answer may hold."),
    execution_time_ms: z.number().nonnegative(),
  })
  .meta({ id: "QueryResult" });
export type QueryResult = z.infer<typeof ZQueryResult>;

/** Rows as objects keyed by column name: the shape of the REST API's `result.data` and of charts. */
export function rowsAsObjects(result: Pick<QueryResult, "columns" | "rows">): Record<string, unknown>[] {
  return result.rows.map((row) => Object.fromEntries(result.columns.map((column, index) => [column.name, row[index]])));
}
