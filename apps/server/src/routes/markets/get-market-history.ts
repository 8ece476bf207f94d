import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import { getMarketHistory, type MarketDeps } from "../../services/markets/markets";

/** `GET /api/markets/{venue}/{id}/history`: price per interval and volume, history first. */
export function getMarketHistoryRoute(app: Hono<AppEnv>, deps: MarketDeps): void {
  mount(app, endpoints.getMarketHistory, ({ params, query }) => getMarketHistory(deps, params.venue, params.id, query));
}
