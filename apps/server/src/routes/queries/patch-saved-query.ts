import type { endpoints } from "@epicenter/contracts";
import { principalOf } from "../../http/access";
import { notFound } from "../../http/errors";
import type { Handler } from "../../http/mount";
import { changeQuery, type SavedQueryDeps } from "../../services/queries/saved-queries";

export function patchSavedQuery(
  deps: Pick<SavedQueryDeps, "db" | "clock">,
): Handler<typeof endpoints.updateSavedQuery> {
  return async ({ params, body, c }) => {
    const query = await changeQuery(deps, principalOf(c).user.id, params.id, body);
    // Someone else's query, an example, or none at all: all read as "you have no such query".
    if (!query) throw notFound("You have no saved query with that id.");
    return query;
  };
}
