import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import { createSqlDialect, type SqlDialectDeps } from "../../services/queries/sql-dialect";

/** `GET /api/query/dialect`: the engine's vocabulary, cached by the browser for an hour. */
export function getSqlDialect(app: Hono<AppEnv>, deps: SqlDialectDeps): void {
  const dialect = createSqlDialect(deps);
  mount(app, endpoints.sqlDialect, async ({ c }) => {
    c.header("cache-control", "private, max-age=3600");
    return dialect();
  });
}
