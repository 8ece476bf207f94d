import { endpoints } from "@epicenter/contracts";
import type { Warehouse } from "@epicenter/warehouse";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { notFound } from "../../http/errors";
import { mount } from "../../http/mount";
import { getTable } from "../../services/catalog/catalog";

export function getTableRoute(app: Hono<AppEnv>, deps: { warehouse: Warehouse }): void {
  mount(app, endpoints.getTable, async ({ params }) => {
    const found = await getTable(deps.warehouse, params.namespace, params.table);
    if (!found) throw notFound(`No table ${params.namespace}.${params.table} in the catalog.`);
    return found;
  });
}
