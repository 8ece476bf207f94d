import type { endpoints } from "@epicenter/contracts";
import { notFound } from "../../http/errors";
import type { Handler } from "../../http/mount";
import { type AdminDeps, disallowEmail } from "../../services/admin/admin";

export function deleteAllowList(deps: Pick<AdminDeps, "db">): Handler<typeof endpoints.adminRemoveAllowList> {
  return async ({ params }) => {
    if (!(await disallowEmail(deps, params.email))) throw notFound(`${params.email} is not on the allow-list.`);
    return null;
  };
}
