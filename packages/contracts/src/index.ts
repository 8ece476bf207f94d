export * from "./admin";
export * from "./auth";
export { defineEndpoint, type Endpoint, type EndpointAuth, type EndpointResponse, type HttpMethod } from "./endpoint";
export { endpoints } from "./endpoints";
export { type ApiError, type ApiErrorCode, ZApiError, ZApiErrorCode } from "./errors";
export { type HealthResponse, ZHealthResponse } from "./health";
export * from "./keys";
export { buildOpenApiDocument, type OpenApiOptions } from "./openapi";
export * from "./sync";
