import { endpoints } from "@epicenter/contracts";
import type { Warehouse } from "@epicenter/warehouse";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import { listTables } from "../../services/catalog/catalog";

export function getTables(app: Hono<AppEnv>, deps: { warehouse: Warehouse }): void {
  mount(app, endpoints.listTables, async ({ query }) => {
    const tables = await listTables(deps.warehouse, { withStats: query.with_stats === "true" });
    return { tables, count: tables.length };
  });
}
