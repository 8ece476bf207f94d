import { buildOpenApiDocument, endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";

export function getOpenApi(app: Hono<AppEnv>, deps: { publicUrl: string; version: string }): void {
  // Built once: the endpoints are fixed for the life of the process.
  const document = buildOpenApiDocument(endpoints, {
    title: "Epicenter API",
    version: deps.version,
    serverUrl: deps.publicUrl,
  });
  mount(app, endpoints.openapi, async () => document);
}
