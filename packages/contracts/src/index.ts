export * from "./admin";
export * from "./assistant";
export * from "./auth";
export * from "./catalog";
export * from "./crossvenue";
export * from "./dashboards";
export {
  bodyLimitOf,
  DEFAULT_BODY_BYTES,
  defineEndpoint,
  type Endpoint,
  type EndpointAnswer,
  type EndpointAuth,
  type EndpointRequest,
  type EndpointResponse,
  type HttpMethod,
  type IsAllOptional,
  pathOf,
  QUERY_BODY_BYTES,
  type SuccessSchema,
  type SuccessStatus,
  successStatusOf,
} from "./endpoint";
export { endpoints } from "./endpoints";
export { type ApiError, type ApiErrorCode, NOT_ALLOW_LISTED, ZApiError, ZApiErrorCode } from "./errors";
export * from "./export";
export { type HealthResponse, ZHealthResponse } from "./health";
export * from "./keys";
export * from "./markets";
export { buildOpenApiDocument, type OpenApiOptions } from "./openapi";
export * from "./query";
export * from "./query-advice";
export * from "./query-node";
export * from "./query-params";
export * from "./sample-sql";
export * from "./saved-queries";
export * from "./sql-dialect";
export * from "./sync";
export * from "./venues";
