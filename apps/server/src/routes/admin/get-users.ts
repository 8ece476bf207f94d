import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import { type AdminDeps, usersView } from "../../services/admin/admin";

export function getAdminUsers(app: Hono<AppEnv>, deps: AdminDeps): void {
  mount(app, endpoints.adminListUsers, () => usersView(deps));
}
