import type { endpoints } from "@epicenter/contracts";
import { principalOf } from "../../http/access";
import type { Handler } from "../../http/mount";
import { type SavedQueryDeps, visibleQueries } from "../../services/queries/saved-queries";

export function getSavedQueries(deps: Pick<SavedQueryDeps, "db">): Handler<typeof endpoints.listSavedQueries> {
  return async ({ c }) => ({
    queries: await visibleQueries(deps, principalOf(c).user.id),
  });
}
