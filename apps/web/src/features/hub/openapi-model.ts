/**
 * The hub's API reference, generated from the server's own OpenAPI document
 * (`/api/openapi.json`, itself generated from the contracts), so the page cannot drift
 * from what the server answers: method, path, summary, auth, parameters and response
 * shapes all come from the document. Only the request examples are ours, because a
 * schema cannot say which SQL makes a good first query.
 */
import { API_EXAMPLE_SQL, type Endpoint, endpoints } from "@epicenter/contracts";

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  description?: string;
  default?: unknown;
  additionalProperties?: JsonSchema | boolean;
  minimum?: number;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
};

/**
 * zod writes a schema with an id as `{ $ref: "#/$defs/Name", $defs: {…} }`; the reference
 * reads plain nested schemas, so local references are replaced by what they point to.
 */
export function inlineRefs(
  schema: JsonSchema | undefined,
  defs?: Record<string, JsonSchema>,
  depth = 0,
): JsonSchema | undefined {
  if (!schema || depth > 12) return schema;
  const scope = { ...defs, ...schema.$defs };
  const target = schema.$ref?.startsWith("#/$defs/") ? scope[schema.$ref.slice("#/$defs/".length)] : undefined;
  const { $ref: _ref, $defs: _defs, ...rest } = schema;
  const base: JsonSchema = target ? { ...inlineRefs(target, scope, depth + 1), ...rest } : rest;
  const inline = (child: JsonSchema | undefined) => inlineRefs(child, scope, depth + 1);
  return {
    ...base,
    ...(base.properties
      ? {
          properties: Object.fromEntries(
            Object.entries(base.properties).map(([name, child]) => [name, inline(child) ?? {}]),
          ),
        }
      : {}),
    ...(base.items ? { items: inline(base.items) } : {}),
    ...(base.anyOf ? { anyOf: base.anyOf.map((child) => inline(child) ?? {}) } : {}),
    ...(base.oneOf ? { oneOf: base.oneOf.map((child) => inline(child) ?? {}) } : {}),
    ...(base.additionalProperties && typeof base.additionalProperties === "object"
      ? { additionalProperties: inline(base.additionalProperties) ?? {} }
      : {}),
  };
}

export interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Array<Record<string, unknown>>;
  parameters?: Array<{ name: string; in: string; required?: boolean; description?: string; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: JsonSchema }> }>;
}

export interface OpenApiDocumentLike {
  paths: Record<string, Record<string, unknown>>;
}

export interface EndpointParameter {
  name: string;
  where: "path" | "query" | "body";
  type: string;
  isRequired: boolean;
  description: string;
}

export interface EndpointReference {
  method: string;
  path: string;
  summary: string;
  description: string;
  auth: "none" | "session or API key" | "session";
  parameters: EndpointParameter[];
  responses: Array<{ status: string; description: string }>;
  responseExample: unknown;
  curl: string;
}

/** The seven endpoints of the hub's API page (SPEC §2 hub api, §9 "7 endpoints listed"). */
export const PUBLIC_API_ENDPOINTS: ReadonlyArray<{
  endpoint: Endpoint;
  /** Filled into the path and query for the curl example. */
  example?: { path?: Record<string, string>; query?: Record<string, string>; body?: unknown };
}> = [
  {
    endpoint: endpoints.runQuery,
    example: {
      body: {
        query: API_EXAMPLE_SQL,
        limit: 100,
      },
    },
  },
  { endpoint: endpoints.listTables, example: { query: { with_stats: "true" } } },
  { endpoint: endpoints.getTable, example: { path: { namespace: "kalshi", table: "markets" } } },
  {
    endpoint: endpoints.sampleTable,
    example: { path: { namespace: "polymarket", table: "markets" }, query: { limit: "5" } },
  },
  { endpoint: endpoints.queryStats },
  { endpoint: endpoints.syncStatus },
  { endpoint: endpoints.health },
];

export const API_KEY_VARIABLE = "EPICENTER_API_KEY";

export function operationOf(document: OpenApiDocumentLike, method: string, path: string): OpenApiOperation | null {
  const operation = document.paths[path]?.[method];
  return operation && typeof operation === "object" ? (operation as OpenApiOperation) : null;
}

export function buildReferences(document: OpenApiDocumentLike, origin: string): EndpointReference[] {
  return PUBLIC_API_ENDPOINTS.flatMap(({ endpoint, example }) => {
    const operation = operationOf(document, endpoint.method, endpoint.path);
    if (!operation) return [];
    return [referenceOf(endpoint.method, endpoint.path, operation, origin, example)];
  });
}

