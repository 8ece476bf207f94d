import { endpoints, ZVerifyRequest } from "@epicenter/contracts";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { badRequest, readJson } from "../../http/errors";
import { mount } from "../../http/mount";
import { verifyMagicLink } from "../../services/access/magic-link";
import type { AccessDeps } from "../../services/access/principal";
import { sessionTokensJson } from "./session-json";

const REFUSALS = {
  unknown: "This sign-in link is not valid. Ask for a new one.",
  used: "This sign-in link has already been used. Ask for a new one.",
  expired: "This sign-in link has expired. Links work for 15 minutes; ask for a new one.",
} as const;

export function postVerify(app: Hono<AppEnv>, deps: AccessDeps): void {
  mount(app, endpoints.verifyMagicLink, async (c) => {
    const { token } = await readJson(c, ZVerifyRequest);
    const result = await verifyMagicLink(deps, token);
    if (result.outcome !== "ok") throw badRequest(REFUSALS[result.outcome], { reason: result.outcome });
    return c.json(sessionTokensJson(result.session, result.redirectTo), 200);
  });
}
