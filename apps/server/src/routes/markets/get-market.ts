import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import { getMarket, type MarketDeps } from "../../services/markets/markets";

/** `GET /api/markets/{venue}/{id}`: one market's latest state and the SQL behind its page. */
export function getMarketRoute(app: Hono<AppEnv>, deps: MarketDeps): void {
  mount(app, endpoints.getMarket, ({ params }) => getMarket(deps, params.venue, params.id));
}
