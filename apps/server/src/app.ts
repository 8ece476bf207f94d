/**
 * `createApp(deps)`: the whole HTTP surface as a Hono app, with no port and no globals,
 * so tests drive it through `app.request()` on real embedded stores. `main.ts` opens the
 * stores and hands them in.
 */
import { type AppDatabase, getUserById } from "@epicenter/db";
import type { SchedulerState } from "@epicenter/ingest";
import type { Sandbox, Warehouse } from "@epicenter/warehouse";
import { Hono } from "hono";
import type { Logger } from "pino";
import type { Config } from "./config";
import { accessControl } from "./http/access";
import type { AppEnv } from "./http/env";
import { errorBody, HttpError } from "./http/errors";
import { configureMount } from "./http/mount";
import { queryHttpError } from "./http/query-errors";
import { requestLog } from "./http/request-log";
import { securityHeaders } from "./http/security-headers";
import { serviceHttpError } from "./http/service-errors";
import { isApiPath, serveSpa } from "./http/spa";
import { deleteAllowList } from "./routes/admin/delete-allow-list";
import { deleteWaitlist } from "./routes/admin/delete-waitlist";
import { getAllowList } from "./routes/admin/get-allow-list";
import { getCrossVenueMatcher } from "./routes/admin/get-crossvenue-matcher";
import { getCrossVenuePairs } from "./routes/admin/get-crossvenue-pairs";
import { getCrossVenueReviews } from "./routes/admin/get-crossvenue-reviews";
import { getAdminQueryRuns } from "./routes/admin/get-query-runs";
import { getAdminSyncRuns } from "./routes/admin/get-sync-runs";
import { getAdminUsers } from "./routes/admin/get-users";
import { getWaitlist } from "./routes/admin/get-waitlist";
import { postAllowList } from "./routes/admin/post-allow-list";
import { postApproveWaitlist } from "./routes/admin/post-approve-waitlist";
import { postConfirmCrossVenuePair } from "./routes/admin/post-confirm-crossvenue-pair";
import { postCrossVenuePair } from "./routes/admin/post-crossvenue-pair";
import { postRejectCrossVenuePair } from "./routes/admin/post-reject-crossvenue-pair";
import { postGenerate } from "./routes/assistant/post-generate";
import { postGenerateStream } from "./routes/assistant/post-generate-stream";
import { getSession } from "./routes/auth/get-session";
import { postMagicLink } from "./routes/auth/post-magic-link";
import { postRefresh } from "./routes/auth/post-refresh";
import { postSignOut } from "./routes/auth/post-sign-out";
import { postVerify } from "./routes/auth/post-verify";
import { clickhouseHttp } from "./routes/clickhouse/clickhouse-http";
import { getDashboard } from "./routes/dashboards/get-dashboard";
import { getDashboardTile } from "./routes/dashboards/get-dashboard-tile";
import { getDashboards } from "./routes/dashboards/get-dashboards";
import { getStats } from "./routes/dashboards/get-stats";
import { deleteKey } from "./routes/keys/delete-key";
import { getKeys } from "./routes/keys/get-keys";
import { postKey } from "./routes/keys/post-key";
import { getMarketRoute } from "./routes/markets/get-market";
import { getMarketHistoryRoute } from "./routes/markets/get-market-history";
import { getMarkets } from "./routes/markets/get-markets";
import { mountMcp } from "./routes/mcp/post-mcp";
import { deleteSavedQuery } from "./routes/queries/delete-saved-query";
import { getQueryStats } from "./routes/queries/get-query-stats";
import { getSavedQueries } from "./routes/queries/get-saved-queries";
import { getSavedQuery } from "./routes/queries/get-saved-query";
import { patchSavedQuery } from "./routes/queries/patch-saved-query";
import { postSavedQuery } from "./routes/queries/post-saved-query";
import { getRunHistory } from "./routes/query/get-run-history";
import { getSqlDialect } from "./routes/query/get-sql-dialect";
import { postExport } from "./routes/query/post-export";
import { postQuery } from "./routes/query/post-query";
import { postQueryRows } from "./routes/query/post-query-rows";
import { getSyncStatusRoutes } from "./routes/sync/get-sync-status";
import { getClientConfig } from "./routes/system/get-client-config";
import { getHealth } from "./routes/system/get-health";
import { getOpenApi } from "./routes/system/get-openapi";
import { getTableRoute } from "./routes/tables/get-table";
import { getTableSample } from "./routes/tables/get-table-sample";
import { getTables } from "./routes/tables/get-tables";
import { type AccessDeps, roleOf } from "./services/access/principal";
import { createPrincipalCache } from "./services/access/principal-cache";
import type { SignInLimits } from "./services/access/rate-limits";
import type { Mailer } from "./services/mail/mailer";
import type { QueryAdmission } from "./services/queries/admission";
import type { QueryRunRecorder } from "./services/queries/run-recorder";
import { VERSION } from "./version";

