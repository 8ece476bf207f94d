import type { endpoints } from "@epicenter/contracts";
import type { Handler } from "../../http/mount";
import { type PairReadDeps, readMatcherStatus } from "../../services/crossvenue/pairs";

/** `GET /api/admin/crossvenue/matcher`: the matcher's last runs and the closed-markets pass. */
export function getCrossVenueMatcher(deps: PairReadDeps): Handler<typeof endpoints.adminMatcherStatus> {
  return () => readMatcherStatus(deps);
}
