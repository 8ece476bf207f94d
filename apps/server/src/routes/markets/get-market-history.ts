import type { endpoints } from "@epicenter/contracts";
import type { Handler } from "../../http/mount";
import { getMarketHistory, type MarketDeps } from "../../services/markets/markets";

/** `GET /api/markets/{venue}/{id}/history`: price per interval and volume, history first. */
export function getMarketHistoryRoute(deps: MarketDeps): Handler<typeof endpoints.getMarketHistory> {
  return ({ params, query }) => getMarketHistory(deps, params.venue, params.id, query);
}
