import { endpoints } from "@epicenter/contracts";
import type { AppDb } from "@epicenter/db";
import type { Hono } from "hono";
import { principalOf } from "../../http/access";
import type { AppEnv } from "../../http/env";
import { notFound, readParams } from "../../http/errors";
import { mount } from "../../http/mount";
import { revokeApiKey } from "../../services/access/api-keys";

export function deleteKey(app: Hono<AppEnv>, deps: { db: AppDb; clock: () => Date }): void {
  const params = endpoints.revokeApiKey.params;
  mount(app, endpoints.revokeApiKey, async (c) => {
    const { id } = readParams(c, params);
    // Another user's key answers exactly like a key that does not exist.
    if (!(await revokeApiKey(deps.db, principalOf(c).user.id, id, deps.clock()))) {
      throw notFound("You have no API key with that id.");
    }
    return c.body(null, 204);
  });
}
