/**
 * How a failed query reads over HTTP: whatever the user's SQL did wrong is a 400 with the
 * engine's message (and the position when there is one), never a 500; a full queue is a
 * 503 with Retry-After.
 */
import { SandboxError } from "@epicenter/warehouse";
import { QueryServiceBusy } from "../services/queries/admission";
import { UnconfinedSqlRefused } from "../services/queries/run-query";
import { HttpError } from "./errors";

export function queryHttpError(error: unknown): unknown {
  if (error instanceof QueryServiceBusy) {
    return new HttpError(503, "unavailable", error.message, undefined, {
      "retry-after": String(error.retryAfterSeconds),
    });
  }
  if (error instanceof UnconfinedSqlRefused) return new HttpError(503, "unavailable", error.message);
  if (!(error instanceof SandboxError)) return error;
  switch (error.kind) {
    case "timeout":
      return new HttpError(400, "query_timeout", error.message, error.details);
    case "cancelled":
      return new HttpError(400, "query_cancelled", error.message, error.details);
    case "memory":
    case "too_large":
      return new HttpError(400, "query_too_large", error.message, error.details);
    case "refused":
    case "syntax":
    case "engine":
      return new HttpError(400, "invalid_sql", error.message, error.details);
    default: {
      const unknown: never = error.kind;
      return new HttpError(400, "invalid_sql", `${error.message} (${String(unknown)})`);
    }
  }
}
