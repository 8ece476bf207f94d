/**
 * Binds a handler to an endpoint of the contract, so the method and path the server
 * answers are the ones the OpenAPI document publishes.
 */
import type { Endpoint } from "@epicenter/contracts";
import type { Context, Hono } from "hono";
import type { AppEnv } from "./env";
import { unauthorized } from "./errors";

export type Handler = (c: Context<AppEnv>) => Response | Promise<Response>;

/** `/api/table/{namespace}/{table}` → `/api/table/:namespace/:table` */
export function honoPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ":$1");
}

export function mount(app: Hono<AppEnv>, endpoint: Endpoint, handler: Handler): void {
  app.on(endpoint.method.toUpperCase(), honoPath(endpoint.path), async (c) => {
    if (endpoint.auth !== "public") {
      const authorize = c.get("authorize");
      if (!authorize) throw unauthorized();
      await authorize(c, endpoint.auth, endpoint.unauthenticatedMessage);
    }
    return handler(c);
  });
}
