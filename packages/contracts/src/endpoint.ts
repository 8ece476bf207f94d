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
  /**
   * Largest request body accepted, in bytes; a larger one is answered 413 before it is
   * read, before the caller is even identified. Defaults: `DEFAULT_BODY_BYTES` with a
   * body, `NO_BODY_BYTES` without.
   */
  maxBodyBytes?: number;
  responses: Record<number, EndpointResponse>;
}

export const DEFAULT_BODY_BYTES = 16 * 1024;
export const NO_BODY_BYTES = 1024;
/** A query's text (100,000 characters, up to 4 bytes each as UTF-8) and the fields around it. */
export const QUERY_BODY_BYTES = 512 * 1024;

export function bodyLimitOf(endpoint: Endpoint): number {
  return endpoint.maxBodyBytes ?? (endpoint.body ? DEFAULT_BODY_BYTES : NO_BODY_BYTES);
}

export function defineEndpoint<const E extends Endpoint>(endpoint: E): E {
  return endpoint;
}
