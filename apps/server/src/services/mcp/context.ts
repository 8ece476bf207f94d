/** What every MCP tool runs with: the services it calls, who is asking, and when to stop. */
import type { Warehouse } from "@epicenter/warehouse";
import type { QueryServiceDeps } from "../queries/run-query";

/** The query service (user SQL, run records), plus the warehouse for the catalog and market search. */
export interface McpDeps extends QueryServiceDeps {
  warehouse: Warehouse;
}

/** The caller behind the API key: runs are recorded for this user and key. */
export interface McpCaller {
  userId: string;
  apiKeyId: string | null;
}

export interface McpContext {
  deps: McpDeps;
  caller: McpCaller;
  /** Aborted when the caller goes away (the HTTP request's signal); stops a running query. */
  signal?: AbortSignal | undefined;
}

/** The request's signal and the tool call's own (`notifications/cancelled`), whichever fires first. */
export function callSignal(context: McpContext, call: { signal: AbortSignal }): AbortSignal {
  return context.signal ? AbortSignal.any([context.signal, call.signal]) : call.signal;
}
