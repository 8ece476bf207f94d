import { z } from "zod";

/** Every error the API answers has this one shape, whatever the status. */
export const ZApiErrorCode = z.enum([
  "bad_request",
  "invalid_sql",
  "query_timeout",
  "query_cancelled",
  "query_too_large",
  "unauthorized",
  "forbidden",
  "not_found",
  "conflict",
  "payload_too_large",
  "rate_limited",
  "unavailable",
  "internal",
]);
export type ApiErrorCode = z.infer<typeof ZApiErrorCode>;

export const ZApiError = z
  .object({
    error: z.object({
      code: ZApiErrorCode,
      message: z.string().describe("A sentence a person can act on."),
      details: z.unknown().optional(),
    }),
  })
  .meta({ id: "ApiError" });
export type ApiError = z.infer<typeof ZApiError>;

/** `details.reason` of a 403 for a signed-in user who is no longer on the allow-list. */
export const NOT_ALLOW_LISTED = "not_allow_listed";

/** An error response of an endpoint, in the one error shape. */
export const errorResponse = (description: string) => ({ description, schema: ZApiError });
export const NO_CONTENT = { description: "Done" };
export const UNAUTHORIZED = errorResponse("No valid session or API key");
export const FORBIDDEN = errorResponse("Signed in but not allowed");
