import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import { type PairReadDeps, readMatcherStatus } from "../../services/crossvenue/pairs";

/** `GET /api/admin/crossvenue/matcher`: the matcher's last runs and the closed-markets pass. */
export function getCrossVenueMatcher(app: Hono<AppEnv>, deps: PairReadDeps): void {
  mount(app, endpoints.adminMatcherStatus, () => readMatcherStatus(deps));
}
