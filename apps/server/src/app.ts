/**
 * `createApp(deps)`: the whole HTTP surface as a Hono app, with no port and no globals,
 * so tests drive it through `app.request()` on real embedded stores. `main.ts` opens the
 * stores and hands them in.
 */
import type { AppDatabase } from "@epicenter/db";
import type { Warehouse } from "@epicenter/warehouse";
import { Hono } from "hono";
import type { Logger } from "pino";
import type { Config } from "./config";
import type { AppEnv } from "./http/env";
import { errorBody, HttpError } from "./http/errors";
import { requestLog } from "./http/request-log";
import { isApiPath, serveSpa } from "./http/spa";
import { getHealth } from "./routes/system/get-health";
import { getOpenApi } from "./routes/system/get-openapi";
import { VERSION } from "./version";

export interface AppDeps {
  config: Pick<Config, "publicUrl">;
  warehouse: Warehouse;
  appDatabase: AppDatabase;
  logger: Logger;
  clock: () => Date;
  /** Directory of the built SPA; when unset or missing, only the API is served. */
  webRoot?: string;
}

export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", requestLog(deps.logger));

  getHealth(app, deps);
  getOpenApi(app, { publicUrl: deps.config.publicUrl, version: VERSION });

  if (deps.webRoot) serveSpa(app, deps.webRoot);

  app.notFound((c) => {
    const message = isApiPath(c.req.path)
      ? `No endpoint ${c.req.method} ${c.req.path}. The API is described at /api/openapi.json.`
      : "Not found.";
    return c.json(errorBody("not_found", message), 404);
  });

  app.onError((error, c) => {
    if (error instanceof HttpError) {
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      return c.json(errorBody(error.code, error.message, error.details), error.status);
    }
    (c.get("logger") ?? deps.logger).error({ err: error }, "unhandled error");
    return c.json(errorBody("internal", "Something went wrong on our side. It has been logged."), 500);
  });

  return app;
}