/** Where the ClickHouse HTTP interface is served on the main port. */
export const CLICKHOUSE_PATH = "/clickhouse";

/**
 * The app as the ClickHouse port serves it: every path is the interface's (`/ping` is
 * `/clickhouse/ping`), through the same middleware, access and query service.
 */
export function clickhouseRoot(app: Hono<AppEnv>): (request: Request, env?: unknown) => Response | Promise<Response> {
  return (request, env) => {
    const url = new URL(request.url);
    url.pathname = `${CLICKHOUSE_PATH}${url.pathname}`;
    const init: RequestInit & { duplex?: "half" } = {
      method: request.method,
      headers: request.headers,
      signal: request.signal,
      ...(request.body ? { body: request.body, duplex: "half" } : {}),
    };
    return app.fetch(new Request(url, init), env);
  };
}

export interface AppDeps {
  config: Pick<Config, "publicUrl" | "adminEmails" | "analytics" | "seismo" | "search" | "support"> &
    Partial<Pick<Config, "unconfinedSql">>;
  warehouse: Warehouse;
  sandbox: Sandbox;
  appDatabase: AppDatabase;
  /** Where query runs are recorded (write-behind; see `services/queries/run-recorder.ts`). */
  queryRuns: QueryRunRecorder;
  mailer: Mailer;
  signInLimits: SignInLimits;
  queryAdmission: QueryAdmission;
  logger: Logger;
  clock: () => Date;
  /** The running scheduler's view of each source, when one runs in this process. */
  syncState?: () => SchedulerState;
  /** Directory of the built SPA; when unset or missing, only the API is served. */
  webRoot?: string;
  /** Check every answer against its contract (the tests); see `http/mount.ts`. */
  validateResponses?: boolean;
}

/** Whether `userId` names an admin now (`ADMIN_EMAILS`, or an allow-list entry marked admin). */
async function isAdminUser(access: AccessDeps, userId: string | null | undefined): Promise<boolean> {
  if (!userId) return false;
  const user = await getUserById(access.db, userId);
  return user !== undefined && (await roleOf(access, user.email)).isAdmin;
}

