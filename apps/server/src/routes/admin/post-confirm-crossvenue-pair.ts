import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import { principalOf } from "../../http/access";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import { decidePair, type PairReviewDeps } from "../../services/crossvenue/review";

/** `POST /api/admin/crossvenue/pairs/{polymarket_id}/{kalshi_ticker}/confirm` */
export function postConfirmCrossVenuePair(app: Hono<AppEnv>, deps: PairReviewDeps): void {
  mount(app, endpoints.adminConfirmPair, ({ params, body, c }) =>
    decidePair(
      deps,
      { polymarketId: params.polymarket_id, kalshiTicker: params.kalshi_ticker },
      { action: "confirm", relation: body.relation, orientation: body.orientation },
      principalOf(c).user.id,
    ),
  );
}
