import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { notFound } from "../../http/errors";
import { mount } from "../../http/mount";
import { findDashboard } from "../../services/dashboards/dashboards";

export function getDashboard(app: Hono<AppEnv>): void {
  mount(app, endpoints.getDashboard, async ({ params }) => {
    const dashboard = findDashboard(params.id);
    if (!dashboard) throw notFound(`No dashboard ${params.id}.`);
    return dashboard;
  });
}
