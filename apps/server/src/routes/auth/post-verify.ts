import type { endpoints } from "@epicenter/contracts";
import { badRequest } from "../../http/errors";
import type { Handler } from "../../http/mount";
import { verifyMagicLink } from "../../services/access/magic-link";
import type { AccessDeps } from "../../services/access/principal";
import { sessionTokensJson } from "../../services/access/sessions";

const REFUSALS = {
  unknown: "This sign-in link is not valid. Ask for a new one.",
  used: "This sign-in link has already been used. Ask for a new one.",
  expired: "This sign-in link has expired. Links work for 15 minutes; ask for a new one.",
} as const;

export function postVerify(deps: AccessDeps): Handler<typeof endpoints.verifyMagicLink> {
  return async ({ body }) => {
    const result = await verifyMagicLink(deps, body.token);
    if (result.outcome !== "ok") throw badRequest(REFUSALS[result.outcome], { reason: result.outcome });
    return sessionTokensJson(result.session, result.redirectTo);
  };
}
