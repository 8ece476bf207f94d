import { endpoints, ZRunQueryRequest } from "@epicenter/contracts";
import { getVisibleQuery } from "@epicenter/db";
import { DEFAULT_ROW_LIMIT, rowsAsObjects } from "@epicenter/warehouse";
import type { Hono } from "hono";
import { principalOf } from "../../http/access";
import type { AppEnv } from "../../http/env";
import { notFound, readJson } from "../../http/errors";
import { mount } from "../../http/mount";
import { queryHttpError } from "../../http/query-errors";
import { type QueryServiceDeps, runQuery } from "../../services/queries/run-query";

export function postQuery(app: Hono<AppEnv>, deps: QueryServiceDeps): void {
  mount(app, endpoints.runQuery, async (c) => {
    const body = await readJson(c, ZRunQueryRequest);
    const principal = principalOf(c);
    let sql = body.query;
    const askedId = body.query_id ?? c.req.query("query_id") ?? null;
    const saved = askedId ? await getVisibleQuery(deps.db, askedId, principal.user.id) : undefined;
    if (askedId && sql === undefined) {
      if (!saved) throw notFound("No saved query with that id is visible to you.");
      sql = saved.sql;
    }
    if (sql === undefined) throw notFound("No saved query with that id is visible to you.");
    // A run counts in a saved query's statistics only when it ran that query's SQL: anyone
    // may run a public query, but not inflate its run count with other statements.
    const savedQueryId = saved && saved.sql.trim() === sql.trim() ? saved.id : null;
    try {
      const result = await runQuery(deps, {
        sql,
        limit: body.limit ?? DEFAULT_ROW_LIMIT,
        savedQueryId,
        userId: principal.user.id,
        apiKeyId: principal.apiKeyId ?? null,
        origin: principal.via === "api_key" ? "api" : "editor",
        // Sent as objects keyed by column name: the byte limit counts the keys.
        isKeyed: true,
        // The client going away (or pressing Cancel) stops the query in the engine.
        signal: c.req.raw.signal,
      });
      return c.json(
        {
          success: true as const,
          result: {
            columns: result.columns,
            data: rowsAsObjects(result.columns, result.rows),
            row_count: result.rowCount,
            execution_time_ms: result.elapsedMs,
            truncated: result.truncated,
          },
          query: sql,
        },
        200,
      );
    } catch (error) {
      throw queryHttpError(error);
    }
  });
}
