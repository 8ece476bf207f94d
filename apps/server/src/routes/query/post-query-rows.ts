import { endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import type { QueryServiceDeps } from "../../services/queries/run-query";
import { runRequested } from "./run-request";

/** `POST /api/query/rows`: the same run as `POST /api/query`, answered as the result value itself. */
export function postQueryRows(app: Hono<AppEnv>, deps: QueryServiceDeps): void {
  mount(app, endpoints.runQueryRows, async ({ body, c }) => {
    const { result } = await runRequested(deps, c, body, { isKeyed: false });
    return result;
  });
}
