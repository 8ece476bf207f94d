/** System: health, the OpenAPI document and the settings the web app needs before sign-in. */
import type { AreaHandlers } from "../../http/mount";
import { getClientConfig } from "./get-client-config";
import { getHealth } from "./get-health";
import { getOpenApi } from "./get-openapi";

export interface SystemRouteDeps {
  health: Parameters<typeof getHealth>[0];
  openapi: Parameters<typeof getOpenApi>[0];
  clientConfig: Parameters<typeof getClientConfig>[0];
}

export function systemRoutes(deps: SystemRouteDeps): AreaHandlers<"health" | "openapi" | "clientConfig"> {
  return {
    health: getHealth(deps.health),
    openapi: getOpenApi(deps.openapi),
    clientConfig: getClientConfig(deps.clientConfig),
  };
}
