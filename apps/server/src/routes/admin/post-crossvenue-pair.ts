import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import { principalOf } from "../../http/access";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import { type PairReviewDeps, pairByHand } from "../../services/crossvenue/review";

/** `POST /api/admin/crossvenue/pairs`: two markets paired by hand, as confirmed. */
export function postCrossVenuePair(app: Hono<AppEnv>, deps: PairReviewDeps): void {
  mount(app, endpoints.adminAddPair, ({ body, c }) => pairByHand(deps, body, principalOf(c).user.id));
}
