import type { endpoints } from "@epicenter/contracts";
import { unauthorized } from "../../http/errors";
import type { Handler } from "../../http/mount";
import type { AccessDeps } from "../../services/access/principal";
import { refreshSession, sessionTokensJson } from "../../services/access/sessions";

export function postRefresh(deps: AccessDeps): Handler<typeof endpoints.refreshSession> {
  return async ({ body }) => {
    const session = await refreshSession(deps, body.refresh_token);
    if (!session) throw unauthorized("The session has ended. Sign in again.");
    return sessionTokensJson(session, "/");
  };
}
