import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { badRequest } from "../../http/errors";
import { mount } from "../../http/mount";
import { verifyMagicLink } from "../../services/access/magic-link";
import type { AccessDeps } from "../../services/access/principal";
import { sessionTokensJson } from "../../services/access/sessions";

const REFUSALS = {
  unknown: "This sign-in link is not valid. Ask for a new one.",
  used: "This sign-in link has already been used. Ask for a new one.",
  expired: "This sign-in link has expired. Links work for 15 minutes; ask for a new one.",
} as const;

export function postVerify(app: Hono<AppEnv>, deps: AccessDeps): void {
  mount(app, endpoints.verifyMagicLink, async ({ body }) => {
    const result = await verifyMagicLink(deps, body.token);
    if (result.outcome !== "ok") throw badRequest(REFUSALS[result.outcome], { reason: result.outcome });
    return sessionTokensJson(result.session, result.redirectTo);
  });
}
