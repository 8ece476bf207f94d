import type { z } from "zod";

/**
 * A REST endpoint described as data: the server validates with these schemas and the
 * OpenAPI document (and so the hub's API reference) is generated from them, so the three
 * cannot drift apart.
 */
export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

/** Who may call: nobody signed in, a signed-in user, a user or one of their API keys, an admin. */
export type EndpointAuth = "public" | "session" | "session_or_key" | "admin";

export interface EndpointResponse {
  description: string;
  schema?: z.ZodType;
  /** Media type when not JSON (for example `text/event-stream`). */
  contentType?: string;
}

export interface Endpoint {
  method: HttpMethod;
  /** OpenAPI-style path with `{param}` placeholders. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  auth: EndpointAuth;
  /** The 401 message when no one is signed in, where the product words it its own way. */
  unauthenticatedMessage?: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  responses: Record<number, EndpointResponse>;
}

export function defineEndpoint<const E extends Endpoint>(endpoint: E): E {
  return endpoint;
}