export function referenceOf(
  method: string,
  path: string,
  operation: OpenApiOperation,
  origin: string,
  example: { path?: Record<string, string>; query?: Record<string, string>; body?: unknown } = {},
): EndpointReference {
  const success = Object.entries(operation.responses ?? {}).find(([status]) => status.startsWith("2"));
  const successSchema = inlineRefs(success?.[1].content?.["application/json"]?.schema);
  return {
    method: method.toUpperCase(),
    path,
    summary: operation.summary ?? "",
    description: operation.description ?? "",
    auth: authOf(operation),
    parameters: parametersOf(operation),
    responses: Object.entries(operation.responses ?? {}).map(([status, response]) => ({
      status,
      description: response.description ?? "",
    })),
    responseExample: successSchema ? exampleOf(successSchema) : null,
    curl: curlOf(method, path, operation, origin, example),
  };
}

function authOf(operation: OpenApiOperation): EndpointReference["auth"] {
  const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
  if (schemes.length === 0) return "none";
  return schemes.includes("apiKey") ? "session or API key" : "session";
}

export function typeOf(schema: JsonSchema | undefined): string {
  if (!schema) return "any";
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map(typeOf).join(" | ");
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type ?? "any");
  if (type === "array") return `${typeOf(schema.items)}[]`;
  if (type === "string" && schema.format) return `string (${schema.format})`;
  return type;
}

function parametersOf(operation: OpenApiOperation): EndpointParameter[] {
  const listed: EndpointParameter[] = (operation.parameters ?? []).map((parameter) => ({
    name: parameter.name,
    where: parameter.in === "path" ? "path" : "query",
    type: typeOf(inlineRefs(parameter.schema)),
    isRequired: Boolean(parameter.required),
    description: parameter.description ?? parameter.schema?.description ?? "",
  }));
  const body = inlineRefs(operation.requestBody?.content?.["application/json"]?.schema);
  const required = new Set(body?.required ?? []);
  const fields = Object.entries(body?.properties ?? {}).map(([name, schema]) => ({
    name,
    where: "body" as const,
    type: typeOf(schema),
    isRequired: required.has(name),
    description: schema.description ?? "",
  }));
  return [...listed, ...fields];
}

/** A plausible value of a schema: the shape a caller will see, with sample values. */
export function exampleOf(schema: JsonSchema, depth = 0): unknown {
  if (depth > 8) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) {
    const first = variants.find((variant) => variant.type !== "null") ?? variants[0];
    return first ? exampleOf(first, depth + 1) : null;
  }
  const type = Array.isArray(schema.type) ? schema.type.find((candidate) => candidate !== "null") : schema.type;
  switch (type) {
    case "object": {
      if (schema.properties) {
        return Object.fromEntries(
          Object.entries(schema.properties).map(([name, property]) => [name, exampleOf(property, depth + 1)]),
        );
      }
      if (schema.additionalProperties && typeof schema.additionalProperties === "object") {
        return { key: exampleOf(schema.additionalProperties, depth + 1) };
      }
      return {};
    }
    case "array":
      return schema.items ? [exampleOf(schema.items, depth + 1)] : [];
    case "string":
      if (schema.format === "date-time") return "2025-10-06T16:20:00.000Z";
      if (schema.format === "uuid") return "3f2b8c1e-8f4a-4c1d-9b7e-2a6d5c4b3a21";
      return "string";
    case "integer":
      return schema.minimum !== undefined && schema.minimum > 0 ? schema.minimum : 0;
    case "number":
      return 0;
    case "boolean":
      return true;
    default:
      return null;
  }
}

/** A curl command for the user's own host, with the key read from an environment variable. */
export function curlOf(
  method: string,
  path: string,
  operation: OpenApiOperation,
  origin: string,
  example: { path?: Record<string, string>; query?: Record<string, string>; body?: unknown } = {},
): string {
  let url = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(example.path?.[name] ?? `<${name}>`));
  const query = new URLSearchParams(example.query ?? {}).toString();
  if (query) url += `?${query}`;
  const lines = [`curl${method === "get" ? "" : ` -X ${method.toUpperCase()}`} "${origin}${url}"`];
  if (authOf(operation) !== "none") lines.push(`-H "Authorization: Bearer $${API_KEY_VARIABLE}"`);
  if (example.body !== undefined) {
    lines.push(`-H "Content-Type: application/json"`);
    lines.push(`-d '${JSON.stringify(example.body).replace(/'/g, "'\\''")}'`);
  }
  return lines.join(" \\\n  ");
}
