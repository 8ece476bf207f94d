import type { endpoints } from "@epicenter/contracts";
import type { Handler } from "../../http/mount";
import { listPairs, type PairReadDeps } from "../../services/crossvenue/pairs";

/** `GET /api/admin/crossvenue/pairs`: the pairs to review, or the decided ones, with counts by method. */
export function getCrossVenuePairs(deps: PairReadDeps): Handler<typeof endpoints.adminListPairs> {
  return ({ query }) => listPairs(deps, query);
}
