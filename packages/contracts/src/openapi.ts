/**
 * Builds the OpenAPI 3.1 document from the endpoint definitions, with zod's own JSON
 * Schema output (OpenAPI 3.1 schemas are JSON Schema 2020-12).
 */
import { z } from "zod";
import type { Endpoint } from "./endpoint";

export interface OpenApiOptions {
  title: string;
  version: string;
  serverUrl?: string;
}

type JsonSchema = Record<string, unknown>;

export function buildOpenApiDocument(endpoints: Record<string, Endpoint>, options: OpenApiOptions) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, endpoint] of Object.entries(endpoints)) {
    const operation: Record<string, unknown> = {
      operationId: name,
      summary: endpoint.summary,
      ...(endpoint.description ? { description: endpoint.description } : {}),
      tags: [endpoint.tag],
      security: security(endpoint),
      parameters: [...parameters(endpoint.params, "path"), ...parameters(endpoint.query, "query")],
      ...(endpoint.body
        ? {
            requestBody: {
              // The server reads an empty body as `{}`: optional when every field is.
              required: !endpoint.body.safeParse({}).success,
              content: { "application/json": { schema: toSchema(endpoint.body, "input") } },
            },
          }
        : {}),
      responses: Object.fromEntries(
        Object.entries(endpoint.responses).map(([status, response]) => [
          status,
          {
            description: response.description,
            ...(response.schema
              ? {
                  content: {
                    [response.contentType ?? "application/json"]: { schema: toSchema(response.schema, "output") },
                  },
                }
              : {}),
          },
        ]),
      ),
    };
    paths[endpoint.path] = { ...paths[endpoint.path], [endpoint.method]: operation };
  }
  return {
    openapi: "3.1.0",
    info: { title: options.title, version: options.version },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "A session access token or an API key" },
        apiKey: { type: "apiKey", in: "header", name: "X-API-Key" },
      },
    },
    paths,
  };
}

function security(endpoint: Endpoint) {
  switch (endpoint.auth) {
    case "public":
      return [];
    case "session":
    case "admin":
      return [{ bearer: [] }];
    case "session_or_key":
      return [{ bearer: [] }, { apiKey: [] }];
    default: {
      const unknown: never = endpoint.auth;
      throw new Error(`unknown auth ${String(unknown)}`);
    }
  }
}

function parameters(schema: z.ZodObject | undefined, where: "path" | "query") {
  if (!schema) return [];
  const json = toSchema(schema, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === "path" || (json.required ?? []).includes(name),
    ...(typeof property.description === "string" ? { description: property.description } : {}),
    schema: property,
  }));
}

function toSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any", reused: "inline" }) as JsonSchema;
  delete json.$schema;
  return json;
}
