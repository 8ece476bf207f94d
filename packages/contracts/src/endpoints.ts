import { z } from "zod";
import { defineEndpoint } from "./endpoint";
import { ZApiError } from "./errors";
import { ZHealthResponse } from "./health";

const error = (description: string) => ({ description, schema: ZApiError });

/** Every endpoint of the API, by name. Each area adds its own here. */
export const endpoints = {
  health: defineEndpoint({
    method: "get",
    path: "/health",
    summary: "Health of both stores",
    description: "No authentication. 200 when the warehouse and the app database both answer, else 503.",
    tag: "System",
    auth: "public",
    responses: {
      200: { description: "Both stores answer", schema: ZHealthResponse },
      503: { description: "A store does not answer", schema: ZHealthResponse },
    },
  }),
  openapi: defineEndpoint({
    method: "get",
    path: "/api/openapi.json",
    summary: "This OpenAPI document",
    tag: "System",
    auth: "public",
    responses: { 200: { description: "OpenAPI 3.1 document", schema: z.record(z.string(), z.unknown()) } },
  }),
} as const;

export const commonErrors = {
  400: error("The request is malformed; the message says which field and why"),
  401: error("No valid session or API key"),
  403: error("Signed in but not allowed"),
  404: error("No such resource"),
};
