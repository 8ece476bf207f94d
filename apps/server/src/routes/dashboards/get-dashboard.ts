import type { endpoints } from "@epicenter/contracts";
import { notFound } from "../../http/errors";
import type { Handler } from "../../http/mount";
import { findDashboard } from "../../services/dashboards/dashboards";

export function getDashboard(): Handler<typeof endpoints.getDashboard> {
  return async ({ params }) => {
    const dashboard = findDashboard(params.id);
    if (!dashboard) throw notFound(`No dashboard ${params.id}.`);
    return dashboard;
  };
}
