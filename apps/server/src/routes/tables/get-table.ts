import type { endpoints } from "@epicenter/contracts";
import type { Warehouse } from "@epicenter/warehouse";
import { notFound } from "../../http/errors";
import type { Handler } from "../../http/mount";
import { getTable } from "../../services/catalog/catalog";

export function getTableRoute(deps: { warehouse: Warehouse }): Handler<typeof endpoints.getTable> {
  return async ({ params }) => {
    const found = await getTable(deps.warehouse, params.namespace, params.table);
    if (!found) throw notFound(`No table ${params.namespace}.${params.table} in the catalog.`);
    return found;
  };
}
