import type { endpoints } from "@epicenter/contracts";
import { principalOf } from "../../http/access";
import type { Handler } from "../../http/mount";
import { type SavedQueryDeps, saveQuery } from "../../services/queries/saved-queries";

export function postSavedQuery(deps: Pick<SavedQueryDeps, "db">): Handler<typeof endpoints.createSavedQuery> {
  return ({ body, c }) => saveQuery(deps, principalOf(c).user.id, body);
}
