import type { endpoints } from "@epicenter/contracts";
import type { Warehouse } from "@epicenter/warehouse";
import { principalOf } from "../../http/access";
import { notFound } from "../../http/errors";
import type { Handler } from "../../http/mount";
import { sampleTable } from "../../services/catalog/catalog";
import type { QueryServiceDeps } from "../../services/queries/run-query";

export function getTableSample(
  deps: QueryServiceDeps & { warehouse: Warehouse },
): Handler<typeof endpoints.sampleTable> {
  return async ({ params, query, c }) => {
    const principal = principalOf(c);
    const sample = await sampleTable(deps, params.namespace, params.table, {
      limit: query.limit,
      userId: principal.user.id,
      apiKeyId: principal.apiKeyId ?? null,
      origin: "catalog",
      signal: c.req.raw.signal,
    });
    if (!sample) throw notFound(`No table ${params.namespace}.${params.table} in the catalog.`);
    // SPEC §3's shape for a sample: column names, rows as value arrays, their number.
    return {
      columns: sample.result.columns.map((column) => column.name),
      sample_data: sample.result.rows,
      sample_size: sample.result.row_count,
    };
  };
}
