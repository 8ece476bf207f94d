import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import { getPlatformStats, type PlatformStatsDeps } from "../../services/dashboards/platform-stats";

/** `GET /api/stats`, and the same answer at the older `GET /stats` of SPEC §7. */
export function getStats(app: Hono<AppEnv>, deps: PlatformStatsDeps): void {
  for (const endpoint of [endpoints.platformStats, endpoints.platformStatsLegacy]) {
    mount(app, endpoint, async ({ c }) => {
      c.header("cache-control", "no-store");
      return getPlatformStats(deps);
    });
  }
}
