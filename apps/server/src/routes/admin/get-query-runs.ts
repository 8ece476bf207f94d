import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import { recentQueryRuns } from "../../services/admin/admin";

export function getAdminQueryRuns(app: Hono<AppEnv>, deps: Parameters<typeof recentQueryRuns>[0]): void {
  mount(app, endpoints.adminQueryRuns, ({ query }) =>
    recentQueryRuns(deps, { errorsOnly: query.errors_only === "true", limit: 200 }),
  );
}
