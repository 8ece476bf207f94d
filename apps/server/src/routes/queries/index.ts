/** Saved queries and their run statistics (the statistics before `/api/queries/{id}`, which would take "stats" for an id). */
import type { AreaHandlers } from "../../http/mount";
import { deleteSavedQuery } from "./delete-saved-query";
import { getQueryStats } from "./get-query-stats";
import { getSavedQueries } from "./get-saved-queries";
import { getSavedQuery } from "./get-saved-query";
import { patchSavedQuery } from "./patch-saved-query";
import { postSavedQuery } from "./post-saved-query";

export interface QueriesRouteDeps {
  savedQueries: Parameters<typeof getQueryStats>[0];
}

export function queriesRoutes(
  deps: QueriesRouteDeps,
): AreaHandlers<
  "queryStats" | "listSavedQueries" | "createSavedQuery" | "getSavedQuery" | "updateSavedQuery" | "deleteSavedQuery"
> {
  return {
    queryStats: getQueryStats(deps.savedQueries),
    listSavedQueries: getSavedQueries(deps.savedQueries),
    createSavedQuery: postSavedQuery(deps.savedQueries),
    getSavedQuery: getSavedQuery(deps.savedQueries),
    updateSavedQuery: patchSavedQuery(deps.savedQueries),
    deleteSavedQuery: deleteSavedQuery(deps.savedQueries),
  };
}
