import type { endpoints } from "@epicenter/contracts";
import { JsonText } from "../../http/json-text";
import type { Handler } from "../../http/mount";
import type { QueryServiceDeps } from "../../services/queries/run-query";
import { runRequested } from "./run-request";

/**
 * `POST /api/query/rows`: the same run as `POST /api/query`, answered as the result value
 * itself, its rows the engine's own value arrays.
 */
export function postQueryRows(deps: QueryServiceDeps): Handler<typeof endpoints.runQueryRows> {
  return async ({ body, c }) => {
    const { result } = await runRequested(deps, c, body, { isKeyed: false });
    return JsonText.object({
      columns: result.columns,
      rows: new JsonText(result.rowsJson),
      row_count: result.row_count,
      truncated: result.truncated,
      truncated_by: result.truncated_by,
      execution_time_ms: result.execution_time_ms,
    });
  };
}
