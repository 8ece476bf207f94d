import { namespaces } from "./0001-namespaces";
import { snapshotTables } from "./0002-snapshot-tables";
import type { WarehouseMigration } from "./types";

/** Every warehouse migration, in the order it is applied. Append only. */
export const warehouseMigrations: readonly WarehouseMigration[] = [namespaces, snapshotTables];

export type { WarehouseMigration } from "./types";
