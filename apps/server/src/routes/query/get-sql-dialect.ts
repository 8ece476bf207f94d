import type { endpoints } from "@epicenter/contracts";
import type { Handler } from "../../http/mount";
import { createSqlDialect, type SqlDialectDeps } from "../../services/queries/sql-dialect";

/** `GET /api/query/dialect`: the engine's vocabulary, cached by the browser for an hour. */
export function getSqlDialect(deps: SqlDialectDeps): Handler<typeof endpoints.sqlDialect> {
  const dialect = createSqlDialect(deps);
  return async ({ c }) => {
    c.header("cache-control", "private, max-age=3600");
    return dialect();
  };
}
