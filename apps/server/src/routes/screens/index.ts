/** Routes the catalog, dashboards, hub and landing screens need beyond the query service. */
import type { Hono } from "hono";
import type { AppDeps } from "../../app";
import type { AppEnv } from "../../http/env";

export function screenRoutes(_app: Hono<AppEnv>, _deps: AppDeps): void {}
