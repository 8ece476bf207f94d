/**
 * The SPA's one way to call the API: same origin, JSON, the bearer token of the session
 * when there is one, and errors turned into `ApiRequestError` with the server's message.
 */
import { type ApiErrorCode, ZApiError } from "@epicenter/contracts";
import type { z } from "zod";

export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode | "network",
    message: string,
  ) {
    super(message);
  }
}

let accessTokenProvider: () => string | null = () => null;

/** The session layer tells the client where the current access token comes from. */
export function setAccessTokenProvider(provider: () => string | null): void {
  accessTokenProvider = provider;
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
  const headers: Record<string, string> = { accept: "application/json" };
  const token = accessTokenProvider();
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers["content-type"] = "application/json";

  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? "GET",
      headers,
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new ApiRequestError(0, "network", "The server could not be reached. Check your connection.");
  }

  const payload: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const parsed = ZApiError.safeParse(payload);
    if (parsed.success) throw new ApiRequestError(response.status, parsed.data.error.code, parsed.data.error.message);
    throw new ApiRequestError(response.status, "internal", `The server answered ${response.status}.`);
  }
  return schema.parse(payload);
}
