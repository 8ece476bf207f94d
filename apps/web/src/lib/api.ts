/**
 * The SPA's one way to call the API: `call(endpoints.x, input)` builds the request from
 * the endpoint's own contract (method, path with its parameters, query, JSON body), sends
 * the session's bearer token (refreshed once on a 401), and parses the answer with the
 * endpoint's success schema, so the types and the checks on both ends come from one place.
 * `open` hands back the response itself for what is not one JSON document (a download)
 * and `callEvents` reads an event stream. A failure is an `ApiRequestError` carrying the
 * server's message.
 */
import {
  type ApiErrorCode,
  type Endpoint,
  type EndpointAnswer,
  type EndpointRequest,
  type IsAllOptional,
  NOT_ALLOW_LISTED,
  pathOf,
  successStatusOf,
  ZApiError,
} from "@epicenter/contracts";
import { EventSourceParserStream } from "eventsource-parser/stream";
import { refreshSession, sessionStore } from "./session-store";

export class ApiRequestError extends Error {
  readonly details: unknown;
  /** The sentence the server sent, when it sent one (an error of ours, or a `detail`). */
  readonly serverMessage: string | undefined;
  /** The answer's JSON body, whatever its shape (a 503 health document, say). */
  readonly body: unknown;

  constructor(
    readonly status: number,
    readonly code: ApiErrorCode | "network",
    message: string,
    extra: { details?: unknown; serverMessage?: string | undefined; body?: unknown } = {},
  ) {
    super(message);
    this.details = extra.details;
    this.serverMessage = extra.serverMessage;
    this.body = extra.body;
  }
}

/**
 * The server's own message for a failed call, or `fallback` (the product's text for that
 * failure) when it gave none: never a bare status code.
 */
export function failureMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiRequestError && error.serverMessage) return error.serverMessage;
  if (error instanceof ApiRequestError && error.code === "network") return error.message;
  return fallback;
}

export interface CallOptions {
  signal?: AbortSignal | undefined;
  cache?: RequestCache;
  /** Send this token instead of the session's, and do not refresh (signing out a session already forgotten). */
  bearer?: string;
  /** Send no token and do not refresh (the refresh itself). */
  isAnonymous?: boolean;
}

/** The input may be left out when the endpoint needs none. */
type CallArgs<E extends Endpoint> =
  IsAllOptional<EndpointRequest<E>> extends true
    ? [input?: EndpointRequest<E>, options?: CallOptions]
    : [input: EndpointRequest<E>, options?: CallOptions];

/** Calls an endpoint and answers its success body, parsed by the endpoint's own schema (null for a 204). */
export async function call<const E extends Endpoint>(endpoint: E, ...args: CallArgs<E>): Promise<EndpointAnswer<E>> {
  const response = await open(endpoint, ...args);
  const schema = endpoint.responses[successStatusOf(endpoint)]?.schema;
  if (response.status === 204 || !schema) return null as EndpointAnswer<E>;
  return schema.parse(await response.json()) as EndpointAnswer<E>;
}

/**
 * Calls an endpoint that answers server-sent events and hands each event to `onEvent`,
 * checked by the endpoint's success schema (an event that does not match is skipped);
 * resolves when the stream ends.
 */
export async function callEvents<const E extends Endpoint>(
  endpoint: E,
  input: EndpointRequest<E>,
  onEvent: (event: EndpointAnswer<E>) => void,
  options: CallOptions = {},
): Promise<void> {
  const response = await open(endpoint, input, options);
  const schema = endpoint.responses[successStatusOf(endpoint)]?.schema;
  if (!response.body || !schema) throw new ApiRequestError(response.status, "internal", "The server sent no stream.");
  const events = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  for await (const message of events) {
    let data: unknown;
    try {
      data = JSON.parse(message.data);
    } catch {
      continue;
    }
    const parsed = schema.safeParse(data);
    if (parsed.success) onEvent(parsed.data as EndpointAnswer<E>);
  }
}

