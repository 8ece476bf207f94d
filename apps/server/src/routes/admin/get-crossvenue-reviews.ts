import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import { listReviews, type PairReadDeps } from "../../services/crossvenue/pairs";

/** `GET /api/admin/crossvenue/reviews`: every decision on a pair, newest first. */
export function getCrossVenueReviews(app: Hono<AppEnv>, deps: PairReadDeps): void {
  mount(app, endpoints.adminPairReviews, ({ query }) => listReviews(deps, query));
}
