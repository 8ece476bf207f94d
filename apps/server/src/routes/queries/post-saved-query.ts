import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import { principalOf } from "../../http/access";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import { type SavedQueryDeps, saveQuery } from "../../services/queries/saved-queries";

export function postSavedQuery(app: Hono<AppEnv>, deps: Pick<SavedQueryDeps, "db">): void {
  mount(app, endpoints.createSavedQuery, ({ body, c }) => saveQuery(deps, principalOf(c).user.id, body));
}
