import type { endpoints } from "@epicenter/contracts";
import { JsonText } from "../../http/json-text";
import type { Handler } from "../../http/mount";
import type { QueryServiceDeps } from "../../services/queries/run-query";
import { runRequested } from "./run-request";

/**
 * `POST /api/query`: runs a statement, or a saved query by id, and answers in the spec's
 * shape, `data` the rows as objects keyed by column name, written from the engine's lines
 * without reading a value (the byte limit counts the keys).
 */
export function postQuery(deps: QueryServiceDeps): Handler<typeof endpoints.runQuery> {
  return async ({ body, query, c }) => {
    const { sql, result } = await runRequested(deps, c, { ...body, savedQueryId: query.query_id }, { isKeyed: true });
    return JsonText.object({
      success: true,
      result: JsonText.object({
        columns: result.columns,
        data: new JsonText(result.rowsJson),
        row_count: result.row_count,
        execution_time_ms: result.execution_time_ms,
        truncated: result.truncated,
        truncated_by: result.truncated_by,
      }),
      query: sql,
    });
  };
}
