// The allow-list endpoints of the admin area: list, add, remove.
import { endpoints, ZAddAllowListRequest } from "@epicenter/contracts";
import { type AllowListEntry, type AppDb, addToAllowList, listAllowList, removeFromAllowList } from "@epicenter/db";
import type { Hono } from "hono";
import { principalOf } from "../../http/access";
import type { AppEnv } from "../../http/env";
import { notFound, readJson, readParams } from "../../http/errors";
import { mount } from "../../http/mount";
import { roleFrom } from "../../services/access/principal";

interface AllowListDeps {
  db: AppDb;
  /** `ADMIN_EMAILS`: admins whatever their entry says. */
  adminEmails: readonly string[];
}

/** An entry as the admin area shows it, with the role its e-mail signs in with. */
export function allowListEntryJson(entry: AllowListEntry, adminEmails: readonly string[]) {
  return {
    email: entry.email,
    added_by: entry.addedBy,
    is_admin: roleFrom({ adminEmails }, entry.email, entry).isAdmin,
    created_at: entry.createdAt.toISOString(),
  };
}

export function getAllowList(app: Hono<AppEnv>, deps: AllowListDeps): void {
  mount(app, endpoints.adminListAllowList, async (c) => {
    const entries = await listAllowList(deps.db);
    return c.json({ entries: entries.map((entry) => allowListEntryJson(entry, deps.adminEmails)) }, 200);
  });
}

export function postAllowList(app: Hono<AppEnv>, deps: AllowListDeps): void {
  mount(app, endpoints.adminAddAllowList, async (c) => {
    const { email } = await readJson(c, ZAddAllowListRequest);
    const entry = await addToAllowList(deps.db, email, principalOf(c).user.email);
    return c.json(allowListEntryJson(entry, deps.adminEmails), 201);
  });
}

export function deleteAllowList(app: Hono<AppEnv>, deps: { db: AppDb }): void {
  const params = endpoints.adminRemoveAllowList.params;
  mount(app, endpoints.adminRemoveAllowList, async (c) => {
    const { email } = readParams(c, params);
    if (!(await removeFromAllowList(deps.db, email))) throw notFound(`${email} is not on the allow-list.`);
    return c.body(null, 204);
  });
}
