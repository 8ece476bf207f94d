import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { unauthorized } from "../../http/errors";
import { mount } from "../../http/mount";
import type { AccessDeps } from "../../services/access/principal";
import { refreshSession, sessionTokensJson } from "../../services/access/sessions";

export function postRefresh(app: Hono<AppEnv>, deps: AccessDeps): void {
  mount(app, endpoints.refreshSession, async ({ body }) => {
    const session = await refreshSession(deps, body.refresh_token);
    if (!session) throw unauthorized("The session has ended. Sign in again.");
    return sessionTokensJson(session, "/");
  });
}
