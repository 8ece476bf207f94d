import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import { listPairs, type PairReadDeps } from "../../services/crossvenue/pairs";

/** `GET /api/admin/crossvenue/pairs`: the pairs to review, or the decided ones, with counts by method. */
export function getCrossVenuePairs(app: Hono<AppEnv>, deps: PairReadDeps): void {
  mount(app, endpoints.adminListPairs, ({ query }) => listPairs(deps, query));
}
