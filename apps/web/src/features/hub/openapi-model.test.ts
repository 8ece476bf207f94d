import { endpoints } from "@epicenter/contracts";
import { describe, expect, it } from "vitest";
import { buildReferences, exampleOf, inlineRefs, PUBLIC_API_ENDPOINTS, typeOf } from "./openapi-model";

const document = {
  paths: {
    [endpoints.runQuery.path]: {
      post: {
        summary: "Run SQL",
        security: [{ bearer: [] }, { apiKey: [] }],
        requestBody: {
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: [],
                properties: {
                  query: { type: "string", description: "One SELECT" },
                  limit: { type: "integer", minimum: 1 },
                },
              },
            },
          },
        },
        responses: {
          "200": {
            description: "The result",
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  properties: {
                    success: { type: "boolean", const: true },
                    result: { type: "object", properties: { row_count: { type: "integer" } } },
                  },
                },
              },
            },
          },
          "400": { description: "Bad SQL" },
        },
      },
    },
    "/health": { get: { summary: "Health", security: [], responses: { "200": { description: "ok" } } } },
  },
};

describe("inlineRefs", () => {
  it("replaces zod's local $defs references by their schemas", () => {
    const schema = inlineRefs({
      $ref: "#/$defs/Result",
      $defs: {
        Result: { type: "object", properties: { rows: { type: "array", items: { $ref: "#/$defs/Row" } } } },
        Row: { type: "string" },
      },
    });
    expect(exampleOf(schema ?? {})).toEqual({ rows: ["string"] });
  });
});

describe("the API reference from the OpenAPI document", () => {
  it("lists the seven endpoints of the hub", () => {
    expect(PUBLIC_API_ENDPOINTS.map(({ endpoint }) => `${endpoint.method.toUpperCase()} ${endpoint.path}`)).toEqual([
      "POST /api/query",
      "GET /api/tables",
      "GET /api/table/{namespace}/{table}",
      "GET /api/table/{namespace}/{table}/sample",
      "GET /api/queries/stats",
      "GET /api/sync/status",
      "GET /health",
    ]);
  });

  it("takes method, auth, parameters and responses from the document", () => {
    const [query, health] = buildReferences(document, "https://epicenter.example");
    expect(query).toMatchObject({
      method: "POST",
      path: endpoints.runQuery.path,
      summary: "Run SQL",
      auth: "session or API key",
    });
    expect(query?.parameters.map((parameter) => [parameter.name, parameter.where, parameter.type])).toEqual([
      ["query", "body", "string"],
      ["limit", "body", "integer"],
    ]);
    expect(query?.responses.map((response) => response.status)).toEqual(["200", "400"]);
    expect(query?.responseExample).toEqual({ success: true, result: { row_count: 0 } });
    expect(health?.auth).toBe("none");
  });

  it("writes curl for the user's host with the key from the environment", () => {
    const [query, health] = buildReferences(document, "https://epicenter.example");
    expect(query?.curl).toContain('curl -X POST "https://epicenter.example/api/query"');
    expect(query?.curl).toContain('-H "Authorization: Bearer $EPICENTER_API_KEY"');
    expect(query?.curl).toContain('-d \'{"query":"SELECT');
    expect(health?.curl).toBe('curl "https://epicenter.example/health"');
  });

  it("describes types and examples", () => {
    expect(typeOf({ anyOf: [{ type: "string", format: "date-time" }, { type: "null" }] })).toBe(
      "string (date-time) | null",
    );
    expect(exampleOf({ type: "array", items: { type: "string", enum: ["idle", "syncing"] } })).toEqual(["idle"]);
  });
});
