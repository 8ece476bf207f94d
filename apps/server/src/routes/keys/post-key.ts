import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import { principalOf } from "../../http/access";
import type { AppEnv } from "../../http/env";
import { forbidden } from "../../http/errors";
import { mount } from "../../http/mount";
import { type ApiKeyDeps, createKeyForUser } from "../../services/access/api-keys";

export function postKey(app: Hono<AppEnv>, deps: Pick<ApiKeyDeps, "db">): void {
  mount(app, endpoints.createApiKey, async ({ body, c }) => {
    const { user } = principalOf(c);
    if (body.user_id !== user.id) throw forbidden("You can only create API keys for yourself.");
    return createKeyForUser(deps, user.id, body.name);
  });
}
