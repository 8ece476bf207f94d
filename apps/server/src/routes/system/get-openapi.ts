import { buildOpenApiDocument, endpoints } from "@epicenter/contracts";
import type { Handler } from "../../http/mount";

export function getOpenApi(deps: { publicUrl: string; version: string }): Handler<typeof endpoints.openapi> {
  // Built once: the endpoints are fixed for the life of the process.
  const document = buildOpenApiDocument(endpoints, {
    title: "Epicenter API",
    version: deps.version,
    serverUrl: deps.publicUrl,
  });
  return async () => document;
}
