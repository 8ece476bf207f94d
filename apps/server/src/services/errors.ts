/**
 * What a service says when it cannot do what it was asked, in the product's terms rather
 * than HTTP's: the thing is not there, the request cannot be read, or it conflicts with
 * what stands. Services throw these and know nothing of statuses; the app's one error
 * handler (`http/service-errors.ts`) answers each with its status and code, so the CLI,
 * Seismo and MCP can call the same services and read the same errors.
 */
export type ServiceErrorKind = "not_found" | "invalid" | "conflict";

export class ServiceError extends Error {
  constructor(
    readonly kind: ServiceErrorKind,
    message: string,
  ) {
    super(message);
    this.name = "ServiceError";
  }
}

/** Nothing the caller may see goes by that name or id. */
export const notFound = (message: string) => new ServiceError("not_found", message);
/** The request is well formed but asks for what cannot be (a span that ends before it starts). */
export const invalid = (message: string) => new ServiceError("invalid", message);
/** It would contradict what stands; the message says what to change first. */
export const conflict = (message: string) => new ServiceError("conflict", message);
