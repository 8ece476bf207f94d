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
import { configureMount, type HandlerMap, mountAll } from "./http/mount";
import { queryHttpError } from "./http/query-errors";
import { requestLog } from "./http/request-log";
import { securityHeaders } from "./http/security-headers";
import { serviceHttpError } from "./http/service-errors";
import { isApiPath, serveSpa } from "./http/spa";
import { adminRoutes } from "./routes/admin";
import { assistantRoutes } from "./routes/assistant";
import { authRoutes } from "./routes/auth";
import { clickhouseHttp } from "./routes/clickhouse/clickhouse-http";
import { dashboardsRoutes } from "./routes/dashboards";
import { keysRoutes } from "./routes/keys";
import { marketsRoutes } from "./routes/markets";
import { mountMcp } from "./routes/mcp/post-mcp";
import { queriesRoutes } from "./routes/queries";
import { queryRoutes } from "./routes/query";
import { syncRoutes } from "./routes/sync";
import { systemRoutes } from "./routes/system";
import { tablesRoutes } from "./routes/tables";
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
  const savedQueries = { db, queryRuns: deps.queryRuns, clock: deps.clock };
  const adminEmails = deps.config.adminEmails;
  const { warehouse, clock } = deps;

  // Every endpoint of the contract, area by area; the type holds the map to all of them.
  const handlers: HandlerMap = {
    ...systemRoutes({
      health: deps,
      openapi: { publicUrl: deps.config.publicUrl, version: VERSION },
      clientConfig: deps.config,
    }),
    ...authRoutes({ magicLinks, access }),
    ...keysRoutes({ keys: { db, clock } }),
    ...queryRoutes({ queries, dialect: { warehouse, sandbox: deps.sandbox }, savedQueries }),
    ...queriesRoutes({ savedQueries }),
    ...tablesRoutes({ tables: { warehouse }, sample: { ...queries, warehouse } }),
    ...syncRoutes({ sync: { warehouse, syncState: deps.syncState } }),
    ...assistantRoutes({ seismo: { ...queries, config: deps.config, warehouse } }),
    ...marketsRoutes({ markets: { warehouse, clock } }),
    ...dashboardsRoutes({ stats: { warehouse, clock }, queries }),
    ...adminRoutes({
      admin: { db, adminEmails },
      approvals: { ...magicLinks, adminEmails },
      syncRuns: { warehouse },
      queryRuns: { db, queryRuns: deps.queryRuns },
      pairs: {
        warehouse,
        db,
        clock,
        decided: () =>
          deps.sandbox.refresh().catch((error: unknown) => deps.logger.warn({ err: error }, "sandbox snapshot failed")),
      },
    }),
  };
  mountAll(app, handlers);
  // ClickHouse clients' own protocol, with an API key (`CLICKHOUSE_HTTP_PORT` serves it at a root).
  app.route(CLICKHOUSE_PATH, clickhouseHttp({ ...queries, access, warehouse }, CLICKHOUSE_PATH));
  // Agents' protocol, with an API key; before the SPA, which would answer GET /mcp.
  mountMcp(app, { ...queries, warehouse });

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
