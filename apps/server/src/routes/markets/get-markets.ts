import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import { type MarketDeps, searchMarkets } from "../../services/markets/markets";

/** `GET /api/markets`: markets of both venues matching the words of `q`. */
export function getMarkets(app: Hono<AppEnv>, deps: MarketDeps): void {
  mount(app, endpoints.searchMarkets, async ({ query }) => ({ markets: await searchMarkets(deps, query) }));
}
