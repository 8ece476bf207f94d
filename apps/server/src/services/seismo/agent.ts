/**
 * Seismo's agent loop, shared by the stream and the JSON endpoint: the model (any
 * OpenAI-compatible endpoint) grounded in the live catalog, calling the tools over the
 * same query service as users, every step reported through `emit` as it happens.
 *
 * Bounds, so a confused model or a slow query cannot run away with the server:
 * - steps (model calls) per request, tool calls per request, and the whole request's time;
 * - each query: the sandbox's limits plus a tighter time limit;
 * - query_writer: the answer's SQL is run with a small limit; when the engine rejects
 *   it the model is told the error and answers again, up to MAX_REPAIRS times.
 * Aborting `signal` (the client went away, Stop) aborts the model call and any running
 * query, and no further model call starts.
 */
import type {
  AssistantAnswer,
  AssistantEvent,
  AssistantMode,
  AssistantReport,
  ConversationMessage,
  QueryResult,
  SqlBlock,
} from "@epicenter/contracts";
import type { AppDb } from "@epicenter/db";
import type { Sandbox, Warehouse } from "@epicenter/warehouse";
import { type LanguageModel, type ModelMessage, type StopCondition, stepCountIs, streamText, type ToolSet } from "ai";
import type { Logger } from "pino";
import type { Config } from "../../config";
import type { QueryAdmission } from "../queries/admission";
import type { QueryRunRecorder } from "../queries/run-recorder";
import { catalogGrounding, systemPrompt } from "./grounding";
import { NOT_CONFIGURED_MESSAGE, seismoModel } from "./provider";
import { sameSql, sqlBlocksOf, titleFor } from "./sql-blocks";
import { executeQuery, seismoTools, TOOL_LIMITS, type ToolContext, type ToolOutcome } from "./tools";

export const SEISMO_LIMITS = {
  maxSteps: 12,
  maxToolCalls: 12,
  maxRepairs: 2,
  totalTimeMs: 180_000,
  /** SQL blocks of an analyst answer checked at most. */
  maxCheckedBlocks: 3,
} as const;

export interface SeismoDeps {
  config: Pick<Config, "seismo" | "search">;
  warehouse: Warehouse;
  sandbox: Sandbox;
  admission: QueryAdmission;
  db: AppDb;
  queryRuns: QueryRunRecorder;
  logger: Logger;
  clock: () => Date;
}

export interface SeismoRequest {
  message: string;
  mode: AssistantMode;
  history: ConversationMessage[];
  userId: string | null;
  apiKeyId?: string | null;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
}

export type Emit = (event: AssistantEvent) => void | Promise<void>;

export class SeismoError extends Error {
  constructor(
    readonly code: "not_configured" | "provider" | "time_limit" | "aborted",
    message: string,
  ) {
    super(message);
    this.name = "SeismoError";
  }
}

type Finish = AssistantAnswer["finish_reason"];

