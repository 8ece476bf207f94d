import type { endpoints } from "@epicenter/contracts";
import type { Warehouse } from "@epicenter/warehouse";
import type { Handler } from "../../http/mount";
import { listTables } from "../../services/catalog/catalog";

export function getTables(deps: { warehouse: Warehouse }): Handler<typeof endpoints.listTables> {
  return async ({ query }) => {
    const tables = await listTables(deps.warehouse, { withStats: query.with_stats === "true" });
    return { tables, count: tables.length };
  };
}
