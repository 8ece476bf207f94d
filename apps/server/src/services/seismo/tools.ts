/**
 * Seismo's tools, over the same services users have: sample rows of a catalog table,
 * execute one statement through the query service (same sandbox, limits and run records
 * as the editor, origin "seismo"), web search when a provider is configured, and the
 * report with charts as data values. Every tool answers an outcome and never throws, so
 * an engine's refusal reaches the model (to repair) and the person (to see) alike.
 */
import type {
  AssistantReport,
  AssistantTool,
  QueryPreview,
  QueryResult,
  ReportChart,
  ToolError,
  ToolResultEvent,
} from "@epicenter/contracts";
import { SandboxError, type Warehouse } from "@epicenter/warehouse";
import { type Tool, type ToolSet, tool } from "ai";
import { z } from "zod";
import type { Config } from "../../config";
import { sampleTable } from "../catalog/catalog";
import { type QueryServiceDeps, runQuery } from "../queries/run-query";
import { type SearchResult, webSearch } from "./search";
import { sameSql } from "./sql-blocks";

export const TOOL_LIMITS = {
  /** Rows a query returns to Seismo at most; the model sees fewer. */
  queryRows: 200,
  previewRows: 20,
  modelRows: 30,
  checkRows: 5,
  chartRows: 500,
  maxCharts: 3,
  queryTimeoutMs: 20_000,
  sampleRows: 5,
} as const;

/** What a tool answers: the event's fields, plus what the model is told. */
export type ToolOutcome = Omit<ToolResultEvent, "type" | "id" | "tool" | "duration_ms"> & {
  forModel: unknown;
  durationMs: number;
};

export interface ToolContext {
  queries: QueryServiceDeps;
  warehouse: Warehouse;
  search: Config["search"];
  userId: string | null;
  apiKeyId: string | null;
  /** Counts every tool call against the request's budget; false once it is spent. */
  takeToolCall(): boolean;
  /** Statements that ran without error in this request, for the final check. */
  succeeded: Array<{ sql: string; result: QueryResult }>;
  onReport(report: AssistantReport): void;
}

const BUDGET_SPENT: ToolOutcome = {
  ok: false,
  summary: "Tool budget spent",
  error: { kind: "limit", message: "The tool-call budget of this request is spent. Answer now with what you have." },
  forModel: { error: "The tool-call budget of this request is spent. Answer now with what you have." },
  durationMs: 0,
};

export function toolErrorOf(error: unknown): ToolError {
  if (error instanceof SandboxError) return { kind: error.kind, message: error.message };
  if (error instanceof Error && error.name === "AbortError") return { kind: "cancelled", message: "Stopped." };
  return { kind: "failed", message: error instanceof Error ? error.message : String(error) };
}

export function previewOf(sql: string, result: QueryResult, rows: number = TOOL_LIMITS.previewRows): QueryPreview {
  return { ...result, sql, rows: result.rows.slice(0, rows) };
}

/** "1 row", "200+ rows": the time travels beside it as duration_ms. */
function rowsSummary(result: QueryResult): string {
  return `${result.row_count}${result.truncated ? "+" : ""} row${result.row_count === 1 && !result.truncated ? "" : "s"}`;
}

export async function executeQuery(
  context: Pick<ToolContext, "queries" | "userId" | "apiKeyId" | "succeeded">,
  sql: string,
  limit: number,
  signal: AbortSignal | undefined,
): Promise<ToolOutcome> {
  const started = performance.now();
  try {
    const result = await runQuery(context.queries, {
      sql,
      limit,
      origin: "seismo",
      userId: context.userId,
      apiKeyId: context.apiKeyId,
      timeoutMs: TOOL_LIMITS.queryTimeoutMs,
      ...(signal ? { signal } : {}),
    });
    context.succeeded.push({ sql, result });
    return {
      ok: true,
      summary: rowsSummary(result),
      query: previewOf(sql, result),
      forModel: {
        columns: result.columns.map((column) => `${column.name} ${column.type}`),
        rows: result.rows.slice(0, TOOL_LIMITS.modelRows),
        row_count: result.row_count,
        truncated: result.truncated,
      },
      durationMs: performance.now() - started,
    };
  } catch (error) {
    const toolError = toolErrorOf(error);
    return {
      ok: false,
      summary: toolError.kind === "refused" ? "Refused by the sandbox" : "The engine rejected the statement",
      query: { sql, columns: [], rows: [], row_count: 0, truncated: false, execution_time_ms: 0 },
      error: toolError,
      forModel: { error: `${toolError.kind}: ${toolError.message}` },
      durationMs: performance.now() - started,
    };
  }
}

const ZChartInput = z.object({
  title: z.string().min(1).max(200),
  sql: z.string().min(1).max(20_000).describe("One SELECT whose rows the chart draws"),
  type: z.enum(["line", "bar", "area", "scatter"]),
  x: z.string().min(1).describe("Column on the x axis"),
  y: z.array(z.string().min(1)).min(1).max(4).describe("Numeric columns on the y axis"),
});

function outcomeTool<S extends z.ZodType>(
  description: string,
  inputSchema: S,
  context: ToolContext,
  run: (input: z.infer<S>, signal: AbortSignal | undefined) => Promise<ToolOutcome>,
): Tool<z.infer<S>, ToolOutcome> {
  return tool<z.infer<S>, ToolOutcome>({
    description,
    inputSchema,
    execute: async (input, { abortSignal }) => (context.takeToolCall() ? run(input, abortSignal) : BUDGET_SPENT),
    toModelOutput: ({ output }) => ({ type: "json", value: JSONValue(output.forModel) }),
  });
}

