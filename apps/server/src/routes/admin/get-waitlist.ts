import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import { type AdminDeps, waitlistView } from "../../services/admin/admin";

export function getWaitlist(app: Hono<AppEnv>, deps: Pick<AdminDeps, "db">): void {
  mount(app, endpoints.adminListWaitlist, () => waitlistView(deps));
}
