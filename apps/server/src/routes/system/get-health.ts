import type { endpoints } from "@epicenter/contracts";
import type { Handler } from "../../http/mount";
import { checkHealth, type HealthDeps } from "../../services/health/check-health";

export function getHealth(deps: HealthDeps): Handler<typeof endpoints.health> {
  return async ({ c }) => {
    const health = await checkHealth(deps);
    c.header("cache-control", "no-store");
    // The unhealthy answer carries the same body under 503.
    return health.status === "healthy" ? health : c.json(health, 503);
  };
}
