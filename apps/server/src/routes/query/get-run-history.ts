import type { endpoints } from "@epicenter/contracts";
import { principalOf } from "../../http/access";
import type { Handler } from "../../http/mount";
import { runHistory } from "../../services/queries/run-history";
import type { SavedQueryDeps } from "../../services/queries/saved-queries";

export function getRunHistory(deps: SavedQueryDeps): Handler<typeof endpoints.runHistory> {
  return ({ c }) => runHistory(deps, principalOf(c).user.id);
}
