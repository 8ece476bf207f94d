// The saved-query endpoints: list, stats, one, create, change, delete.
import { endpoints, ZCreateSavedQueryRequest, ZUpdateSavedQueryRequest } from "@epicenter/contracts";
import {
  type AppDb,
  createSavedQuery,
  deleteSavedQuery,
  getVisibleQuery,
  listVisibleQueries,
  queryStats,
  updateSavedQuery,
} from "@epicenter/db";
import type { Hono } from "hono";
import type { Logger } from "pino";
import { principalOf } from "../../http/access";
import type { AppEnv } from "../../http/env";
import { notFound, readJson, readParams } from "../../http/errors";
import { mount } from "../../http/mount";
import type { QueryRunRecorder } from "../../services/queries/run-recorder";
import { savedQueryJson } from "../../services/queries/saved-queries";

interface Deps {
  db: AppDb;
  queryRuns: QueryRunRecorder;
  clock: () => Date;
  logger: Logger;
}

export function savedQueryRoutes(app: Hono<AppEnv>, deps: Deps): void {
  // Before /api/queries/{id}, which would otherwise take "stats" for an id.
  mount(app, endpoints.queryStats, async (c) => {
    try {
      // Only the queries the caller can see: another user's private query stays invisible,
      // its run counts included.
      const visible = await listVisibleQueries(deps.db, principalOf(c).user.id);
      // Runs are recorded write-behind; a saved query's run that just ended is counted.
      await deps.queryRuns.flush((run) => run.queryId !== null);
      const stats =
        visible.length === 0
          ? []
          : await queryStats(
              deps.db,
              visible.map((query) => query.id),
            );
      return c.json(
        {
          queries: stats.map((row) => ({
            query_id: row.queryId,
            execution_count: row.executionCount,
            avg_runtime_ms: row.avgRuntimeMs,
            last_executed_at: row.lastExecutedAt?.toISOString() ?? null,
          })),
        },
        200,
      );
    } catch (error) {
      c.get("logger").error({ err: error }, "query statistics unavailable");
      return c.json({ queries: [] }, 200);
    }
  });

  mount(app, endpoints.listSavedQueries, async (c) => {
    const callerId = principalOf(c).user.id;
    const queries = await listVisibleQueries(deps.db, callerId);
    return c.json({ queries: queries.map((query) => savedQueryJson(query, callerId)) }, 200);
  });

  mount(app, endpoints.createSavedQuery, async (c) => {
    const body = await readJson(c, ZCreateSavedQueryRequest);
    const callerId = principalOf(c).user.id;
    const id = await createSavedQuery(deps.db, callerId, {
      title: body.title,
      sql: body.sql,
      description: body.description,
      isPublic: body.is_public,
      chart: body.chart,
    });
    const saved = await getVisibleQuery(deps.db, id, callerId);
    if (!saved) throw new Error(`saved query ${id} vanished after it was created`);
    return c.json(savedQueryJson(saved, callerId), 201);
  });

  const idParams = endpoints.getSavedQuery.params;
  mount(app, endpoints.getSavedQuery, async (c) => {
    const { id } = readParams(c, idParams);
    const callerId = principalOf(c).user.id;
    const query = await getVisibleQuery(deps.db, id, callerId);
    if (!query) throw notFound("No saved query with that id is visible to you.");
    return c.json(savedQueryJson(query, callerId), 200);
  });

  mount(app, endpoints.updateSavedQuery, async (c) => {
    const { id } = readParams(c, idParams);
    const body = await readJson(c, ZUpdateSavedQueryRequest);
    const callerId = principalOf(c).user.id;
    const changed = await updateSavedQuery(
      deps.db,
      callerId,
      id,
      {
        ...(body.title !== undefined ? { title: body.title } : {}),
        ...(body.sql !== undefined ? { sql: body.sql } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.is_public !== undefined ? { isPublic: body.is_public } : {}),
        ...(body.chart !== undefined ? { chart: body.chart } : {}),
      },
      deps.clock(),
    );
    // Someone else's query, an example, or none at all: all read as "you have no such query".
    if (!changed) throw notFound("You have no saved query with that id.");
    const query = await getVisibleQuery(deps.db, id, callerId);
    if (!query) throw notFound("You have no saved query with that id.");
    return c.json(savedQueryJson(query, callerId), 200);
  });

  mount(app, endpoints.deleteSavedQuery, async (c) => {
    const { id } = readParams(c, idParams);
    if (!(await deleteSavedQuery(deps.db, principalOf(c).user.id, id))) {
      throw notFound("You have no saved query with that id.");
    }
    return c.body(null, 204);
  });
}
