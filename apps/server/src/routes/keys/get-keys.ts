import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import { principalOf } from "../../http/access";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import { type ApiKeyDeps, listKeysOf } from "../../services/access/api-keys";

export function getKeys(app: Hono<AppEnv>, deps: Pick<ApiKeyDeps, "db">): void {
  mount(app, endpoints.listApiKeys, async ({ c }) => ({ keys: await listKeysOf(deps, principalOf(c).user.id) }));
}
