import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import { principalOf } from "../../http/access";
import type { AppEnv } from "../../http/env";
import { notFound } from "../../http/errors";
import { mount } from "../../http/mount";
import { removeQuery, type SavedQueryDeps } from "../../services/queries/saved-queries";

export function deleteSavedQuery(app: Hono<AppEnv>, deps: Pick<SavedQueryDeps, "db">): void {
  mount(app, endpoints.deleteSavedQuery, async ({ params, c }) => {
    if (!(await removeQuery(deps, principalOf(c).user.id, params.id))) {
      throw notFound("You have no saved query with that id.");
    }
    return null;
  });
}
