// The catalog endpoints: tables, one table, sample rows.
import { endpoints } from "@epicenter/contracts";
import type { Sandbox, Warehouse } from "@epicenter/warehouse";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { notFound, readParams, readQuery } from "../../http/errors";
import { mount } from "../../http/mount";
import { queryHttpError } from "../../http/query-errors";
import { getTable, listTables, sampleTable } from "../../services/catalog/catalog";

export function catalogRoutes(app: Hono<AppEnv>, deps: { warehouse: Warehouse; sandbox: Sandbox }): void {
  const tablesQuery = endpoints.listTables.query;
  mount(app, endpoints.listTables, async (c) => {
    const { with_stats } = readQuery(c, tablesQuery);
    const tables = await listTables(deps.warehouse, { withStats: with_stats === "true" });
    return c.json({ tables, count: tables.length }, 200);
  });

  const tableParams = endpoints.getTable.params;
  mount(app, endpoints.getTable, async (c) => {
    const { namespace, table } = readParams(c, tableParams);
    const found = await getTable(deps.warehouse, namespace, table);
    if (!found) throw notFound(`No table ${namespace}.${table} in the catalog.`);
    return c.json(found, 200);
  });

  const sampleQuery = endpoints.sampleTable.query;
  mount(app, endpoints.sampleTable, async (c) => {
    const { namespace, table } = readParams(c, tableParams);
    const { limit } = readQuery(c, sampleQuery);
    try {
      const sample = await sampleTable(deps, namespace, table, limit);
      if (!sample) throw notFound(`No table ${namespace}.${table} in the catalog.`);
      return c.json(sample, 200);
    } catch (error) {
      throw queryHttpError(error);
    }
  });
}
