import type { endpoints } from "@epicenter/contracts";
import { principalOf } from "../../http/access";
import { notFound } from "../../http/errors";
import type { Handler } from "../../http/mount";
import { type SavedQueryDeps, visibleQuery } from "../../services/queries/saved-queries";

export function getSavedQuery(deps: Pick<SavedQueryDeps, "db">): Handler<typeof endpoints.getSavedQuery> {
  return async ({ params, c }) => {
    const query = await visibleQuery(deps, params.id, principalOf(c).user.id);
    if (!query) throw notFound("No saved query with that id is visible to you.");
    return query;
  };
}
