/**
 * Seismo, the AI assistant (SPEC §3 "Assistant stream events", §7): the request, the
 * server-sent events of `POST /api/assistant/generate/stream` and the one JSON answer of
 * `POST /assistant/generate`. Both endpoints run the same agent loop; the stream sends
 * each step as it happens, the JSON answer is what the stream's `complete` event carries.
 *
 * Reports and their charts are plain data values (a chart is a `ChartSpec` plus the rows
 * it draws), so what the server produced, what travels and what the page draws are the
 * same value.
 */
import { z } from "zod";
import { defineEndpoint, type Endpoint } from "./endpoint";
import { ZApiError } from "./errors";
import { ZQueryNode, ZQueryResult } from "./query-node";

export const ASSISTANT_MODES = ["query_writer", "analyst"] as const;
export const ZAssistantMode = z
  .enum(ASSISTANT_MODES)
  .describe("query_writer answers with checked ClickHouse SQL; analyst runs queries and reports findings.");
export type AssistantMode = z.infer<typeof ZAssistantMode>;

export const MAX_ASSISTANT_MESSAGE_CHARS = 8_000;
export const MAX_HISTORY_MESSAGES = 40;
export const MAX_HISTORY_MESSAGE_CHARS = 40_000;

export const ZConversationMessage = z
  .object({
    role: z.enum(["user", "assistant"]),
    content: z.string().max(MAX_HISTORY_MESSAGE_CHARS),
  })
  .meta({ id: "AssistantConversationMessage" });
export type ConversationMessage = z.infer<typeof ZConversationMessage>;

export const ZAssistantRequest = z
  .object({
    message: z.string().trim().min(1, "ask something").max(MAX_ASSISTANT_MESSAGE_CHARS),
    mode: ZAssistantMode.default("query_writer"),
    conversation_history: z
      .array(ZConversationMessage)
      .max(MAX_HISTORY_MESSAGES, `at most ${MAX_HISTORY_MESSAGES} earlier messages`)
      .default([])
      .describe("The conversation so far, oldest first; the server keeps no conversation state."),
  })
  .meta({ id: "AssistantRequest" });
export type AssistantRequest = z.input<typeof ZAssistantRequest>;

export const ASSISTANT_TOOLS = ["sample_data", "execute_query", "web_search", "produce_report"] as const;
export const ZAssistantTool = z.enum(ASSISTANT_TOOLS);
export type AssistantTool = z.infer<typeof ZAssistantTool>;

/** Rows of a query as the assistant shows them: a preview (the first rows), never the whole result. */
export const ZQueryPreview = ZQueryResult.extend({ sql: z.string() });
export type QueryPreview = z.infer<typeof ZQueryPreview>;

/** A chart of a report: the query (its title and chart as the node's view) and the rows it draws. */
export const ZReportChart = z.object({ node: ZQueryNode, result: ZQueryResult }).meta({ id: "AssistantReportChart" });
export type ReportChart = z.infer<typeof ZReportChart>;

export const ZAssistantReport = z
  .object({ title: z.string(), markdown: z.string(), charts: z.array(ZReportChart) })
  .meta({ id: "AssistantReport" });
export type AssistantReport = z.infer<typeof ZAssistantReport>;

export const ZToolError = z.object({
  kind: z
    .enum([
      "refused",
      "syntax",
      "engine",
      "timeout",
      "cancelled",
      "memory",
      "too_large",
      "not_found",
      "limit",
      "failed",
    ])
    .describe("refused: the sandbox does not allow the statement; limit: Seismo's own bounds."),
  message: z.string(),
});
export type ToolError = z.infer<typeof ZToolError>;

export const ZToolCallEvent = z
  .object({
    type: z.literal("tool_call"),
    id: z.string(),
    tool: ZAssistantTool,
    input: z.record(z.string(), z.unknown()),
    is_check: z.boolean().describe("True when Seismo itself runs the answer's SQL to check it."),
  })
  .meta({ id: "AssistantToolCallEvent" });

export const ZToolResultEvent = z
  .object({
    type: z.literal("tool_result"),
    id: z.string(),
    tool: ZAssistantTool,
    ok: z.boolean(),
    duration_ms: z.number().nonnegative(),
    summary: z.string().describe("One line a person can read, e.g. '12 rows in 84 ms'."),
    query: ZQueryPreview.optional(),
    report: ZAssistantReport.optional(),
    search_results: z.array(z.object({ title: z.string(), url: z.string(), snippet: z.string() })).optional(),
    error: ZToolError.optional(),
  })
  .meta({ id: "AssistantToolResultEvent" });
