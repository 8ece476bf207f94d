/**
 * A user's run history (the editor's History panel, `GET /api/query/runs`): their last
 * runs of SQL they wrote, from any surface, read from `query_runs` after the runs still
 * waiting to be written are written. Only the caller's own runs: the query filters on
 * their user id, whatever the request says.
 */
import { RUN_HISTORY_ORIGINS, type RunHistory } from "@epicenter/contracts";
import { schema } from "@epicenter/db";
import { and, desc, eq, inArray } from "drizzle-orm";
import type { SavedQueryDeps } from "./saved-queries";

export const RUN_HISTORY_LIMIT = 50;

export async function runHistory(deps: Pick<SavedQueryDeps, "db" | "queryRuns">, userId: string): Promise<RunHistory> {
  await deps.queryRuns.flush((run) => run.userId === userId);
  const runs = schema.queryRuns;
  const rows = await deps.db
    .select()
    .from(runs)
    .where(and(eq(runs.userId, userId), inArray(runs.origin, [...RUN_HISTORY_ORIGINS])))
    .orderBy(desc(runs.startedAt))
    .limit(RUN_HISTORY_LIMIT);
  return {
    runs: rows.map((run) => ({
      id: run.id,
      origin: run.origin as RunHistory["runs"][number]["origin"],
      query_id: run.queryId,
      sql: run.sql,
      started_at: run.startedAt.toISOString(),
      duration_ms: run.durationMs,
      row_count: run.rowCount,
      error: run.error,
    })),
  };
}
