import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import { principalOf } from "../../http/access";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import { type SavedQueryDeps, visibleQueries } from "../../services/queries/saved-queries";

export function getSavedQueries(app: Hono<AppEnv>, deps: Pick<SavedQueryDeps, "db">): void {
  mount(app, endpoints.listSavedQueries, async ({ c }) => ({
    queries: await visibleQueries(deps, principalOf(c).user.id),
  }));
}
