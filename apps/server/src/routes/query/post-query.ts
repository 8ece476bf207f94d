import { type endpoints, rowsAsObjects } from "@epicenter/contracts";
import type { Handler } from "../../http/mount";
import type { QueryServiceDeps } from "../../services/queries/run-query";
import { runRequested } from "./run-request";

/** `POST /api/query`: runs a statement, or a saved query by id, and answers in the spec's shape. */
export function postQuery(deps: QueryServiceDeps): Handler<typeof endpoints.runQuery> {
  return async ({ body, query, c }) => {
    // Sent as objects keyed by column name: the byte limit counts the keys.
    const { sql, result } = await runRequested(deps, c, { ...body, savedQueryId: query.query_id }, { isKeyed: true });
    return {
      success: true as const,
      result: {
        columns: result.columns,
        data: rowsAsObjects(result),
        row_count: result.row_count,
        execution_time_ms: result.execution_time_ms,
        truncated: result.truncated,
        ...(result.truncated_by ? { truncated_by: result.truncated_by } : {}),
      },
      query: sql,
    };
  };
}
