import type { endpoints } from "@epicenter/contracts";
import { principalOf } from "../../http/access";
import type { Handler } from "../../http/mount";
import type { MagicLinkDeps } from "../../services/access/magic-link";
import { approveWaitlisted } from "../../services/admin/admin";

export function postApproveWaitlist(
  deps: MagicLinkDeps & { adminEmails: readonly string[] },
): Handler<typeof endpoints.adminApproveWaitlist> {
  return ({ params, c }) => approveWaitlisted(deps, params.email, principalOf(c).user.email);
}
