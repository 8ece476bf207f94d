/**
 * Binds a handler to an endpoint of the contract, both ways. The method, path and auth
 * level the server answers are the ones the OpenAPI document publishes; the handler gets
 * `params`, `query` and `body` already parsed by the endpoint's own schemas (a 400 naming
 * the field otherwise), and TypeScript holds its answer to the endpoint's success schema.
 * With `validateResponses` (the tests) the answer is also checked against that schema at
 * run time, so a route cannot drift from its contract unnoticed.
 *
 * A body larger than the endpoint accepts is answered 413 first, from its Content-Length
 * before a byte of it is read (or as soon as a chunked one passes the limit), before the
 * caller is identified.
 */
import { bodyLimitOf, type Endpoint, endpoints, type SuccessSchema, successStatusOf } from "@epicenter/contracts";
import type { Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";
import type { AppEnv } from "./env";
import { badRequest, errorBody, unauthorized, validate } from "./errors";
import { JsonText } from "./json-text";

type Parsed<S> = S extends z.ZodType ? z.infer<S> : Record<string, never>;

/** What a handler receives: the request's parts parsed by the endpoint's schemas, and the context. */
export interface EndpointInput<E extends Endpoint> {
  params: Parsed<E["params"]>;
  query: Parsed<E["query"]>;
  body: Parsed<E["body"]>;
  c: Context<AppEnv>;
}

/** The body its success answer carries: what the success schema accepts, or nothing for a 204. */
export type SuccessBody<E extends Endpoint> = SuccessSchema<E> extends z.ZodType ? z.input<SuccessSchema<E>> : null;

/**
 * A handler answers its success body, the same already written as JSON (`JsonText`: a
 * query result handed on as the engine wrote it), or a `Response` of its own (a stream, a file).
 */
export type Handler<E extends Endpoint> = (input: EndpointInput<E>) => Promise<SuccessBody<E> | JsonText | Response>;

export interface MountOptions {
  /** Check every answer against its success schema (tests); off in production. */
  validateResponses: boolean;
}

const options = new WeakMap<Hono<AppEnv>, MountOptions>();
const mounted = new WeakMap<Hono<AppEnv>, Map<string, Endpoint>>();

/** The endpoints mounted on `app`, by `METHOD path`: what the test of the route table reads. */
export function mountedEndpoints(app: Hono<AppEnv>): ReadonlyMap<string, Endpoint> {
  return mounted.get(app) ?? new Map();
}

/** Sets how `mount` behaves for the routes of `app` (called once by `createApp`). */
export function configureMount(app: Hono<AppEnv>, mountOptions: MountOptions): void {
  options.set(app, mountOptions);
}

/** `/api/table/{namespace}/{table}` → `/api/table/:namespace/:table` */
export function honoPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ":$1");
}

/** A handler for every endpoint of the contract, by its name in `endpoints`. */
export type HandlerMap = { [Name in keyof typeof endpoints]: Handler<(typeof endpoints)[Name]> };

/**
 * An area's handlers (`routes/<area>/index.ts`): one for each endpoint it names, which the
 * type holds it to; the app joins every area's into one `HandlerMap`.
 */
export type AreaHandlers<Names extends keyof typeof endpoints> = Pick<HandlerMap, Names>;

/**
 * Mounts every endpoint of the contract with its handler, in the map's order (a static
 * path before the parameterised one it would match: `/api/queries/stats` before
 * `/api/queries/{id}`).
 */
export function mountAll(app: Hono<AppEnv>, handlers: HandlerMap): void {
  for (const name of Object.keys(handlers) as Array<keyof typeof endpoints>) {
    // Each handler is typed to its own endpoint in the map; the loop sees them all as one.
    mount(app, endpoints[name] as Endpoint, handlers[name] as unknown as Handler<Endpoint>);
  }
}

export function mount<const E extends Endpoint>(app: Hono<AppEnv>, endpoint: E, handler: Handler<E>): void {
  const key = `${endpoint.method.toUpperCase()} ${endpoint.path}`;
  const table = mounted.get(app) ?? new Map<string, Endpoint>();
  mounted.set(app, table);
  // A second handler for one endpoint would never be reached: a mistake to stop at boot.
  if (table.has(key)) throw new Error(`${key} is mounted twice`);
  table.set(key, endpoint);
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
  const status = successStatusOf(endpoint);
  const schema = endpoint.responses[status]?.schema;
  app.on(endpoint.method.toUpperCase(), honoPath(endpoint.path), limit, async (c) => {
    if (endpoint.auth !== "public") {
      const authorize = c.get("authorize");
      if (!authorize) throw unauthorized();
      await authorize(c, endpoint.auth, endpoint.unauthenticatedMessage);
    }
    const input = {
      params: endpoint.params ? validate(endpoint.params, c.req.param(), "path") : {},
      query: endpoint.query ? validate(endpoint.query, c.req.query(), "query") : {},
      body: endpoint.body ? validate(endpoint.body, await readJsonBody(c), "body") : {},
      c,
    } as EndpointInput<E>;
    const answer = await handler(input);
    if (answer instanceof Response) return answer;
    if (status === 204) return c.body(null, 204);
    if (schema && options.get(app)?.validateResponses) {
      const checked = schema.safeParse(answer instanceof JsonText ? JSON.parse(answer.bytes.toString("utf8")) : answer);
      if (!checked.success) {
        throw new Error(
          `${endpoint.method.toUpperCase()} ${endpoint.path} answered outside its contract: ${checked.error.message}`,
        );
      }
    }
    if (answer instanceof JsonText) {
      const bytes = new Uint8Array(answer.bytes.buffer as ArrayBuffer, answer.bytes.byteOffset, answer.bytes.length);
      return c.body(bytes, status as ContentfulStatusCode, { "content-type": "application/json" });
    }
    return c.json(answer as unknown as object, status as ContentfulStatusCode);
  });
}

/** An empty body reads as `{}`, so an endpoint whose body fields are all optional can be called without one. */
async function readJsonBody(c: Context<AppEnv>): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest("The request body must be JSON.");
  }
}

function sizeOf(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MiB` : `${bytes / 1024} KiB`;
}
