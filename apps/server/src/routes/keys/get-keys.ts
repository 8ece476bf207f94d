import { endpoints } from "@epicenter/contracts";
import type { AppDb } from "@epicenter/db";
import type { Hono } from "hono";
import { principalOf } from "../../http/access";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import { listApiKeys } from "../../services/access/api-keys";
import { apiKeyJson } from "./api-key-json";

export function getKeys(app: Hono<AppEnv>, deps: { db: AppDb }): void {
  mount(app, endpoints.listApiKeys, async (c) => {
    const keys = await listApiKeys(deps.db, principalOf(c).user.id);
    return c.json({ keys: keys.map(apiKeyJson) }, 200);
  });
}
