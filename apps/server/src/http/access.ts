/**
 * The access check every non-public endpoint goes through (see `mount`). It resolves the
 * caller once per request and applies the endpoint's level:
 * - `session_or_key`: a signed-in user or one of their API keys;
 * - `session`: a signed-in user only (key management never accepts a key);
 * - `admin`: a signed-in admin.
 * Every level requires the user to be on the allow-list still.
 */
import { NOT_ALLOW_LISTED } from "@epicenter/contracts";
import type { Context, MiddlewareHandler } from "hono";
import { type AccessDeps, credentialOf, type Principal, resolvePrincipal } from "../services/access/principal";
import type { AppEnv } from "./env";
import { forbidden, HttpError, unauthorized } from "./errors";

export function accessControl(deps: AccessDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    let resolved: Promise<Principal | undefined> | undefined;
    c.set("resolvePrincipal", () => {
      resolved ??= resolvePrincipal(
        deps,
        credentialOf({ authorization: c.req.header("authorization"), apiKey: c.req.header("x-api-key") }),
      );
      return resolved;
    });
    c.set("authorize", async (ctx, level, message) => {
      const principal = await ctx.get("resolvePrincipal")();
      if (!principal) throw unauthorized(message);
      if (level !== "session_or_key" && principal.via === "api_key") {
        throw forbidden("API keys cannot be used here; sign in to the web app instead.");
      }
      if (!principal.isAllowed) {
        throw new HttpError(403, "forbidden", `Your email (${principal.user.email}) is not whitelisted for access.`, {
          reason: NOT_ALLOW_LISTED,
        });
      }
      if (level === "admin" && !principal.isAdmin) throw forbidden("Only admins can do that.");
      ctx.set("principal", principal);
    });
    await next();
  };
}

/** The authorized caller of a guarded endpoint (set by `authorize`). */
export function principalOf(c: Context<AppEnv>): Principal {
  const principal = c.get("principal");
  if (!principal) throw unauthorized();
  return principal;
}

/** The caller's IP as the socket saw it; proxies are not trusted. */
export function clientIp(c: Context<AppEnv>): string | undefined {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress;
}
