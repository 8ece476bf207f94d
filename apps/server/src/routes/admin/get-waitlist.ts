import type { endpoints } from "@epicenter/contracts";
import type { Handler } from "../../http/mount";
import { type AdminDeps, waitlistView } from "../../services/admin/admin";

export function getWaitlist(deps: Pick<AdminDeps, "db">): Handler<typeof endpoints.adminListWaitlist> {
  return () => waitlistView(deps);
}
