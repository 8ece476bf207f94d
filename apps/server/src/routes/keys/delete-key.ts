import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import { principalOf } from "../../http/access";
import type { AppEnv } from "../../http/env";
import { notFound } from "../../http/errors";
import { mount } from "../../http/mount";
import { type ApiKeyDeps, revokeKeyOf } from "../../services/access/api-keys";

export function deleteKey(app: Hono<AppEnv>, deps: ApiKeyDeps): void {
  mount(app, endpoints.revokeApiKey, async ({ params, c }) => {
    // Another user's key answers exactly like a key that does not exist.
    if (!(await revokeKeyOf(deps, principalOf(c).user.id, params.id))) {
      throw notFound("You have no API key with that id.");
    }
    return null;
  });
}
