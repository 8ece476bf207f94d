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

/** The endpoint's success status: 200, else 201, else 204. */
export type SuccessStatus<E extends Endpoint> = 200 extends keyof E["responses"]
  ? 200
  : 201 extends keyof E["responses"]
    ? 201
    : 204;

/** The schema of the endpoint's success answer, or `undefined` for a 204. */
export type SuccessSchema<E extends Endpoint> = E["responses"][SuccessStatus<E>] extends { schema: infer S }
  ? S extends z.ZodType
    ? S
    : undefined
  : undefined;

/** The first success status an endpoint declares, at run time (see `SuccessStatus`). */
export function successStatusOf(endpoint: Endpoint): 200 | 201 | 204 {
  if (endpoint.responses[200]) return 200;
  if (endpoint.responses[201]) return 201;
  return 204;
}

/** True when every field of T may be left out. */
export type IsAllOptional<T> = Partial<T> extends T ? true : false;

type Part<K extends string, S> = S extends z.ZodType
  ? // A part whose every field is optional may be left out.
    IsAllOptional<z.input<S>> extends true
    ? { [P in K]?: z.input<S> }
    : { [P in K]: z.input<S> }
  : { [P in K]?: never };

/** What a caller sends: each part the endpoint declares, as its schema accepts it. */
export type EndpointRequest<E extends Endpoint> = Part<"params", E["params"]> &
  Part<"query", E["query"]> &
  Part<"body", E["body"]>;

/** What a caller receives on success: the success schema's output, or null for a 204. */
export type EndpointAnswer<E extends Endpoint> = SuccessSchema<E> extends z.ZodType ? z.output<SuccessSchema<E>> : null;

/** `/api/table/{namespace}/{table}` with `{ namespace: "kalshi", table: "markets" }`, each value URL-encoded. */
export function pathOf(endpoint: Endpoint, params: Record<string, unknown> = {}): string {
  return endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null) throw new Error(`${endpoint.path}: no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
}
