/**
 * How a tool answers: structured content for programs, the same as text for models, and a
 * failure as a tool result (`isError`) rather than a protocol error, so the agent reads the
 * sandbox's own message ("Only SELECT queries are allowed…") and can repair its SQL. Only
 * what the caller did wrong is told as it is; anything else is logged and told as ours.
 */
import type { QueryResult } from "@epicenter/contracts";
import { SandboxError } from "@epicenter/warehouse";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "pino";
import { z } from "zod";
import { QueryServiceBusy } from "../queries/admission";
import { UnconfinedSqlRefused } from "../queries/run-query";

/** Rows a query tool returns unless asked, and at most. */
export const DEFAULT_TOOL_ROWS = 100;
export const MAX_TOOL_ROWS = 1_000;
/** JSON bytes of rows a query tool returns at most, whatever the row limit: a tool call stays small. */
export const MAX_TOOL_RESULT_BYTES = 256 * 1024;

/** The structured content of `run_query` and `run_saved_query`. */
export const ZToolQueryResult = z.object({
  sql: z.string().describe("The statement that ran."),
  columns: z.array(z.object({ name: z.string(), type: z.string() })),
  rows: z.array(z.array(z.unknown())).describe("One array of values per row, in column order."),
  row_count: z.number().int(),
  truncated: z.boolean().describe("True when the statement had more rows than were returned."),
  cut_by: z
    .enum(["rows", "bytes"])
    .nullable()
    .describe("What cut the result: the row limit, or the byte bound of a tool call; null when complete."),
  execution_time_ms: z.number(),
});
export type ToolQueryResult = z.infer<typeof ZToolQueryResult>;

export function toolQueryResult(sql: string, result: QueryResult, limit: number): ToolQueryResult {
  return {
    sql,
    columns: result.columns,
    rows: result.rows,
    row_count: result.row_count,
    truncated: result.truncated,
    cut_by: result.truncated ? (result.row_count >= limit ? "rows" : "bytes") : null,
    execution_time_ms: result.execution_time_ms,
  };
}

/** The result as a model reads it: one line on what it holds (and what cut it), then the rows. */
export function queryResultText(result: ToolQueryResult): string {
  const rows = `${result.row_count} row${result.row_count === 1 ? "" : "s"}`;
  const cut =
    result.cut_by === "rows"
      ? ` — cut at the row limit of ${result.row_count}; the statement has more rows (raise limit up to ${MAX_TOOL_ROWS}, or aggregate)`
      : result.cut_by === "bytes"
        ? ` — cut at the ${MAX_TOOL_RESULT_BYTES / 1024} KiB bound of a tool call; the statement has more rows (select fewer columns, or aggregate)`
        : "";
  const lines = [`${rows} in ${Math.round(result.execution_time_ms)} ms${cut}.`];
  if (result.columns.length > 0) {
    lines.push(result.columns.map((column) => `${column.name} (${column.type})`).join("\t"));
    for (const row of result.rows) lines.push(row.map(cellText).join("\t"));
  }
  return lines.join("\n");
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.replace(/[\t\n\r]/g, (ch) => (ch === "\t" ? "\\t" : ch === "\n" ? "\\n" : "\\r"));
}

/** A structured answer, with its JSON as the text for clients that read only text. */
export function structuredResult<T extends Record<string, unknown>>(content: T, text?: string): CallToolResult {
  return { content: [{ type: "text", text: text ?? JSON.stringify(content, null, 2) }], structuredContent: content };
}

/** A refusal the caller can act on: a tool result with `isError`, never a protocol error. */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/** A failed call: the sandbox's or the queue's message as it is; anything else logged and not repeated. */
export function toolFailure(error: unknown, logger: Logger, tool: string): CallToolResult {
  if (error instanceof SandboxError || error instanceof QueryServiceBusy || error instanceof UnconfinedSqlRefused) {
    return toolError(error.message);
  }
  logger.error({ err: error, tool }, "MCP tool failed");
  return toolError("Something went wrong on our side. It has been logged.");
}
