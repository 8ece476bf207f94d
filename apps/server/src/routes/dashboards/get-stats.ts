import type { PlatformStats } from "@epicenter/contracts";
import type { Context } from "hono";
import type { AppEnv } from "../../http/env";
import { getPlatformStats, type PlatformStatsDeps } from "../../services/dashboards/platform-stats";

/** `GET /api/stats`, and the same answer at the older `GET /stats` of SPEC §7: one handler for both. */
export function getStats(deps: PlatformStatsDeps): (input: { c: Context<AppEnv> }) => Promise<PlatformStats> {
  return async ({ c }) => {
    c.header("cache-control", "no-store");
    return getPlatformStats(deps);
  };
}
