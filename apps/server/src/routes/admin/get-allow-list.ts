import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import { type AdminDeps, allowListView } from "../../services/admin/admin";

export function getAllowList(app: Hono<AppEnv>, deps: AdminDeps): void {
  mount(app, endpoints.adminListAllowList, () => allowListView(deps));
}
