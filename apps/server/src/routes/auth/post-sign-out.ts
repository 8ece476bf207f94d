import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { unauthorized } from "../../http/errors";
import { mount } from "../../http/mount";
import type { AccessDeps } from "../../services/access/principal";
import { signOut } from "../../services/access/sessions";

export function postSignOut(app: Hono<AppEnv>, deps: AccessDeps): void {
  mount(app, endpoints.signOut, async ({ c }) => {
    const principal = await c.get("resolvePrincipal")();
    if (!principal?.sessionId) throw unauthorized("Auth session missing");
    await signOut(deps, principal.sessionId);
    return null;
  });
}
