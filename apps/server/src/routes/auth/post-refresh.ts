import { endpoints, ZRefreshRequest } from "@epicenter/contracts";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { readJson, unauthorized } from "../../http/errors";
import { mount } from "../../http/mount";
import type { AccessDeps } from "../../services/access/principal";
import { refreshSession } from "../../services/access/sessions";
import { sessionTokensJson } from "./session-json";

export function postRefresh(app: Hono<AppEnv>, deps: AccessDeps): void {
  mount(app, endpoints.refreshSession, async (c) => {
    const { refresh_token } = await readJson(c, ZRefreshRequest);
    const session = await refreshSession(deps, refresh_token);
    if (!session) throw unauthorized("The session has ended. Sign in again.");
    return c.json(sessionTokensJson(session, "/"), 200);
  });
}
