import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { unauthorized } from "../../http/errors";
import { mount } from "../../http/mount";
import { sessionUserJson } from "../../services/access/sessions";

export function getSession(app: Hono<AppEnv>): void {
  mount(app, endpoints.getSession, async ({ c }) => {
    const principal = await c.get("resolvePrincipal")();
    if (principal?.via !== "session") throw unauthorized("Auth session missing");
    return { user: sessionUserJson(principal.user, principal) };
  });
}
