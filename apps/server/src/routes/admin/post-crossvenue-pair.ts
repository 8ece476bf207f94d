import type { endpoints } from "@epicenter/contracts";
import { principalOf } from "../../http/access";
import type { Handler } from "../../http/mount";
import { type PairReviewDeps, pairByHand } from "../../services/crossvenue/review";

/** `POST /api/admin/crossvenue/pairs`: two markets paired by hand, as confirmed. */
export function postCrossVenuePair(deps: PairReviewDeps): Handler<typeof endpoints.adminAddPair> {
  return ({ body, c }) => pairByHand(deps, body, principalOf(c).user.id);
}
