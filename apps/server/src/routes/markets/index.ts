/** One market of either venue, its history, and the search. */
import type { AreaHandlers } from "../../http/mount";
import { getMarketRoute } from "./get-market";
import { getMarketBookRoute } from "./get-market-book";
import { getMarketHistoryRoute } from "./get-market-history";
import { getMarkets } from "./get-markets";

export interface MarketsRouteDeps {
  markets: Parameters<typeof getMarkets>[0];
}

export function marketsRoutes(
  deps: MarketsRouteDeps,
): AreaHandlers<"searchMarkets" | "getMarket" | "getMarketHistory" | "getMarketBook"> {
  return {
    searchMarkets: getMarkets(deps.markets),
    getMarket: getMarketRoute(deps.markets),
    getMarketHistory: getMarketHistoryRoute(deps.markets),
    getMarketBook: getMarketBookRoute(deps.markets),
  };
}
