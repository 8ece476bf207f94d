/**
 * The tools that run SQL: the caller's own statement (`run_query`), the saved queries they
 * can see (`list_saved_queries`, with each one's `{name:Type}` parameters) and one of them
 * by id with parameter values (`run_saved_query`). Every statement goes through `runQuery`
 * — the editor's admission, sandbox and run record, origin `mcp`, as the key's user and
 * key — with a row limit and a byte bound of its own, so one call never answers more than
 * a model can read; the answer says when and how it was cut.
 */
import { MAX_QUERY_LENGTH, queryParameters, ZQueryParams } from "@epicenter/contracts";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { runQuery } from "../queries/run-query";
import { savedQueryRun, visibleQueries } from "../queries/saved-queries";
import { callSignal, type McpContext } from "./context";
import { DATA_FACTS } from "./data-notes";
import {
  DEFAULT_TOOL_ROWS,
  MAX_TOOL_RESULT_BYTES,
  MAX_TOOL_ROWS,
  queryResultText,
  structuredResult,
  toolError,
  toolFailure,
  toolQueryResult,
  ZToolQueryResult,
} from "./tool-results";

/** Saved queries listed at most, and the characters of SQL shown for each. */
const MAX_LISTED_QUERIES = 200;
const LISTED_SQL_CHARS = 4_000;

// PostgreSQL text cannot hold a NUL, and the run record keeps the statement: refused at the door, as over HTTP.
const withoutNul = (text: string) => !text.includes("\0");
const NUL_MESSAGE = "must not contain a NUL character (\\u0000)";

const limitInput = z
  .number()
  .int()
  .min(1)
  .max(MAX_TOOL_ROWS)
  .default(DEFAULT_TOOL_ROWS)
  .describe(
    `Rows returned at most (1–${MAX_TOOL_ROWS}, default ${DEFAULT_TOOL_ROWS}). Results are also cut at ${MAX_TOOL_RESULT_BYTES / 1024} KiB of JSON; truncated and cut_by say when.`,
  );

const paramsInput = ZQueryParams.refine(
  (params) => Object.values(params).every((value) => typeof value !== "string" || withoutNul(value)),
  NUL_MESSAGE,
)
  .optional()
  .describe(
    'Values of the statement\'s {name:Type} parameters by name, e.g. {"market_id": "501", "days": 7}. The engine binds them (never spliced into the SQL); a missing or mistyped one is refused, naming it.',
  );

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

export function registerQueryTools(server: McpServer, context: McpContext): void {
  const { deps, caller } = context;

  server.registerTool(
    "run_query",
    {
      title: "Run a SQL query",
      description: `Runs one read-only ClickHouse SELECT (WITH and UNION allowed) over the polymarket, kalshi and crossvenue databases, sandboxed like the Epicenter editor: no writes, no SETTINGS or FORMAT, no system tables, no file or network functions; time-limited. Answers the columns (name and type), the rows as arrays, row_count, and truncated/cut_by when the row limit or the ${MAX_TOOL_RESULT_BYTES / 1024} KiB bound cut the result. Aggregate or add LIMIT rather than reading snapshots row by row. ${DATA_FACTS} Before counting or summing snapshot tables read the resource epicenter://docs/latest-row-pattern.`,
      inputSchema: {
        sql: z
          .string()
          .min(1)
          .max(MAX_QUERY_LENGTH)
          .refine(withoutNul, NUL_MESSAGE)
          .describe("One SELECT statement, e.g. SELECT count() FROM kalshi.markets_latest FINAL."),
        limit: limitInput,
        params: paramsInput,
      },
      outputSchema: ZToolQueryResult.shape,
      annotations: READ_ONLY,
    },
    async ({ sql, limit, params }, call) => {
      try {
        const result = await runQuery(deps, {
          sql,
          limit,
          params,
          maxBytes: MAX_TOOL_RESULT_BYTES,
          userId: caller.userId,
          apiKeyId: caller.apiKeyId,
          origin: "mcp",
          signal: callSignal(context, call),
        });
        const answer = toolQueryResult(sql, result, limit);
        return structuredResult(answer, queryResultText(answer));
      } catch (error) {
        return toolFailure(error, deps.logger, "run_query");
      }
    },
  );

  server.registerTool(
    "list_saved_queries",
    {
      title: "List saved queries",
      description:
        "The saved queries you can run with run_saved_query: your own (author You), the ones others made public (Community) and the built-in examples (Example), newest first. Each comes with its SQL and its {name:Type} parameters, whose values run_saved_query takes in params.",
      inputSchema: {
        search: z
          .string()
          .trim()
          .max(200)
          .optional()
          .describe("Only queries whose title or description contains these words."),
      },
      outputSchema: {
        queries: z.array(
          z.object({
            id: z.string(),
            title: z.string(),
            description: z.string().nullable(),
            author: z.string(),
            is_public: z.boolean(),
            parameters: z.array(z.object({ name: z.string(), type: z.string() })),
            sql: z.string(),
            sql_truncated: z.boolean(),
          }),
        ),
        total: z.number().describe("Queries that matched; more than listed when the list was cut."),
      },
      annotations: READ_ONLY,
    },
    async ({ search }) => {
      try {
        const words = (search ?? "").toLowerCase().split(/\s+/).filter(Boolean);
        const matching = (await visibleQueries(deps, caller.userId)).filter((query) => {
          const text = `${query.title} ${query.description ?? ""}`.toLowerCase();
          return words.every((word) => text.includes(word));
        });
        const queries = matching.slice(0, MAX_LISTED_QUERIES).map((query) => ({
          id: query.id,
          title: query.title,
          description: query.description,
          author: query.author,
          is_public: query.is_public,
          parameters: queryParameters(query.sql),
          sql: query.sql.length > LISTED_SQL_CHARS ? `${query.sql.slice(0, LISTED_SQL_CHARS)}…` : query.sql,
          sql_truncated: query.sql.length > LISTED_SQL_CHARS,
        }));
        return structuredResult({ queries, total: matching.length });
      } catch (error) {
        return toolFailure(error, deps.logger, "list_saved_queries");
      }
    },
  );

  server.registerTool(
    "run_saved_query",
    {
      title: "Run a saved query",
      description: `Runs a saved query by id (list_saved_queries lists them) with values for its {name:Type} parameters, through the same sandbox and bounds as run_query, and counts as a run of that query. Answers like run_query. ${DATA_FACTS}`,
      inputSchema: {
        id: z.uuid().describe("The saved query's id, from list_saved_queries."),
        params: paramsInput,
        limit: limitInput,
      },
      outputSchema: ZToolQueryResult.shape,
      annotations: READ_ONLY,
    },
    async ({ id, params, limit }, call) => {
      try {
        const run = await savedQueryRun(deps, { sql: undefined, savedQueryId: id, params }, caller.userId);
        if (!run)
          return toolError(`No saved query ${id} is visible to you; list_saved_queries lists the ones you can run.`);
        const result = await runQuery(deps, {
          sql: run.sql,
          limit,
          params: run.params,
          savedQueryId: run.savedQueryId,
          maxBytes: MAX_TOOL_RESULT_BYTES,
          userId: caller.userId,
          apiKeyId: caller.apiKeyId,
          origin: "mcp",
          signal: callSignal(context, call),
        });
        const answer = toolQueryResult(run.sql, result, limit);
        return structuredResult(answer, queryResultText(answer));
      } catch (error) {
        return toolFailure(error, deps.logger, "run_saved_query");
      }
    },
  );
}
