import { z } from "zod";

/** A path on this origin to land on after sign-in; anything else would be an open redirect. */
const ZRedirectPath = z
  .string()
  .max(2_000)
  .regex(/^\/(?!\/)[^\s\\]*$/, "a path on this site, starting with a single /");

export const ZMagicLinkRequest = z
  .object({
    email: z.email("a valid e-mail address").max(320),
    redirect_to: ZRedirectPath.optional().describe("Where to land after signing in; defaults to /"),
  })
  .meta({ id: "MagicLinkRequest" });
export type MagicLinkRequest = z.infer<typeof ZMagicLinkRequest>;

export const ZMagicLinkResponse = z
  .object({
    status: z.literal("sent"),
    message: z.string(),
    expires_in_minutes: z.number().int(),
  })
  .meta({ id: "MagicLinkResponse" });
export type MagicLinkResponse = z.infer<typeof ZMagicLinkResponse>;

export const ZVerifyRequest = z.object({ token: z.string().min(1).max(200) }).meta({ id: "VerifyRequest" });

export const ZSessionUser = z
  .object({
    id: z.uuid(),
    email: z.email(),
    is_admin: z.boolean(),
    is_allowed: z.boolean().describe("Still on the allow-list; false shows Access Denied"),
  })
  .meta({ id: "SessionUser" });
export type SessionUser = z.infer<typeof ZSessionUser>;

export const ZSessionTokens = z
  .object({
    access_token: z.string(),
    refresh_token: z.string(),
    expires_at: z.iso.datetime().describe("When the access token stops working; refresh before then"),
    user: ZSessionUser,
    redirect_to: z.string(),
  })
  .meta({ id: "SessionTokens" });
export type SessionTokens = z.infer<typeof ZSessionTokens>;

export const ZRefreshRequest = z.object({ refresh_token: z.string().min(1).max(200) }).meta({ id: "RefreshRequest" });

export const ZSessionResponse = z.object({ user: ZSessionUser }).meta({ id: "SessionResponse" });

export const ZClientConfig = z
  .object({
    version: z.string(),
    analytics: z.object({ posthog_key: z.string().nullable(), posthog_host: z.string() }),
    seismo_configured: z.boolean(),
    support: z.object({
      email: z.string().nullable().describe("SUPPORT_EMAIL; null when not configured"),
      community_url: z.string().nullable().describe("COMMUNITY_URL; null when not configured"),
    }),
  })
  .meta({ id: "ClientConfig" });
export type ClientConfig = z.infer<typeof ZClientConfig>;
