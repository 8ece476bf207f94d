import type { endpoints } from "@epicenter/contracts";
import type { Handler } from "../../http/mount";
import { type MarketDeps, searchMarkets } from "../../services/markets/markets";

/** `GET /api/markets`: markets of both venues matching the words of `q`. */
export function getMarkets(deps: MarketDeps): Handler<typeof endpoints.searchMarkets> {
  return async ({ query }) => ({ markets: await searchMarkets(deps, query) });
}
