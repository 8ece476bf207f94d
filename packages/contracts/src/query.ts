/**
 * `POST /api/query` (SPEC §7, §5, §3 "Query result"): run one statement of user SQL, given
 * as text or as a saved query's id. The result is a `QueryResult` (`query-node.ts`) shaped
 * for the REST edge here.
 *
 * `result.data` holds one object per row keyed by column name, the shape the original
 * product returned and the one people's scripts read (`row.question`). The sandbox hands
 * rows over as value arrays (compact, exact with duplicate names) and the route converts
 * them with `rowsAsObjects`; `columns` keeps the order and the engine's types. Sample data
 * (SPEC §3) stays value arrays, as the spec shows. 64-bit integers arrive as strings, so
 * no digit is lost in JavaScript.
 */
import { z } from "zod";
import { MAX_QUERY_LENGTH, MAX_QUERY_ROW_LIMIT, ZQueryColumn } from "./query-node";
import { ZQueryParams } from "./query-params";

export const ZRunQueryRequest = z
  .object({
    query: z
      .string()
      .min(1)
      .max(MAX_QUERY_LENGTH)
      .optional()
      .describe("One SELECT statement (WITH and UNION allowed)."),
    query_id: z.uuid().optional().describe("Id of a saved query to run instead of `query`."),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_QUERY_ROW_LIMIT)
      .optional()
      .describe("Rows returned at most; more rows set `truncated`."),
    params: ZQueryParams.optional(),
  })
  .meta({
    id: "RunQueryRequest",
    description:
      "Either `query`, or a saved query's `query_id` (here or in the URL), is required. `params` gives the values of the statement's `{name:Type}` parameters; a missing or mistyped one is a 400 that names it.",
  });
export type RunQueryRequest = z.infer<typeof ZRunQueryRequest>;

export const ZRunQueryResponse = z
  .object({
    success: z.literal(true),
    result: z.object({
      columns: z.array(ZQueryColumn),
      data: z.array(z.record(z.string(), z.unknown())).describe("One object per row, keyed by column name."),
      row_count: z.number().int().nonnegative(),
      execution_time_ms: z.number().nonnegative(),
      truncated: z.boolean().describe("True when the statement had more rows than `limit`."),
      truncated_by: z
        .enum(["rows", "bytes"])
        .optional()
        .describe("What cut a truncated result: `limit` (rows), or the bytes one answer may hold (32 MiB)."),
    }),
    query: z.string().describe("The statement that ran, as submitted."),
  })
  .meta({ id: "RunQueryResponse" });
export type RunQueryResponse = z.infer<typeof ZRunQueryResponse>;

/** `error.details` of a 400 for SQL the sandbox refused or the engine rejected. */
export const ZQueryErrorDetails = z
  .object({
    position: z
      .object({
        line: z.number().int().positive(),
        column: z.number().int().positive(),
        offset: z.number().int().nonnegative().describe("Characters from the start of the query."),
      })
      .optional(),
    engine_code: z.string().optional().describe("The engine's error name, e.g. UNKNOWN_IDENTIFIER."),
  })
  .meta({ id: "QueryErrorDetails" });
export type QueryErrorDetails = z.infer<typeof ZQueryErrorDetails>;