export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  configureMount(app, { validateResponses: deps.validateResponses ?? false });
  const db = deps.appDatabase.db;
  const access: AccessDeps = {
    db,
    adminEmails: deps.config.adminEmails,
    clock: deps.clock,
    // Only where this process is the one writer of access state (principal-cache.ts).
    ...(deps.appDatabase.kind === "pglite" ? { principals: createPrincipalCache(db) } : {}),
  };
  const magicLinks = {
    ...access,
    mailer: deps.mailer,
    limits: deps.signInLimits,
    logger: deps.logger,
    publicUrl: deps.config.publicUrl,
  };

  app.use("*", requestLog(deps.logger));
  app.use("*", securityHeaders(deps.config));
  // Resolves the caller lazily, so public endpoints and SPA files pay nothing for it.
  app.use("*", accessControl(access));

  getHealth(app, deps);
  getOpenApi(app, { publicUrl: deps.config.publicUrl, version: VERSION });
  getClientConfig(app, deps.config);

  postMagicLink(app, magicLinks);
  postVerify(app, access);
  postRefresh(app, access);
  getSession(app);
  postSignOut(app, access);

  getKeys(app, { db });
  postKey(app, { db });
  deleteKey(app, { db, clock: deps.clock });

  const queries = {
    sandbox: deps.sandbox,
    ...(deps.sandbox.isConfined || deps.config.unconfinedSql === "allow"
      ? {}
      : { unconfinedSql: { admits: (userId: string | null | undefined) => isAdminUser(access, userId) } }),
    admission: deps.queryAdmission,
    db,
    queryRuns: deps.queryRuns,
    logger: deps.logger,
    clock: deps.clock,
  };
  postQuery(app, queries);
  postQueryRows(app, queries);
  postExport(app, queries);
  getSqlDialect(app, { warehouse: deps.warehouse, sandbox: deps.sandbox });
  // ClickHouse clients' own protocol, with an API key (`CLICKHOUSE_HTTP_PORT` serves it at a root).
  app.route(CLICKHOUSE_PATH, clickhouseHttp({ ...queries, access, warehouse: deps.warehouse }, CLICKHOUSE_PATH));

  const savedQueries = { db, queryRuns: deps.queryRuns, clock: deps.clock };
  // Before `/api/queries/{id}`, which would take "stats" for an id.
  getQueryStats(app, savedQueries);
  getRunHistory(app, savedQueries);
  getSavedQueries(app, savedQueries);
  postSavedQuery(app, savedQueries);
  getSavedQuery(app, savedQueries);
  patchSavedQuery(app, savedQueries);
  deleteSavedQuery(app, savedQueries);

  getTables(app, { warehouse: deps.warehouse });
  getTableRoute(app, { warehouse: deps.warehouse });
  getTableSample(app, { ...queries, warehouse: deps.warehouse });
  getSyncStatusRoutes(app, { warehouse: deps.warehouse, syncState: deps.syncState });

  const seismo = { ...queries, config: deps.config, warehouse: deps.warehouse };
  postGenerateStream(app, seismo);
  postGenerate(app, seismo);

  getStats(app, { warehouse: deps.warehouse, clock: deps.clock });
  const markets = { warehouse: deps.warehouse, clock: deps.clock };
  getMarkets(app, markets);
  getMarketRoute(app, markets);
  getMarketHistoryRoute(app, markets);
  // Agents' protocol, with an API key; before the SPA, which would answer GET /mcp.
  mountMcp(app, { ...queries, warehouse: deps.warehouse });
  getDashboards(app);
  getDashboard(app);
  getDashboardTile(app, queries);

  const adminEmails = deps.config.adminEmails;
  getAllowList(app, { db, adminEmails });
  postAllowList(app, { db, adminEmails });
  deleteAllowList(app, { db });
  getWaitlist(app, { db });
  postApproveWaitlist(app, { ...magicLinks, adminEmails });
  deleteWaitlist(app, { db });
  getAdminUsers(app, { db, adminEmails });
  getAdminSyncRuns(app, { warehouse: deps.warehouse });
  getAdminQueryRuns(app, { db, queryRuns: deps.queryRuns });
  const pairReviews = { warehouse: deps.warehouse, db, clock: deps.clock };
  getCrossVenuePairs(app, pairReviews);
  postCrossVenuePair(app, pairReviews);
  postConfirmCrossVenuePair(app, pairReviews);
  postRejectCrossVenuePair(app, pairReviews);
  getCrossVenueReviews(app, pairReviews);
  getCrossVenueMatcher(app, pairReviews);

  if (deps.webRoot) serveSpa(app, deps.webRoot);

  app.notFound((c) => {
    const message = isApiPath(c.req.path)
      ? `No endpoint ${c.req.method} ${c.req.path}. The API is described at /api/openapi.json.`
      : "Not found.";
    return c.json(errorBody("not_found", message), 404);
  });

  app.onError((thrown, c) => {
    // A query's own failure (bad SQL, time limit, full queue) is the caller's to read.
    const error = serviceHttpError(queryHttpError(thrown));
    if (error instanceof HttpError) {
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      return c.json(errorBody(error.code, error.message, error.details), error.status);
    }
    (c.get("logger") ?? deps.logger).error({ err: error }, "unhandled error");
    return c.json(errorBody("internal", "Something went wrong on our side. It has been logged."), 500);
  });

  return app;
}
