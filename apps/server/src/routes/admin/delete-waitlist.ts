import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { notFound } from "../../http/errors";
import { mount } from "../../http/mount";
import { type AdminDeps, dropWaitlisted } from "../../services/admin/admin";

export function deleteWaitlist(app: Hono<AppEnv>, deps: Pick<AdminDeps, "db">): void {
  mount(app, endpoints.adminRemoveWaitlist, async ({ params }) => {
    if (!(await dropWaitlisted(deps, params.email))) throw notFound(`${params.email} is not on the waitlist.`);
    return null;
  });
}
