/**
 * Saved queries as the API shows them, and what may be done with them: who sees one
 * (examples, the caller's own, public ones), who changes one (its owner, never an
 * example), their statistics (only of the queries the caller sees, runs recorded so far
 * included), and whether a run counts as a saved query's run (only when it ran its SQL).
 */
import type {
  CreateSavedQueryRequest,
  QueryParams,
  QueryStats,
  SavedQuery as SavedQueryJson,
  UpdateSavedQueryRequest,
} from "@epicenter/contracts";
import { ZChartSpec } from "@epicenter/contracts";
import {
  type AppDb,
  createSavedQuery,
  deleteSavedQuery,
  getVisibleQuery,
  listVisibleQueries,
  queryStats,
  type SavedQuery,
  updateSavedQuery,
} from "@epicenter/db";
import type { QueryRunRecorder } from "./run-recorder";

export interface SavedQueryDeps {
  db: AppDb;
  queryRuns: Pick<QueryRunRecorder, "flush">;
  clock: () => Date;
}

export function savedQueryJson(query: SavedQuery, callerId: string | null): SavedQueryJson {
  const isOwner = callerId !== null && query.userId === callerId && !query.isExample;
  const chart = ZChartSpec.safeParse(query.chart);
  return {
    id: query.id,
    user_id: query.userId,
    title: query.title,
    sql: query.sql,
    description: query.description,
    is_public: query.isPublic,
    is_example: query.isExample,
    chart: chart.success ? chart.data : null,
    params: query.params,
    created_at: query.createdAt.toISOString(),
    updated_at: query.updatedAt.toISOString(),
    is_owner: isOwner,
    author: query.isExample ? "Example" : isOwner ? "You" : "Community",
  };
}

/** The queries `callerId` may see: theirs, the public ones and the examples (without a caller, the last two). */
export async function visibleQueries(
  deps: Pick<SavedQueryDeps, "db">,
  callerId: string | null,
): Promise<SavedQueryJson[]> {
  return (await listVisibleQueries(deps.db, callerId)).map((query) => savedQueryJson(query, callerId));
}

export async function visibleQuery(
  deps: Pick<SavedQueryDeps, "db">,
  id: string,
  callerId: string,
): Promise<SavedQueryJson | undefined> {
  const query = await getVisibleQuery(deps.db, id, callerId);
  return query ? savedQueryJson(query, callerId) : undefined;
}

/**
 * Run counts of the queries the caller can see: another user's private query stays
 * invisible, its run counts included. Runs are recorded write-behind; a saved query's run
 * that just ended is counted.
 */
export async function visibleQueryStats(deps: SavedQueryDeps, callerId: string): Promise<QueryStats> {
  const visible = await listVisibleQueries(deps.db, callerId);
  await deps.queryRuns.flush((run) => run.queryId !== null);
  if (visible.length === 0) return { queries: [] };
  const stats = await queryStats(
    deps.db,
    visible.map((query) => query.id),
  );
  return {
    queries: stats.map((row) => ({
      query_id: row.queryId,
      execution_count: row.executionCount,
      avg_runtime_ms: row.avgRuntimeMs,
      last_executed_at: row.lastExecutedAt?.toISOString() ?? null,
    })),
  };
}

export async function saveQuery(
  deps: Pick<SavedQueryDeps, "db">,
  callerId: string,
  request: CreateSavedQueryRequest,
): Promise<SavedQueryJson> {
  const id = await createSavedQuery(deps.db, callerId, {
    title: request.title,
    sql: request.sql,
    description: request.description,
    isPublic: request.is_public,
    chart: request.chart,
    params: request.params,
  });
  const saved = await visibleQuery(deps, id, callerId);
  if (!saved) throw new Error(`saved query ${id} vanished after it was created`);
  return saved;
}

/** The changed query, or undefined when the caller owns no such query (another's, an example, none). */
export async function changeQuery(
  deps: Pick<SavedQueryDeps, "db" | "clock">,
  callerId: string,
  id: string,
  change: UpdateSavedQueryRequest,
): Promise<SavedQueryJson | undefined> {
  const changed = await updateSavedQuery(
    deps.db,
    callerId,
    id,
    {
      ...(change.title !== undefined ? { title: change.title } : {}),
      ...(change.sql !== undefined ? { sql: change.sql } : {}),
      ...(change.description !== undefined ? { description: change.description } : {}),
      ...(change.is_public !== undefined ? { isPublic: change.is_public } : {}),
      ...(change.chart !== undefined ? { chart: change.chart } : {}),
      ...(change.params !== undefined ? { params: change.params } : {}),
    },
    deps.clock(),
  );
  return changed ? visibleQuery(deps, id, callerId) : undefined;
}

/** False when the caller owns no such query. */
export function removeQuery(deps: Pick<SavedQueryDeps, "db">, callerId: string, id: string): Promise<boolean> {
  return deleteSavedQuery(deps.db, callerId, id);
}

/**
 * What a run request runs, and which saved query it counts for: the statement sent, or the
 * saved query's own when only its id is; it counts for the saved query only when the
 * statement is that query's SQL (anyone may run a public query, but not inflate its
 * statistics with other statements). A run of the saved query's own SQL takes its saved
 * parameter values where the request gives none. Undefined when an id names no query the
 * caller sees.
 */
export async function savedQueryRun(
  deps: Pick<SavedQueryDeps, "db">,
  request: { sql: string | undefined; savedQueryId: string | undefined; params?: QueryParams | undefined },
  callerId: string,
): Promise<{ sql: string; savedQueryId: string | null; params: QueryParams | undefined } | undefined> {
  const saved = request.savedQueryId ? await getVisibleQuery(deps.db, request.savedQueryId, callerId) : undefined;
  const sql = request.sql ?? saved?.sql;
  if (sql === undefined) return undefined;
  const isSaved = saved !== undefined && saved.sql.trim() === sql.trim();
  // The saved query's own values stand in for the ones a run does not give.
  const params =
    isSaved && Object.keys(saved.params).length > 0 ? { ...saved.params, ...request.params } : request.params;
  return { sql, savedQueryId: isSaved ? saved.id : null, params };
}
