import { endpoints } from "@epicenter/contracts";
import type { Context, Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import { getPlatformStats, type PlatformStatsDeps } from "../../services/screens/platform-stats";

/** `GET /api/stats`, and the same answer at the older `GET /stats` of SPEC §7. */
export function getStatsRoutes(app: Hono<AppEnv>, deps: PlatformStatsDeps): void {
  const handler = async (c: Context<AppEnv>) => {
    c.header("cache-control", "no-store");
    return c.json(await getPlatformStats(deps), 200);
  };
  mount(app, endpoints.platformStats, handler);
  mount(app, endpoints.platformStatsLegacy, handler);
}
