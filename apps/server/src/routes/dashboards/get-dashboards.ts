import type { endpoints } from "@epicenter/contracts";
import type { Handler } from "../../http/mount";
import { listDashboards } from "../../services/dashboards/dashboards";

export function getDashboards(): Handler<typeof endpoints.listDashboards> {
  return async () => {
    const dashboards = listDashboards();
    return { dashboards, count: dashboards.length };
  };
}
