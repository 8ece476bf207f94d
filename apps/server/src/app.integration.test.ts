import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { endpoints, ZApiError, ZHealthResponse } from "@epicenter/contracts";
import { openAppDatabase } from "@epicenter/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mountedEndpoints } from "./http/mount";
import { createTestApp, type TestApp } from "./testing/test-app";

const webRoot = mkdtempSync(join(tmpdir(), "epicenter-web-"));
mkdirSync(join(webRoot, "assets"));
writeFileSync(join(webRoot, "index.html"), "<!doctype html><title>Epicenter</title><div id=root></div>");
writeFileSync(join(webRoot, "assets", "app-abc123.js"), "console.log('app')");

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ webRoot });
});
afterAll(async () => {
  await t.close();
  rmSync(webRoot, { recursive: true, force: true });
});

describe("GET /health", () => {
  it("says healthy with both stores connected", async () => {
    const response = await t.app.request("/health");
    expect(response.status).toBe(200);
    const body = ZHealthResponse.parse(await response.json());
    expect(body.status).toBe("healthy");
    expect(body.catalog_connected).toBe(true);
    expect(body.warehouse).toMatchObject({ connected: true, engine: "chdb" });
    expect(body.warehouse.schema_version).toBeGreaterThanOrEqual(2);
    expect(Date.now() - Date.parse(body.timestamp)).toBeLessThan(10_000);
  });
});

describe("errors", () => {
  it("answers unknown API paths with a JSON 404, never the SPA", async () => {
    const response = await t.app.request("/api/does-not-exist");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    const body = ZApiError.parse(await response.json());
    expect(body.error.code).toBe("not_found");
    expect(body.error.message).toContain("/api/does-not-exist");
  });

  it("sends a request id back so a log line can be found", async () => {
    const response = await t.app.request("/health", { headers: { "x-request-id": "trace-me" } });
    expect(response.headers.get("x-request-id")).toBe("trace-me");
  });
});

describe("the route table", () => {
  it("mounts every endpoint of the contract, and nothing the contract does not publish", () => {
    const published = Object.values(endpoints).map((endpoint) => `${endpoint.method.toUpperCase()} ${endpoint.path}`);
    const mounted = [...mountedEndpoints(t.app).keys()];
    expect(published.filter((key) => !mounted.includes(key))).toEqual([]);
    expect(mounted.filter((key) => !published.includes(key))).toEqual([]);
  });

  it("answers every published endpoint from its handler, never from the not-found one", async () => {
    const unanswered: string[] = [];
    for (const endpoint of Object.values(endpoints)) {
      const path = endpoint.path.replace(/\{(\w+)\}/g, "x");
      const response = await t.app.request(path, { method: endpoint.method.toUpperCase() });
      const body = await response.text();
      if (body.includes("No endpoint")) unanswered.push(`${endpoint.method.toUpperCase()} ${endpoint.path}`);
    }
    expect(unanswered).toEqual([]);
  });
});

describe("OpenAPI", () => {
  it("publishes the document generated from the contracts", async () => {
    const response = await t.app.request("/api/openapi.json");
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths)).toContain("/health");
    expect(document.paths["/health"]?.get).toMatchObject({ operationId: "health" });
  });
});

describe("the SPA", () => {
  it("answers client-side routes with index.html (history-API fallback)", async () => {
    for (const path of ["/", "/queries", "/datasets/polymarket-markets", "/hub/status"]) {
      const response = await t.app.request(path);
      expect(response.status, path).toBe(200);
      expect(await response.text(), path).toContain("<title>Epicenter</title>");
    }
  });

  it("serves hashed assets with a long cache lifetime", async () => {
    const response = await t.app.request("/assets/app-abc123.js");
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("console.log");
    expect(response.headers.get("cache-control")).toContain("immutable");
  });

  it("does not fall back for a missing asset", async () => {
    const response = await t.app.request("/assets/missing.js");
    expect(response.status).toBe(404);
  });
});

describe("when a store goes away", () => {
  it("says unhealthy with 503", async () => {
    const dir = mkdtempSync(join(tmpdir(), "epicenter-gone-"));
    const appDatabase = await openAppDatabase({ path: join(dir, "app") });
    await appDatabase.close();
    const app = t.withApp({ appDatabase });
    const response = await app.request("/health");
    expect(response.status).toBe(503);
    const body = ZHealthResponse.parse(await response.json());
    expect(body.status).toBe("unhealthy");
    expect(body.catalog_connected).toBe(false);
    expect(body.warehouse.connected).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });
});
