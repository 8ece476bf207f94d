import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import { principalOf } from "../../http/access";
import type { AppEnv } from "../../http/env";
import { notFound } from "../../http/errors";
import { mount } from "../../http/mount";
import { changeQuery, type SavedQueryDeps } from "../../services/queries/saved-queries";

export function patchSavedQuery(app: Hono<AppEnv>, deps: Pick<SavedQueryDeps, "db" | "clock">): void {
  mount(app, endpoints.updateSavedQuery, async ({ params, body, c }) => {
    const query = await changeQuery(deps, principalOf(c).user.id, params.id, body);
    // Someone else's query, an example, or none at all: all read as "you have no such query".
    if (!query) throw notFound("You have no saved query with that id.");
    return query;
  });
}
