/** The services' errors as the API answers them: one status and code per kind. */
import type { ApiErrorCode } from "@epicenter/contracts";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ServiceError, type ServiceErrorKind } from "../services/errors";
import { HttpError } from "./errors";

const ANSWERS: Record<ServiceErrorKind, [ContentfulStatusCode, ApiErrorCode]> = {
  not_found: [404, "not_found"],
  invalid: [400, "bad_request"],
  conflict: [409, "conflict"],
};

/** A service's error as an `HttpError`; anything else as it was. */
export function serviceHttpError(error: unknown): unknown {
  if (!(error instanceof ServiceError)) return error;
  const [status, code] = ANSWERS[error.kind];
  return new HttpError(status, code, error.message);
}
