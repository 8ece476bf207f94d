import { createDatabase, onCluster } from "../ddl";
import { CATALOG_VIEWS } from "../sandbox/catalog-views";
import type { WarehouseMigration } from "./types";

/**
 * The engine's catalogue as ClickHouse clients read it (`system.tables`,
 * `information_schema.columns`…), limited to the market databases: views in
 * `epicenter_system` and `epicenter_information_schema` that the ClickHouse interface
 * points `system.x` at (`sandbox/catalog-views.ts`). A change to a view is a new migration
 * that replaces it (`CREATE OR REPLACE`).
 */
export const catalogViews: WarehouseMigration = {
  version: 8,
  name: "catalog views for ClickHouse clients",
  statements: (ctx) => [
    createDatabase(ctx, "epicenter_system"),
    createDatabase(ctx, "epicenter_information_schema"),
    ...CATALOG_VIEWS.map(
      (view) => `CREATE OR REPLACE VIEW ${view.database}.${view.name}${onCluster(ctx)} AS ${view.select}`,
    ),
  ],
};
