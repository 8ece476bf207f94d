/** What both run endpoints share: the statement or saved query asked for, run as the caller, its rows left as JSON text. */
import type { RunQueryRequest } from "@epicenter/contracts";
import { DEFAULT_QUERY_ROW_LIMIT } from "@epicenter/contracts";
import type { Context } from "hono";
import { principalOf } from "../../http/access";
import type { AppEnv } from "../../http/env";
import { badRequest, notFound } from "../../http/errors";
import { type QueryJson, type QueryServiceDeps, runQueryJson } from "../../services/queries/run-query";
import { savedQueryRun } from "../../services/queries/saved-queries";

export async function runRequested(
  deps: QueryServiceDeps,
  c: Context<AppEnv>,
  request: RunQueryRequest & { savedQueryId?: string | undefined },
  options: { isKeyed: boolean },
): Promise<{ sql: string; result: QueryJson }> {
  const principal = principalOf(c);
  const savedQueryId = request.query_id ?? request.savedQueryId;
  if (request.query === undefined && savedQueryId === undefined) {
    throw badRequest("Invalid body. query: Either query or query_id is required.");
  }
  const run = await savedQueryRun(
    deps,
    { sql: request.query, savedQueryId, params: request.params },
    principal.user.id,
  );
  if (!run) throw notFound("No saved query with that id is visible to you.");
  const result = await runQueryJson(deps, {
    sql: run.sql,
    limit: request.limit ?? DEFAULT_QUERY_ROW_LIMIT,
    savedQueryId: run.savedQueryId,
    userId: principal.user.id,
    apiKeyId: principal.apiKeyId ?? null,
    origin: principal.via === "api_key" ? "api" : "editor",
    // The client going away (or pressing Cancel) stops the query in the engine.
    signal: c.req.raw.signal,
    isKeyed: options.isKeyed,
    params: run.params,
  });
  return { sql: run.sql, result };
}
