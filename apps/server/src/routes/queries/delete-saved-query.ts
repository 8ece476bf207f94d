import type { endpoints } from "@epicenter/contracts";
import { principalOf } from "../../http/access";
import { notFound } from "../../http/errors";
import type { Handler } from "../../http/mount";
import { removeQuery, type SavedQueryDeps } from "../../services/queries/saved-queries";

export function deleteSavedQuery(deps: Pick<SavedQueryDeps, "db">): Handler<typeof endpoints.deleteSavedQuery> {
  return async ({ params, c }) => {
    if (!(await removeQuery(deps, principalOf(c).user.id, params.id))) {
      throw notFound("You have no saved query with that id.");
    }
    return null;
  };
}
