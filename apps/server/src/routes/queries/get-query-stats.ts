import type { endpoints } from "@epicenter/contracts";
import { principalOf } from "../../http/access";
import type { Handler } from "../../http/mount";
import { type SavedQueryDeps, visibleQueryStats } from "../../services/queries/saved-queries";

/** Registered before `/api/queries/{id}`, which would otherwise take "stats" for an id. */
export function getQueryStats(deps: SavedQueryDeps): Handler<typeof endpoints.queryStats> {
  return async ({ c }) => {
    try {
      return await visibleQueryStats(deps, principalOf(c).user.id);
    } catch (error) {
      // SPEC §8: missing statistics are tolerated silently (and logged).
      c.get("logger").error({ err: error }, "query statistics unavailable");
      return { queries: [] };
    }
  };
}
