// The waitlist endpoints of the admin area: list, approve (allow-list + magic link), remove.
import { endpoints } from "@epicenter/contracts";
import { type AppDb, listWaitlist, removeFromWaitlist } from "@epicenter/db";
import type { Hono } from "hono";
import { principalOf } from "../../http/access";
import type { AppEnv } from "../../http/env";
import { notFound, readParams } from "../../http/errors";
import { mount } from "../../http/mount";
import type { MagicLinkDeps } from "../../services/access/magic-link";
import { approveWaitlisted } from "../../services/admin/admin";
import { allowListEntryJson } from "./allow-list";

export function getWaitlist(app: Hono<AppEnv>, deps: { db: AppDb }): void {
  mount(app, endpoints.adminListWaitlist, async (c) => {
    const entries = await listWaitlist(deps.db);
    return c.json(
      { entries: entries.map((entry) => ({ email: entry.email, created_at: entry.createdAt.toISOString() })) },
      200,
    );
  });
}

export function postApproveWaitlist(app: Hono<AppEnv>, deps: MagicLinkDeps & { adminEmails: readonly string[] }): void {
  const params = endpoints.adminApproveWaitlist.params;
  mount(app, endpoints.adminApproveWaitlist, async (c) => {
    const { email } = readParams(c, params);
    const entry = await approveWaitlisted(deps, email, principalOf(c).user.email);
    return c.json(allowListEntryJson(entry, deps.adminEmails), 200);
  });
}

export function deleteWaitlist(app: Hono<AppEnv>, deps: { db: AppDb }): void {
  const params = endpoints.adminRemoveWaitlist.params;
  mount(app, endpoints.adminRemoveWaitlist, async (c) => {
    const { email } = readParams(c, params);
    if (!(await removeFromWaitlist(deps.db, email))) throw notFound(`${email} is not on the waitlist.`);
    return c.body(null, 204);
  });
}