export type ToolResultEvent = z.infer<typeof ZToolResultEvent>;

export const ZTextStartEvent = z.object({ type: z.literal("text_start"), id: z.string() });
export const ZTextDeltaEvent = z.object({ type: z.literal("text_delta"), id: z.string(), delta: z.string() });

export const ZSqlBlock = z
  .object({
    sql: z.string(),
    title: z.string().describe("A short title for saving or opening it in the editor."),
    status: z
      .enum(["checked", "rejected"])
      .describe("checked: ran under a small limit; rejected: the engine refused it."),
    row_count: z.number().int().nonnegative().nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: "AssistantSqlBlock" });
export type SqlBlock = z.infer<typeof ZSqlBlock>;

export const ZSqlEvent = ZSqlBlock.extend({ type: z.literal("sql") });

export const ZAssistantAnswer = z
  .object({
    mode: ZAssistantMode,
    text: z.string().describe("The final answer as markdown."),
    sql: z.array(ZSqlBlock),
    report: ZAssistantReport.nullable(),
    tool_calls: z.array(
      z.object({
        id: z.string(),
        tool: ZAssistantTool,
        input: z.record(z.string(), z.unknown()),
        is_check: z.boolean(),
        result: ZToolResultEvent.omit({ type: true, id: true, tool: true }).nullable(),
      }),
    ),
    finish_reason: z
      .enum(["done", "step_limit", "tool_limit", "time_limit", "repair_limit"])
      .describe("Why the loop ended; anything but done means a bound was reached."),
    steps: z.number().int().nonnegative(),
    duration_ms: z.number().nonnegative(),
  })
  .meta({ id: "AssistantAnswer" });
export type AssistantAnswer = z.infer<typeof ZAssistantAnswer>;

export const ZCompleteEvent = ZAssistantAnswer.extend({ type: z.literal("complete") });

export const ZAssistantErrorEvent = z.object({
  type: z.literal("error"),
  code: z.enum(["not_configured", "provider", "time_limit", "internal"]),
  message: z.string().describe("A sentence a person can read."),
});

export const ZAssistantEvent = z
  .discriminatedUnion("type", [
    ZToolCallEvent,
    ZToolResultEvent,
    ZTextStartEvent,
    ZTextDeltaEvent,
    ZSqlEvent,
    ZCompleteEvent,
    ZAssistantErrorEvent,
  ])
  .meta({ id: "AssistantEvent" });
export type AssistantEvent = z.infer<typeof ZAssistantEvent>;
export type AssistantEventType = AssistantEvent["type"];

const error = (description: string) => ({ description, schema: ZApiError });

/** The assistant's endpoints; merged into `endpoints`. */
export const assistantEndpoints = {
  assistantStream: defineEndpoint({
    method: "post",
    path: "/api/assistant/generate/stream",
    summary: "Ask Seismo, answered as server-sent events",
    description:
      "Each event's name is its `type`: tool_call, tool_result, text_start, text_delta, sql, complete, or error (a sentence a person can read). Closing the connection stops the model and any running query.",
    tag: "Assistant",
    auth: "session_or_key",
    body: ZAssistantRequest,
    // The conversation so far travels with each question.
    maxBodyBytes: 1024 * 1024,
    responses: {
      200: { description: "The event stream", schema: ZAssistantEvent, contentType: "text/event-stream" },
      400: error("The message, mode or history is invalid"),
      401: error("No valid session or API key"),
      503: error("Seismo is not configured on this server; the message says how to configure it"),
    },
  }),
  assistantGenerate: defineEndpoint({
    method: "post",
    path: "/assistant/generate",
    summary: "Ask Seismo, answered as one JSON document",
    description: "The same loop as the stream; the answer is what its complete event carries.",
    tag: "Assistant",
    auth: "session_or_key",
    body: ZAssistantRequest,
    // The conversation so far travels with each question.
    maxBodyBytes: 1024 * 1024,
    responses: {
      200: { description: "The answer", schema: ZAssistantAnswer },
      400: error("The message, mode or history is invalid"),
      401: error("No valid session or API key"),
      502: error("The model provider failed"),
      503: error("Seismo is not configured on this server; the message says how to configure it"),
    },
  }),
} satisfies Record<string, Endpoint>;
