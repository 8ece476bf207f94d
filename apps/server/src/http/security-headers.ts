/**
 * Security headers on every response (Hono's `secureHeaders`): a Content-Security-Policy
 * that fits the built SPA — scripts, styles, fonts and data from this origin only, no
 * inline scripts, no plugins, no framing, no foreign form targets — plus `nosniff`,
 * `X-Frame-Options: DENY` and `Referrer-Policy: no-referrer` (a magic link's token is in
 * its URL and must never travel on as a referrer). Styles allow inline because React
 * `style` attributes and CodeMirror's injected sheets need it; an injected style cannot
 * run code. PostHog's origins are added only when analytics is configured.
 *
 * Why the session may live in localStorage (ARCHITECTURE.md "Access"): what can read it
 * is script on this origin, and this policy admits only the app's own bundled scripts.
 */
import type { MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";
import type { Config } from "../config";

export function securityHeaders(config: Pick<Config, "analytics" | "publicUrl">): MiddlewareHandler {
  const analytics = config.analytics.posthogKey ? analyticsOrigins(config.analytics.posthogHost) : [];
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", ...analytics],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:", "blob:", ...analytics],
      fontSrc: ["'self'", "data:"],
      connectSrc: ["'self'", ...analytics],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
    },
    xFrameOptions: "DENY",
    referrerPolicy: "no-referrer",
    // Only where the server is reached over https; a local http install must not pin it.
    strictTransportSecurity: config.publicUrl.startsWith("https:") ? "max-age=31536000" : false,
    crossOriginResourcePolicy: "same-origin",
    permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
  });
}

/** PostHog's ingest host and the assets host its library loads scripts from. */
function analyticsOrigins(host: string): string[] {
  try {
    const origin = new URL(host).origin;
    const assets = origin.replace(/^(https?:\/\/)([a-z0-9-]+)\.i\.posthog\.com$/, "$1$2-assets.i.posthog.com");
    return [...new Set([origin, assets])];
  } catch {
    return [];
  }
}
