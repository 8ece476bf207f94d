import type { endpoints } from "@epicenter/contracts";
import type { Handler } from "../../http/mount";
import { type AdminDeps, allowListView } from "../../services/admin/admin";

export function getAllowList(deps: AdminDeps): Handler<typeof endpoints.adminListAllowList> {
  return () => allowListView(deps);
}
