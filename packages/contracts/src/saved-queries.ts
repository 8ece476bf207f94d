import { z } from "zod";
import { MAX_QUERY_LENGTH, type QueryNode, ZChartSpec } from "./query-node";
import { ZSavedParams } from "./query-params";

export const ZSavedQuery = z
  .object({
    id: z.uuid(),
    user_id: z.uuid().nullable(),
    title: z.string(),
    sql: z.string(),
    description: z.string().nullable(),
    is_public: z.boolean(),
    is_example: z.boolean(),
    chart: ZChartSpec.nullable(),
    params: ZSavedParams.describe(
      "Values of its `{name:Type}` parameters as last saved, by name: the editor reopens with them and a run by `query_id` uses them where `params` gives none.",
    ),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    is_owner: z.boolean().describe("The caller owns it and may edit or delete it"),
    author: z.enum(["You", "Example", "Community"]),
  })
  .meta({ id: "SavedQuery" });
export type SavedQuery = z.infer<typeof ZSavedQuery>;

export const ZSavedQueryList = z.object({ queries: z.array(ZSavedQuery) }).meta({ id: "SavedQueryList" });

/**
 * A saved query as the one query value (`QueryNode`): its SQL, title, chart and parameter
 * values. The REST answer keeps the spec's `sql` and `chart` fields; inside the product a
 * saved query opens, forks and runs as this node.
 */
export function savedQueryNode(saved: Pick<SavedQuery, "sql" | "title" | "chart" | "params">): QueryNode {
  return {
    kind: "sql",
    sql: saved.sql,
    title: saved.title,
    ...(saved.chart ? { view: saved.chart } : {}),
    ...(Object.keys(saved.params).length > 0 ? { params: saved.params } : {}),
  };
}

const title = z.string().trim().min(1, "a title is required").max(200);
const sql = z.string().trim().min(1, "the SQL is empty").max(MAX_QUERY_LENGTH);
const description = z
  .string()
  .trim()
  .max(2_000)
  .nullable()
  .optional()
  .transform((value) => (value ? value : null));

export const ZCreateSavedQueryRequest = z
  .object({
    title,
    sql,
    description,
    is_public: z.boolean().default(false),
    chart: ZChartSpec.nullable().default(null),
    params: ZSavedParams.default({}),
  })
  .meta({ id: "CreateSavedQueryRequest" });
/** A create request as the server reads it (defaults applied, a blank description as null). */
export type CreateSavedQueryRequest = z.output<typeof ZCreateSavedQueryRequest>;

/** In a change, an absent description stays as it is; null or blank clears it. */
const descriptionChange = z
  .string()
  .trim()
  .max(2_000)
  .nullable()
  .optional()
  .transform((value) => (value === undefined ? undefined : value ? value : null));

export const ZUpdateSavedQueryRequest = z
  .object({
    title: title.optional(),
    sql: sql.optional(),
    description: descriptionChange,
    is_public: z.boolean().optional(),
    chart: ZChartSpec.nullable().optional(),
    params: ZSavedParams.optional(),
  })
  .meta({ id: "UpdateSavedQueryRequest" });
/** A change as the server reads it: an absent field stays as it is. */
export type UpdateSavedQueryRequest = z.output<typeof ZUpdateSavedQueryRequest>;

export const ZQueryStats = z
  .object({
    queries: z.array(
      z.object({
        query_id: z.uuid(),
        execution_count: z.number().int(),
        avg_runtime_ms: z.number().int(),
        last_executed_at: z.iso.datetime().nullable(),
      }),
    ),
  })
  .meta({ id: "QueryStats" });
export type QueryStats = z.infer<typeof ZQueryStats>;

/** Where a run in the history came from: what the user wrote, not what the product ran for them. */
export const RUN_HISTORY_ORIGINS = ["editor", "api", "clickhouse", "mcp", "seismo"] as const;

export const ZRunHistory = z
  .object({
    runs: z.array(
      z.object({
        id: z.uuid(),
        origin: z.enum(RUN_HISTORY_ORIGINS).describe("editor, api (REST), clickhouse (HTTP interface), mcp, seismo"),
        query_id: z.uuid().nullable().describe("The saved query it ran as, when it did"),
        sql: z.string(),
        started_at: z.iso.datetime(),
        duration_ms: z.number().int(),
        row_count: z.number().int(),
        error: z.string().nullable().describe("Why it failed; null when it succeeded"),
      }),
    ),
  })
  .meta({ id: "RunHistory" });
export type RunHistory = z.infer<typeof ZRunHistory>;
