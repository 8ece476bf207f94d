import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import { checkHealth, type HealthDeps } from "../../services/health/check-health";

export function getHealth(app: Hono<AppEnv>, deps: HealthDeps): void {
  mount(app, endpoints.health, async ({ c }) => {
    const health = await checkHealth(deps);
    c.header("cache-control", "no-store");
    // The unhealthy answer carries the same body under 503.
    return health.status === "healthy" ? health : c.json(health, 503);
  });
}
