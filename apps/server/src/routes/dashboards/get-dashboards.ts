import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import { listDashboards } from "../../services/dashboards/dashboards";

export function getDashboards(app: Hono<AppEnv>): void {
  mount(app, endpoints.listDashboards, async () => {
    const dashboards = listDashboards();
    return { dashboards, count: dashboards.length };
  });
}
