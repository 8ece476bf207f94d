/**
 * One error shape for the whole API (`{"error": {"code", "message"}}`) and the helpers
 * that read a request against its contract. A handler throws an `HttpError`; the app's
 * error handler turns it, or anything unexpected, into that shape with a fitting status.
 */
import type { ApiError, ApiErrorCode } from "@epicenter/contracts";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";

export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ApiErrorCode,
    message: string,
    readonly details?: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, details?: unknown) => new HttpError(400, "bad_request", message, details);
export const unauthorized = (message = "Sign in, or send an API key, to use this endpoint.") =>
  new HttpError(401, "unauthorized", message);
export const forbidden = (message = "You are not allowed to do that.") => new HttpError(403, "forbidden", message);
export const notFound = (message = "Not found.") => new HttpError(404, "not_found", message);

export function errorBody(code: ApiErrorCode, message: string, details?: unknown): ApiError {
  return { error: { code, message, ...(details === undefined ? {} : { details }) } };
}

/** Parses a request part against its schema, or throws a 400 that says which field is wrong. */
export function validate<S extends z.ZodType>(schema: S, value: unknown, where: string): z.infer<S> {
  const withNul = nulPath(value, []);
  if (withNul) {
    const field = withNul.length > 0 ? withNul.join(".") : where;
    throw badRequest(`Invalid ${where}. ${field}: must not contain a NUL character (\\u0000).`);
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join(".") : where;
    return `${field}: ${issue.message}`;
  });
  throw badRequest(`Invalid ${where}. ${problems.join("; ")}`, { issues: parsed.error.issues });
}

/**
 * Where a NUL character hides in a decoded request, if anywhere. PostgreSQL text cannot
 * hold one, so a NUL that got in would fail the write (a 500) or drop a query run from the
 * audit log; it is refused at the door instead, in every text input alike.
 */
function nulPath(value: unknown, path: Array<string | number>): Array<string | number> | undefined {
  if (typeof value === "string") return value.includes("\0") ? path : undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = nulPath(value[index], [...path, index]);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const found = key.includes("\0") ? [...path, key] : nulPath(item, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}
