import type { endpoints } from "@epicenter/contracts";
import type { Handler } from "../../http/mount";
import { getMarketBook } from "../../services/markets/book";
import type { MarketDeps } from "../../services/markets/markets";

/** `GET /api/markets/{venue}/{id}/book`: the Yes book as of a moment, its fill prices and spread. */
export function getMarketBookRoute(deps: MarketDeps): Handler<typeof endpoints.getMarketBook> {
  return ({ params, query }) => getMarketBook(deps, params.venue, params.id, query);
}
