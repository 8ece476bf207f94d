/** The data catalog's tables: the list, one table, its sample. */
import type { AreaHandlers } from "../../http/mount";
import { getTableRoute } from "./get-table";
import { getTableSample } from "./get-table-sample";
import { getTables } from "./get-tables";

export interface TablesRouteDeps {
  tables: Parameters<typeof getTables>[0];
  sample: Parameters<typeof getTableSample>[0];
}

export function tablesRoutes(deps: TablesRouteDeps): AreaHandlers<"listTables" | "getTable" | "sampleTable"> {
  return {
    listTables: getTables(deps.tables),
    getTable: getTableRoute(deps.tables),
    sampleTable: getTableSample(deps.sample),
  };
}
