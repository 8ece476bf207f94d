import type { endpoints } from "@epicenter/contracts";
import { principalOf } from "../../http/access";
import type { Handler } from "../../http/mount";
import { type AdminDeps, allowEmail } from "../../services/admin/admin";

export function postAllowList(deps: AdminDeps): Handler<typeof endpoints.adminAddAllowList> {
  return ({ body, c }) => allowEmail(deps, body.email, principalOf(c).user.email);
}
