import { type ClientConfig, endpoints } from "@epicenter/contracts";
import type { Hono } from "hono";
import type { Config } from "../../config";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";
import { VERSION } from "../../version";

export function getClientConfig(app: Hono<AppEnv>, config: Pick<Config, "analytics" | "seismo" | "support">): void {
  const body: ClientConfig = {
    version: VERSION,
    analytics: { posthog_key: config.analytics.posthogKey ?? null, posthog_host: config.analytics.posthogHost },
    seismo_configured: Boolean(config.seismo.baseUrl && config.seismo.model),
    support: { email: config.support.email ?? null, community_url: config.support.communityUrl ?? null },
  };
  mount(app, endpoints.clientConfig, async () => body);
}
