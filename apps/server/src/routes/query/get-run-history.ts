import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import { principalOf } from "../../http/access";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import { runHistory } from "../../services/queries/run-history";
import type { SavedQueryDeps } from "../../services/queries/saved-queries";

export function getRunHistory(app: Hono<AppEnv>, deps: SavedQueryDeps): void {
  mount(app, endpoints.runHistory, ({ c }) => runHistory(deps, principalOf(c).user.id));
}
