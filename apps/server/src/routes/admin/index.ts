/** The admin area: allow-list, waitlist, users, sync and query runs, cross-venue pairs. */
import type { AreaHandlers } from "../../http/mount";
import { deleteAllowList } from "./delete-allow-list";
import { deleteWaitlist } from "./delete-waitlist";
import { getAllowList } from "./get-allow-list";
import { getCrossVenueMatcher } from "./get-crossvenue-matcher";
import { getCrossVenuePairs } from "./get-crossvenue-pairs";
import { getCrossVenueReviews } from "./get-crossvenue-reviews";
import { getAdminQueryRuns } from "./get-query-runs";
import { getAdminSyncRuns } from "./get-sync-runs";
import { getAdminUsers } from "./get-users";
import { getWaitlist } from "./get-waitlist";
import { postAllowList } from "./post-allow-list";
import { postApproveWaitlist } from "./post-approve-waitlist";
import { postConfirmCrossVenuePair } from "./post-confirm-crossvenue-pair";
import { postCrossVenuePair } from "./post-crossvenue-pair";
import { postRejectCrossVenuePair } from "./post-reject-crossvenue-pair";

export interface AdminRouteDeps {
  admin: Parameters<typeof getAllowList>[0];
  approvals: Parameters<typeof postApproveWaitlist>[0];
  syncRuns: Parameters<typeof getAdminSyncRuns>[0];
  queryRuns: Parameters<typeof getAdminQueryRuns>[0];
  pairs: Parameters<typeof postCrossVenuePair>[0];
}

export function adminRoutes(
  deps: AdminRouteDeps,
): AreaHandlers<
  | "adminListAllowList"
  | "adminAddAllowList"
  | "adminRemoveAllowList"
  | "adminListWaitlist"
  | "adminApproveWaitlist"
  | "adminRemoveWaitlist"
  | "adminListUsers"
  | "adminSyncRuns"
  | "adminQueryRuns"
  | "adminListPairs"
  | "adminAddPair"
  | "adminConfirmPair"
  | "adminRejectPair"
  | "adminPairReviews"
  | "adminMatcherStatus"
> {
  return {
    adminListAllowList: getAllowList(deps.admin),
    adminAddAllowList: postAllowList(deps.admin),
    adminRemoveAllowList: deleteAllowList(deps.admin),
    adminListWaitlist: getWaitlist(deps.admin),
    adminApproveWaitlist: postApproveWaitlist(deps.approvals),
    adminRemoveWaitlist: deleteWaitlist(deps.admin),
    adminListUsers: getAdminUsers(deps.admin),
    adminSyncRuns: getAdminSyncRuns(deps.syncRuns),
    adminQueryRuns: getAdminQueryRuns(deps.queryRuns),
    adminListPairs: getCrossVenuePairs(deps.pairs),
    adminAddPair: postCrossVenuePair(deps.pairs),
    adminConfirmPair: postConfirmCrossVenuePair(deps.pairs),
    adminRejectPair: postRejectCrossVenuePair(deps.pairs),
    adminPairReviews: getCrossVenueReviews(deps.pairs),
    adminMatcherStatus: getCrossVenueMatcher(deps.pairs),
  };
}
