import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import { principalOf } from "../../http/access";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import type { MagicLinkDeps } from "../../services/access/magic-link";
import { approveWaitlisted } from "../../services/admin/admin";

export function postApproveWaitlist(app: Hono<AppEnv>, deps: MagicLinkDeps & { adminEmails: readonly string[] }): void {
  mount(app, endpoints.adminApproveWaitlist, ({ params, c }) =>
    approveWaitlisted(deps, params.email, principalOf(c).user.email),
  );
}
