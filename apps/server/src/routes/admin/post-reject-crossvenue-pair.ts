import type { endpoints } from "@epicenter/contracts";
import { principalOf } from "../../http/access";
import type { Handler } from "../../http/mount";
import { decidePair, type PairReviewDeps } from "../../services/crossvenue/review";

/** `POST /api/admin/crossvenue/pairs/{polymarket_id}/{kalshi_ticker}/reject` */
export function postRejectCrossVenuePair(deps: PairReviewDeps): Handler<typeof endpoints.adminRejectPair> {
  return ({ params, c }) =>
    decidePair(
      deps,
      { polymarketId: params.polymarket_id, kalshiTicker: params.kalshi_ticker },
      { action: "reject" },
      principalOf(c).user.id,
    );
}
