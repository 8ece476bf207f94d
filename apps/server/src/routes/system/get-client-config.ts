import type { ClientConfig, endpoints } from "@epicenter/contracts";
import type { Config } from "../../config";
import type { Handler } from "../../http/mount";
import { VERSION } from "../../version";

export function getClientConfig(
  config: Pick<Config, "analytics" | "seismo" | "support">,
): Handler<typeof endpoints.clientConfig> {
  const body: ClientConfig = {
    version: VERSION,
    analytics: { posthog_key: config.analytics.posthogKey ?? null, posthog_host: config.analytics.posthogHost },
    seismo_configured: Boolean(config.seismo.baseUrl && config.seismo.model),
    support: { email: config.support.email ?? null, community_url: config.support.communityUrl ?? null },
  };
  return async () => body;
}
