import type { endpoints } from "@epicenter/contracts";
import type { Handler } from "../../http/mount";
import type { QueryServiceDeps } from "../../services/queries/run-query";
import { runRequested } from "./run-request";

/** `POST /api/query/rows`: the same run as `POST /api/query`, answered as the result value itself. */
export function postQueryRows(deps: QueryServiceDeps): Handler<typeof endpoints.runQueryRows> {
  return async ({ body, c }) => {
    const { result } = await runRequested(deps, c, body, { isKeyed: false });
    return result;
  };
}
