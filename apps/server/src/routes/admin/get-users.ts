import type { endpoints } from "@epicenter/contracts";
import type { Handler } from "../../http/mount";
import { type AdminDeps, usersView } from "../../services/admin/admin";

export function getAdminUsers(deps: AdminDeps): Handler<typeof endpoints.adminListUsers> {
  return () => usersView(deps);
}
