import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import { principalOf } from "../../http/access";
import type { AppEnv } from "../../http/env";
import { notFound } from "../../http/errors";
import { mount } from "../../http/mount";
import { type SavedQueryDeps, visibleQuery } from "../../services/queries/saved-queries";

export function getSavedQuery(app: Hono<AppEnv>, deps: Pick<SavedQueryDeps, "db">): void {
  mount(app, endpoints.getSavedQuery, async ({ params, c }) => {
    const query = await visibleQuery(deps, params.id, principalOf(c).user.id);
    if (!query) throw notFound("No saved query with that id is visible to you.");
    return query;
  });
}
