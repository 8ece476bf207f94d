import type { endpoints } from "@epicenter/contracts";
import { principalOf } from "../../http/access";
import type { Handler } from "../../http/mount";
import { decidePair, type PairReviewDeps } from "../../services/crossvenue/review";

/** `POST /api/admin/crossvenue/pairs/{polymarket_id}/{kalshi_ticker}/confirm` */
export function postConfirmCrossVenuePair(deps: PairReviewDeps): Handler<typeof endpoints.adminConfirmPair> {
  return ({ params, body, c }) =>
    decidePair(
      deps,
      { polymarketId: params.polymarket_id, kalshiTicker: params.kalshi_ticker },
      { action: "confirm", relation: body.relation, orientation: body.orientation },
      principalOf(c).user.id,
    );
}
