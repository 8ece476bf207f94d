/**
 * The SPA's one way to call the API: same origin, JSON, the bearer token of the session
 * when there is one (refreshed once on a 401), and errors turned into `ApiRequestError`
 * carrying the server's message.
 */
import { type ApiErrorCode, NOT_ALLOW_LISTED, ZApiError } from "@epicenter/contracts";
import type { z } from "zod";
import { refreshSession, sessionStore } from "./session-store";

export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode | "network",
    message: string,
    readonly details?: unknown,
    /** The sentence the server sent, when it sent one (an error of ours, or a `detail`). */
    readonly serverMessage?: string,
  ) {
    super(message);
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

export interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  signal?: AbortSignal;
}

export async function apiRequest<S extends z.ZodType>(
  path: string,
  schema: S,
  options: RequestOptions = {},
): Promise<z.infer<S>> {
  const payload = await apiCall(path, options);
  return schema.parse(payload);
}

/** A call whose answer has no body worth reading (204). */
export async function apiCall(path: string, options: RequestOptions = {}): Promise<unknown> {
  let response = await send(path, options);
  if (response.status === 401 && sessionStore.get() && (await refreshSession())) {
    response = await send(path, options);
  }
  if (response.status === 204) return null;
  const payload: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const parsed = ZApiError.safeParse(payload);
    if (parsed.success) {
      const { code, message, details } = parsed.data.error;
      // Taken off the allow-list while signed in: every guarded page shows Access Denied at once.
      const user = sessionStore.get()?.user;
      if (
        response.status === 403 &&
        user &&
        (details as { reason?: unknown } | undefined)?.reason === NOT_ALLOW_LISTED
      ) {
        sessionStore.setUser({ ...user, is_allowed: false });
      }
      throw new ApiRequestError(response.status, code, message, details, message);
    }
    // A proxy or a framework in front may answer `{"detail": "…"}`: that is still its message.
    const detail = (payload as { detail?: unknown } | null)?.detail;
    const message = typeof detail === "string" && detail.trim() !== "" ? detail : undefined;
    throw new ApiRequestError(
      response.status,
      "internal",
      message ?? `The server answered ${response.status}.`,
      undefined,
      message,
    );
  }
  return payload;
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { accept: "application/json" };
  const token = sessionStore.get()?.accessToken;
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  try {
    return await fetch(path, {
      method: options.method ?? "GET",
      headers,
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new ApiRequestError(0, "network", "The server could not be reached. Check your connection.");
  }
}
