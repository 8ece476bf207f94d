import type { endpoints } from "@epicenter/contracts";
import type { Handler } from "../../http/mount";
import { listReviews, type PairReadDeps } from "../../services/crossvenue/pairs";

/** `GET /api/admin/crossvenue/reviews`: every decision on a pair, newest first. */
export function getCrossVenueReviews(deps: PairReadDeps): Handler<typeof endpoints.adminPairReviews> {
  return ({ query }) => listReviews(deps, query);
}
