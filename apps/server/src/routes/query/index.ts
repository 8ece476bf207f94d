/** Running SQL: the spec's and the compact answer, downloads, the run history and the engine's vocabulary. */
import type { AreaHandlers } from "../../http/mount";
import { getRunHistory } from "./get-run-history";
import { getSqlDialect } from "./get-sql-dialect";
import { postExport } from "./post-export";
import { postQuery } from "./post-query";
import { postQueryRows } from "./post-query-rows";

export interface QueryRouteDeps {
  queries: Parameters<typeof postQuery>[0];
  dialect: Parameters<typeof getSqlDialect>[0];
  savedQueries: Parameters<typeof getRunHistory>[0];
}

export function queryRoutes(
  deps: QueryRouteDeps,
): AreaHandlers<"runQuery" | "runQueryRows" | "exportQuery" | "sqlDialect" | "runHistory"> {
  return {
    runQuery: postQuery(deps.queries),
    runQueryRows: postQueryRows(deps.queries),
    exportQuery: postExport(deps.queries),
    sqlDialect: getSqlDialect(deps.dialect),
    runHistory: getRunHistory(deps.savedQueries),
  };
}