export async function runSeismo(
  deps: SeismoDeps,
  request: SeismoRequest,
  emit: Emit,
  limits: typeof SEISMO_LIMITS = SEISMO_LIMITS,
): Promise<AssistantAnswer> {
  const model = seismoModel(deps.config.seismo);
  if (!model) throw new SeismoError("not_configured", NOT_CONFIGURED_MESSAGE);
  const started = performance.now();
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), limits.totalTimeMs);
  const signal = AbortSignal.any([request.signal, deadline.signal]);
  try {
    return await loop(deps, model, request, emit, signal, limits, started);
  } catch (error) {
    if (request.signal.aborted) throw new SeismoError("aborted", "The client went away.");
    if (deadline.signal.aborted) {
      throw new SeismoError(
        "time_limit",
        `Seismo stopped after ${Math.round(limits.totalTimeMs / 1000)} seconds, its time limit for one question. Try a narrower question.`,
      );
    }
    if (error instanceof SeismoError) throw error;
    deps.logger.warn({ err: error }, "seismo: the model provider failed");
    throw new SeismoError("provider", `The model provider failed: ${providerMessage(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

function providerMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // The SDK's retry wraps the last failure; that one says what went wrong.
  const last = (error as { lastError?: unknown }).lastError;
  if (last instanceof Error) return providerMessage(last);
  const status = (error as { statusCode?: number }).statusCode;
  const message = error.message.split("\n")[0]?.slice(0, 300) ?? "unknown error";
  return status ? `${message} (HTTP ${status})` : message;
}

async function loop(
  deps: SeismoDeps,
  model: LanguageModel,
  request: SeismoRequest,
  emit: Emit,
  signal: AbortSignal,
  limits: typeof SEISMO_LIMITS,
  started: number,
): Promise<AssistantAnswer> {
  const toolCalls: AssistantAnswer["tool_calls"] = [];
  let report: AssistantReport | null = null;
  let toolCallsTaken = 0;
  let steps = 0;
  const context: ToolContext = {
    queries: {
      sandbox: deps.sandbox,
      admission: deps.admission,
      db: deps.db,
      queryRuns: deps.queryRuns,
      logger: deps.logger,
      clock: deps.clock,
    },
    warehouse: deps.warehouse,
    search: deps.config.search,
    userId: request.userId,
    apiKeyId: request.apiKeyId ?? null,
    takeToolCall: () => ++toolCallsTaken <= limits.maxToolCalls,
    succeeded: [],
    onReport: (value) => {
      report = value;
    },
  };
  const tools = seismoTools(context);
  const system = systemPrompt({
    mode: request.mode,
    catalog: await catalogGrounding(deps.warehouse),
    hasWebSearch: "web_search" in tools,
    today: deps.clock(),
  });
  const messages: ModelMessage[] = [
    ...request.history.map((message): ModelMessage => ({ role: message.role, content: message.content })),
    { role: "user", content: request.message },
  ];
  const toolBudgetSpent: StopCondition<ToolSet> = () => toolCallsTaken >= limits.maxToolCalls;

  let finish: Finish = "done";
  let text = "";
  const sql: SqlBlock[] = [];
  let textBlocks = 0;

  /** One model turn (several steps with tools, or none), streamed through `emit`. */
  const turn = async (withTools: boolean): Promise<{ text: string; endedOnToolCalls: boolean }> => {
    const result = streamText({
      model,
      system,
      messages,
      ...(withTools ? { tools, stopWhen: [stepCountIs(Math.max(1, limits.maxSteps - steps)), toolBudgetSpent] } : {}),
      abortSignal: signal,
      maxRetries: 1,
      // Failures arrive as stream parts and are handled below; the SDK would also log them.
      onError: () => {},
    });
    let streamed = "";
    let lastFinish = "";
    let failure: unknown;
    for await (const part of result.fullStream) {
      switch (part.type) {
        case "text-start":
          await emit({ type: "text_start", id: `t${++textBlocks}` });
          break;
        case "text-delta":
          streamed += part.text;
          await emit({ type: "text_delta", id: `t${textBlocks}`, delta: part.text });
          break;
        case "tool-call": {
          const input = (part.input ?? {}) as Record<string, unknown>;
          toolCalls.push({ id: part.toolCallId, tool: part.toolName as never, input, is_check: false, result: null });
          await emit({ type: "tool_call", id: part.toolCallId, tool: part.toolName as never, input, is_check: false });
          break;
        }
        case "tool-result":
          await reportResult(part.toolCallId, part.toolName, part.output as ToolOutcome);
          break;
        case "tool-error":
          await reportResult(part.toolCallId, part.toolName, {
            ok: false,
            summary: "The tool failed",
            error: { kind: "failed", message: part.error instanceof Error ? part.error.message : String(part.error) },
            forModel: null,
            durationMs: 0,
          });
          break;
        case "finish-step":
          steps++;
          lastFinish = part.finishReason;
          break;
        case "error":
          failure = part.error;
          break;
        default:
          break;
      }
    }
    if (signal.aborted) throw signal.reason ?? new Error("aborted");
    if (failure !== undefined) throw failure;
    const response = await result.response;
    messages.push(...response.messages);
    const finalText = (await result.text) || streamed;
    return { text: finalText, endedOnToolCalls: lastFinish === "tool-calls" };
  };

  const reportResult = async (id: string, tool: string, outcome: ToolOutcome) => {
    const { forModel: _forModel, durationMs, ...fields } = outcome;
    const result = { ...fields, duration_ms: Math.round(durationMs) };
    const record = toolCalls.find((call) => call.id === id);
    if (record) record.result = result;
    await emit({ type: "tool_result", id, tool: tool as never, ...result });
  };

  /** Seismo's own run of an answer's SQL, shown as a tool call so the person sees the check. */
  const check = async (statement: string): Promise<{ ok: boolean; result?: QueryResult; error?: string }> => {
    const earlier = context.succeeded.find((run) => sameSql(run.sql, statement));
    if (earlier) return { ok: true, result: earlier.result };
    const id = `check-${toolCalls.length + 1}`;
    const input = { sql: statement, limit: TOOL_LIMITS.checkRows };
    toolCalls.push({ id, tool: "execute_query", input, is_check: true, result: null });
    await emit({ type: "tool_call", id, tool: "execute_query", input, is_check: true });
    const outcome = await executeQuery(context, statement, TOOL_LIMITS.checkRows, signal);
    await reportResult(id, "execute_query", outcome);
    if (signal.aborted) throw signal.reason ?? new Error("aborted");
    return outcome.ok
      ? { ok: true, ...(context.succeeded.at(-1) ? { result: context.succeeded.at(-1)?.result } : {}) }
      : { ok: false, error: outcome.error?.message ?? "rejected" };
  };

  const pushSql = async (block: SqlBlock) => {
    sql.push(block);
    await emit({ type: "sql", ...block });
  };

  for (let attempt = 0; ; attempt++) {
    let answer = await turn(true);
    if (answer.endedOnToolCalls) {
      // A bound stopped the loop mid-investigation: ask once more, without tools, for an answer.
      finish = toolCallsTaken >= limits.maxToolCalls ? "tool_limit" : "step_limit";
      messages.push({
        role: "user",
        content: "You have reached the limit of tool calls for this question. Answer now with what you found.",
      });
      answer = await turn(false);
    }
    text = answer.text;
    const blocks = sqlBlocksOf(text);
    if (request.mode === "analyst") {
      for (const block of blocks.slice(-limits.maxCheckedBlocks)) {
        const checked = await check(block);
        await pushSql(sqlBlock(block, text, request.message, checked));
      }
      break;
    }
    const statement = blocks.at(-1);
    if (!statement) break;
    const checked = await check(statement);
    if (checked.ok || attempt >= limits.maxRepairs) {
      if (!checked.ok) finish = "repair_limit";
      await pushSql(sqlBlock(statement, text, request.message, checked));
      break;
    }
    messages.push({
      role: "user",
      content: `The engine rejected the SQL of your answer:\n${checked.error}\nAnswer again with one corrected statement in a \`\`\`sql block.`,
    });
  }

  return {
    mode: request.mode,
    text,
    sql,
    report,
    tool_calls: toolCalls,
    finish_reason: finish,
    steps,
    duration_ms: Math.round(performance.now() - started),
  };
}

function sqlBlock(
  statement: string,
  answer: string,
  question: string,
  checked: { ok: boolean; result?: QueryResult; error?: string },
): SqlBlock {
  return {
    sql: statement,
    title: titleFor(answer, question),
    status: checked.ok ? "checked" : "rejected",
    row_count: checked.result?.row_count ?? null,
    error: checked.ok ? null : (checked.error ?? null),
  };
}
