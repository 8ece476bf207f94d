/**
 * Binds a handler to an endpoint of the contract, so the method and path the server
 * answers are the ones the OpenAPI document publishes. A body larger than the endpoint
 * accepts is answered 413 first, from its Content-Length before a byte of it is read (or
 * as soon as a chunked one passes the limit), before the caller is identified.
 */
import { bodyLimitOf, type Endpoint } from "@epicenter/contracts";
import type { Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "./env";
import { errorBody, unauthorized } from "./errors";

export type Handler = (c: Context<AppEnv>) => Response | Promise<Response>;

/** `/api/table/{namespace}/{table}` → `/api/table/:namespace/:table` */
export function honoPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ":$1");
}

export function mount(app: Hono<AppEnv>, endpoint: Endpoint, handler: Handler): void {
  const maxSize = bodyLimitOf(endpoint);
  const limit = bodyLimit({
    maxSize,
    onError: (c) =>
      c.json(
        errorBody("payload_too_large", `The request body is larger than this endpoint accepts (${sizeOf(maxSize)}).`),
        413,
        // The rest of an oversized body is not read: the connection cannot carry another request.
        { connection: "close" },
      ),
  });
  app.on(endpoint.method.toUpperCase(), honoPath(endpoint.path), limit, async (c) => {
    if (endpoint.auth !== "public") {
      const authorize = c.get("authorize");
      if (!authorize) throw unauthorized();
      await authorize(c, endpoint.auth, endpoint.unauthenticatedMessage);
    }
    return handler(c);
  });
}

function sizeOf(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MiB` : `${bytes / 1024} KiB`;
}
