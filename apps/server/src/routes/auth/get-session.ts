import type { endpoints } from "@epicenter/contracts";
import { unauthorized } from "../../http/errors";
import type { Handler } from "../../http/mount";
import { sessionUserJson } from "../../services/access/sessions";

export function getSession(): Handler<typeof endpoints.getSession> {
  return async ({ c }) => {
    const principal = await c.get("resolvePrincipal")();
    if (principal?.via !== "session") throw unauthorized("Auth session missing");
    return { user: sessionUserJson(principal.user, principal) };
  };
}