/** Calls an endpoint and answers the successful response itself, for a body that is not one JSON document. */
export async function open<const E extends Endpoint>(
  endpoint: E,
  ...[input, options = {}]: CallArgs<E>
): Promise<Response> {
  const request = requestOf(endpoint, input ?? {});
  const isRefreshable = !options.bearer && !options.isAnonymous;
  let response = await send(request, options);
  if (response.status === 401 && isRefreshable && sessionStore.get() && (await refreshSession())) {
    response = await send(request, options);
  }
  if (!response.ok) throw await failureOf(response);
  return response;
}

interface PreparedRequest {
  method: string;
  url: string;
  body: string | undefined;
}

function requestOf(endpoint: Endpoint, input: { params?: unknown; query?: unknown; body?: unknown }): PreparedRequest {
  let url = pathOf(endpoint, (input.params ?? {}) as Record<string, unknown>);
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries((input.query ?? {}) as Record<string, unknown>)) {
    if (value !== undefined && value !== null) query.set(name, String(value));
  }
  if (query.size > 0) url += `?${query.toString()}`;
  return {
    method: endpoint.method.toUpperCase(),
    url,
    body: input.body === undefined ? undefined : JSON.stringify(input.body),
  };
}

async function send(request: PreparedRequest, options: CallOptions): Promise<Response> {
  const headers: Record<string, string> = { accept: "application/json, text/event-stream;q=0.9, */*;q=0.8" };
  const token = options.isAnonymous ? undefined : (options.bearer ?? sessionStore.get()?.accessToken);
  if (token) headers.authorization = `Bearer ${token}`;
  if (request.body !== undefined) headers["content-type"] = "application/json";
  try {
    return await fetch(request.url, {
      method: request.method,
      headers,
      ...(request.body !== undefined ? { body: request.body } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.cache ? { cache: options.cache } : {}),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new ApiRequestError(0, "network", "The server could not be reached. Check your connection.");
  }
}

async function failureOf(response: Response): Promise<ApiRequestError> {
  const payload: unknown = await response.json().catch(() => null);
  const parsed = ZApiError.safeParse(payload);
  if (parsed.success) {
    const { code, message, details } = parsed.data.error;
    // Taken off the allow-list while signed in: every guarded page shows Access Denied at once.
    const user = sessionStore.get()?.user;
    if (response.status === 403 && user && (details as { reason?: unknown } | undefined)?.reason === NOT_ALLOW_LISTED) {
      sessionStore.setUser({ ...user, is_allowed: false });
    }
    return new ApiRequestError(response.status, code, message, { details, serverMessage: message, body: payload });
  }
  // A proxy or a framework in front may answer `{"detail": "…"}`: that is still its message.
  const detail = (payload as { detail?: unknown } | null)?.detail;
  const message = typeof detail === "string" && detail.trim() !== "" ? detail : undefined;
  return new ApiRequestError(response.status, "internal", message ?? `The server answered ${response.status}.`, {
    serverMessage: message,
    body: payload,
  });
}

/**
 * The API reference's "Try it": an operation as the reader filled it in, sent as it is
 * with the session's token, answered as text whatever its status.
 */
export async function tryOperation(request: {
  method: string;
  url: string;
  body: string | null;
}): Promise<{ status: number; text: string; ms: number }> {
  const token = sessionStore.get()?.accessToken;
  const started = performance.now();
  try {
    const response = await fetch(request.url, {
      method: request.method.toUpperCase(),
      headers: {
        accept: "application/json",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(request.body !== null ? { "content-type": "application/json" } : {}),
      },
      ...(request.body !== null ? { body: request.body } : {}),
    });
    return { status: response.status, text: await response.text(), ms: Math.round(performance.now() - started) };
  } catch (error) {
    return { status: 0, text: String(error), ms: Math.round(performance.now() - started) };
  }
}
