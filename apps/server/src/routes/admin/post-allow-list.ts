import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import { principalOf } from "../../http/access";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import { type AdminDeps, allowEmail } from "../../services/admin/admin";

export function postAllowList(app: Hono<AppEnv>, deps: AdminDeps): void {
  mount(app, endpoints.adminAddAllowList, ({ body, c }) => allowEmail(deps, body.email, principalOf(c).user.email));
}
