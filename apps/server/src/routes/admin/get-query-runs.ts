import type { endpoints } from "@epicenter/contracts";
import type { Handler } from "../../http/mount";
import { recentQueryRuns } from "../../services/admin/admin";

export function getAdminQueryRuns(
  deps: Parameters<typeof recentQueryRuns>[0],
): Handler<typeof endpoints.adminQueryRuns> {
  return ({ query }) => recentQueryRuns(deps, { errorsOnly: query.errors_only === "true", limit: 200 });
}
