import type { endpoints } from "@epicenter/contracts";
import { unauthorized } from "../../http/errors";
import type { Handler } from "../../http/mount";
import type { AccessDeps } from "../../services/access/principal";
import { signOut } from "../../services/access/sessions";

export function postSignOut(deps: AccessDeps): Handler<typeof endpoints.signOut> {
  return async ({ c }) => {
    const principal = await c.get("resolvePrincipal")();
    if (!principal?.sessionId) throw unauthorized("Auth session missing");
    await signOut(deps, principal.sessionId);
    return null;
  };
}
