/**
 * Product analytics, only when the server is configured with a PostHog key: autocapture
 * on, signed-in users identified by id and e-mail, reset on sign-out. posthog-js is loaded
 * on demand, so a deployment without analytics never downloads it.
 */
import type { ClientConfig } from "@epicenter/contracts";
import type { PostHog } from "posthog-js";

export type AnalyticsEvent =
  | { name: "api_key_created"; properties: { key_name: string } }
  | { name: "api_key_revoked"; properties: { key_id: string } }
  | { name: "waitlist_joined"; properties: Record<string, never> };

let client: Promise<PostHog | null> = Promise.resolve(null);

export function initAnalytics(config: ClientConfig["analytics"]): void {
  const key = config.posthog_key;
  if (!key) return;
  client = import("posthog-js").then(({ default: posthog }) => {
    posthog.init(key, { api_host: config.posthog_host, autocapture: true, capture_pageview: true });
    return posthog;
  });
}

export function identify(user: { id: string; email: string }): void {
  void client.then((posthog) => posthog?.identify(user.id, { email: user.email }));
}

export function resetAnalytics(): void {
  void client.then((posthog) => posthog?.reset());
}

export function track(event: AnalyticsEvent): void {
  void client.then((posthog) => posthog?.capture(event.name, event.properties));
}
