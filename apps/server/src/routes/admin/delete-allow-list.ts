import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { notFound } from "../../http/errors";
import { mount } from "../../http/mount";
import { type AdminDeps, disallowEmail } from "../../services/admin/admin";

export function deleteAllowList(app: Hono<AppEnv>, deps: Pick<AdminDeps, "db">): void {
  mount(app, endpoints.adminRemoveAllowList, async ({ params }) => {
    if (!(await disallowEmail(deps, params.email))) throw notFound(`${params.email} is not on the allow-list.`);
    return null;
  });
}