// The SDK wants JSON values for the model; query rows are JSON already.
function JSONValue(value: unknown): never {
  return JSON.parse(JSON.stringify(value ?? null)) as never;
}

/** The tools offered for one request; web_search only when a search provider is configured. */
export function seismoTools(context: ToolContext): ToolSet {
  const tools = {
    sample_data: outcomeTool(
      "A few real rows of one catalog table, to see values before writing SQL.",
      z.object({ table: z.string().min(3).max(100).describe("namespace.table, e.g. polymarket.markets_latest") }),
      context,
      async ({ table }, signal) => {
        const started = performance.now();
        const [namespace = "", name = ""] = table.trim().split(".");
        try {
          const sample = await sampleTable({ ...context.queries, warehouse: context.warehouse }, namespace, name, {
            limit: TOOL_LIMITS.sampleRows,
            userId: context.userId,
            apiKeyId: context.apiKeyId,
            origin: "seismo",
            signal,
          });
          if (!sample) {
            const message = `No table ${table} in the catalog; use one of the tables listed in your instructions.`;
            return {
              ok: false,
              summary: "Unknown table",
              error: { kind: "not_found", message },
              forModel: { error: message },
              durationMs: performance.now() - started,
            };
          }
          // Long text (raw JSON, rules) would drown the model; the first characters tell enough.
          const rows = sample.result.rows.map((row) =>
            row.map((value) => (typeof value === "string" && value.length > 160 ? `${value.slice(0, 160)}…` : value)),
          );
          return {
            ok: true,
            summary: `${sample.result.row_count} sample rows of ${table}`,
            query: { ...sample.result, sql: sample.sql, rows },
            forModel: { columns: sample.result.columns.map((column) => `${column.name} ${column.type}`), rows },
            durationMs: performance.now() - started,
          };
        } catch (error) {
          const toolError = toolErrorOf(error);
          return {
            ok: false,
            summary: "Sample failed",
            error: toolError,
            forModel: { error: toolError.message },
            durationMs: performance.now() - started,
          };
        }
      },
    ),
    execute_query: outcomeTool(
      "Runs one read-only ClickHouse SELECT over the polymarket, kalshi and crossvenue tables and returns the first rows.",
      z.object({ sql: z.string().min(1).max(20_000) }),
      context,
      ({ sql }, signal) => executeQuery(context, sql, TOOL_LIMITS.queryRows, signal),
    ),
    produce_report: outcomeTool(
      "The final report: a title, markdown with the findings and their numbers, and up to three charts, each drawn from one SELECT.",
      z.object({
        title: z.string().min(1).max(200),
        markdown: z.string().min(1).max(20_000),
        charts: z.array(ZChartInput).max(TOOL_LIMITS.maxCharts).default([]),
      }),
      context,
      async ({ title, markdown, charts }, signal) => {
        const started = performance.now();
        const drawn: ReportChart[] = [];
        for (const chart of charts) {
          const cached = context.succeeded.find((run) => sameSql(run.sql, chart.sql) && !run.result.truncated);
          let result = cached?.result;
          if (!result) {
            const outcome = await executeQuery(context, chart.sql, TOOL_LIMITS.chartRows, signal);
            if (!outcome.ok) {
              const message = `The chart "${chart.title}" could not be drawn: ${outcome.error?.message ?? "failed"}. Fix its SQL and call produce_report again.`;
              return { ...outcome, summary: "A chart's SQL failed", forModel: { error: message } };
            }
            result = context.succeeded.at(-1)?.result;
          }
          if (!result) continue;
          const names = new Set(result.columns.map((column) => column.name));
          const missing = [chart.x, ...chart.y].filter((name) => !names.has(name));
          if (missing.length > 0) {
            const message = `The chart "${chart.title}" names columns its SQL does not return: ${missing.join(", ")}. Its columns are ${[...names].join(", ")}.`;
            return {
              ok: false,
              summary: "A chart names unknown columns",
              error: { kind: "failed", message },
              forModel: { error: message },
              durationMs: performance.now() - started,
            };
          }
          drawn.push({
            node: {
              kind: "sql",
              sql: chart.sql,
              title: chart.title,
              view: { kind: "chart", type: chart.type, x: chart.x, y: chart.y },
            },
            result: { ...result, rows: result.rows.slice(0, TOOL_LIMITS.chartRows) },
          });
        }
        const report: AssistantReport = { title, markdown, charts: drawn };
        context.onReport(report);
        return {
          ok: true,
          summary: `Report with ${drawn.length} chart${drawn.length === 1 ? "" : "s"}`,
          report,
          forModel: { ok: true, note: "The report is shown to the user. Now answer with a short summary." },
          durationMs: performance.now() - started,
        };
      },
    ),
    ...(context.search.url
      ? {
          web_search: outcomeTool(
            "Searches the web for context the archive cannot give (news, a market's rules). Returns titles, URLs and snippets.",
            z.object({ query: z.string().min(2).max(300) }),
            context,
            async ({ query }, signal) => {
              const started = performance.now();
              try {
                const results: SearchResult[] = await webSearch(
                  context.search,
                  query,
                  signal ?? new AbortController().signal,
                );
                return {
                  ok: true,
                  summary: `${results.length} web result${results.length === 1 ? "" : "s"}`,
                  search_results: results,
                  forModel: { results },
                  durationMs: performance.now() - started,
                };
              } catch (error) {
                const toolError = toolErrorOf(error);
                return {
                  ok: false,
                  summary: "Web search failed",
                  error: toolError,
                  forModel: { error: toolError.message },
                  durationMs: performance.now() - started,
                };
              }
            },
          ),
        }
      : {}),
  };
  return tools satisfies Partial<Record<AssistantTool, unknown>>;
}
