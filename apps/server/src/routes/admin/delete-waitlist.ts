import type { endpoints } from "@epicenter/contracts";
import { notFound } from "../../http/errors";
import type { Handler } from "../../http/mount";
import { type AdminDeps, dropWaitlisted } from "../../services/admin/admin";

export function deleteWaitlist(deps: Pick<AdminDeps, "db">): Handler<typeof endpoints.adminRemoveWaitlist> {
  return async ({ params }) => {
    if (!(await dropWaitlisted(deps, params.email))) throw notFound(`${params.email} is not on the waitlist.`);
    return null;
  };
}
