import { endpoints, ZCreateApiKeyRequest } from "@epicenter/contracts";
import type { AppDb } from "@epicenter/db";
import type { Hono } from "hono";
import { principalOf } from "../../http/access";
import type { AppEnv } from "../../http/env";
import { forbidden, readJson } from "../../http/errors";
import { mount } from "../../http/mount";
import { createKeyForUser } from "../../services/access/api-keys";
import { apiKeyJson } from "./api-key-json";

export function postKey(app: Hono<AppEnv>, deps: { db: AppDb }): void {
  mount(app, endpoints.createApiKey, async (c) => {
    const body = await readJson(c, ZCreateApiKeyRequest);
    const { user } = principalOf(c);
    if (body.user_id !== user.id) throw forbidden("You can only create API keys for yourself.");
    const { apiKey, key } = await createKeyForUser(deps.db, user.id, body.name);
    return c.json({ ...apiKeyJson(apiKey), key }, 201);
  });
}
