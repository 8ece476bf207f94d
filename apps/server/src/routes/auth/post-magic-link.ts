import type { endpoints } from "@epicenter/contracts";
import { clientIp } from "../../http/access";
import { HttpError } from "../../http/errors";
import type { Handler } from "../../http/mount";
import { MAGIC_LINK_TTL_MINUTES, type MagicLinkDeps, requestMagicLink } from "../../services/access/magic-link";
import { RateLimited } from "../../services/access/rate-limits";

export function postMagicLink(deps: MagicLinkDeps): Handler<typeof endpoints.requestMagicLink> {
  return async ({ body, c }) => {
    let result: Awaited<ReturnType<typeof requestMagicLink>>;
    try {
      result = await requestMagicLink(deps, { email: body.email, redirectTo: body.redirect_to, ip: clientIp(c) });
    } catch (error) {
      if (error instanceof RateLimited) {
        throw new HttpError(429, "rate_limited", error.message, undefined, {
          "retry-after": String(error.retryAfterSeconds),
        });
      }
      c.get("logger").error({ err: error }, "magic link could not be sent");
      throw new HttpError(503, "unavailable", "Failed to send login email. Try again in a minute.");
    }
    if (result.outcome === "waitlist") {
      throw new HttpError(
        403,
        "forbidden",
        "This email is not whitelisted. It has been added to the waitlist; once approved, you will receive a magic link.",
        { waitlisted: true },
      );
    }
    return {
      status: "sent" as const,
      message: "Check your email for the magic link!",
      expires_in_minutes: MAGIC_LINK_TTL_MINUTES,
    };
  };
}
