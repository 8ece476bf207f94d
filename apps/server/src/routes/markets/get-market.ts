import type { endpoints } from "@epicenter/contracts";
import type { Handler } from "../../http/mount";
import { getMarket, type MarketDeps } from "../../services/markets/markets";

/** `GET /api/markets/{venue}/{id}`: one market's latest state and the SQL behind its page. */
export function getMarketRoute(deps: MarketDeps): Handler<typeof endpoints.getMarket> {
  return ({ params }) => getMarket(deps, params.venue, params.id);
}
