import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import { principalOf } from "../../http/access";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import { type SavedQueryDeps, visibleQueryStats } from "../../services/queries/saved-queries";

/** Registered before `/api/queries/{id}`, which would otherwise take "stats" for an id. */
export function getQueryStats(app: Hono<AppEnv>, deps: SavedQueryDeps): void {
  mount(app, endpoints.queryStats, async ({ c }) => {
    try {
      return await visibleQueryStats(deps, principalOf(c).user.id);
    } catch (error) {
      // SPEC §8: missing statistics are tolerated silently (and logged).
      c.get("logger").error({ err: error }, "query statistics unavailable");
      return { queries: [] };
    }
  });
}
