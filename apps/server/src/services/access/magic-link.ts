/**
 * Sign-in by e-mailed magic link. The allow-list is checked before any mail is sent: an
 * address that is not on it goes to the waitlist instead (once, however often it asks).
 * A link is single-use, expires after 15 minutes, and only its hash is stored.
 */
import {
  type AppDb,
  consumeMagicLink,
  createMagicLink,
  createSession,
  joinWaitlist,
  normalizeEmail,
  upsertUserByEmail,
} from "@epicenter/db";
import type { Logger } from "pino";
import type { Mailer } from "../mail/mailer";
import { type AccessDeps, roleOf } from "./principal";
import type { SignInLimits } from "./rate-limits";
import { hashSecret, newSecret } from "./secrets";
import { type IssuedSession, issueSessionTokens } from "./sessions";

export const MAGIC_LINK_TTL_MINUTES = 15;

export interface MagicLinkDeps extends AccessDeps {
  mailer: Mailer;
  limits: SignInLimits;
  logger: Logger;
  publicUrl: string;
}

export type MagicLinkOutcome = { outcome: "sent" } | { outcome: "waitlist"; isNewOnWaitlist: boolean };

export async function requestMagicLink(
  deps: MagicLinkDeps,
  request: { email: string; redirectTo?: string | undefined; ip?: string | undefined },
): Promise<MagicLinkOutcome> {
  const email = normalizeEmail(request.email);
  await deps.limits.consume(email, request.ip);

  if (!(await isAllowed(deps, email))) {
    // A place is taken before the insert and given back if the address was there already.
    await deps.limits.takeWaitlistPlace();
    const isNewOnWaitlist = await joinWaitlist(deps.db, email);
    if (!isNewOnWaitlist) await deps.limits.returnWaitlistPlace();
    deps.logger.info({ email, isNewOnWaitlist }, "sign-in refused: not allow-listed");
    return { outcome: "waitlist", isNewOnWaitlist };
  }

  const token = newSecret("magic_link");
  const now = deps.clock();
  await createMagicLink(deps.db, {
    email,
    tokenHash: hashSecret(token),
    redirectTo: request.redirectTo ?? "/",
    expiresAt: new Date(now.getTime() + MAGIC_LINK_TTL_MINUTES * 60_000),
    requestIp: request.ip ?? null,
  });
  const link = `${deps.publicUrl}/auth/callback?token=${encodeURIComponent(token)}`;
  await deps.mailer.send(signInMail(email, link));
  return { outcome: "sent" };
}

/** No e-mail, no row, or a failed lookup all mean "not allowed"; a failure is logged. */
async function isAllowed(deps: MagicLinkDeps, email: string): Promise<boolean> {
  if (!email) return false;
  try {
    return (await roleOf(deps, email)).isAllowed;
  } catch (error) {
    deps.logger.error({ err: error, email }, "allow-list lookup failed; treating as not allowed");
    return false;
  }
}

export type VerifyOutcome =
  | { outcome: "ok"; session: IssuedSession; redirectTo: string }
  | { outcome: "unknown" | "used" | "expired" };

export async function verifyMagicLink(deps: AccessDeps, token: string): Promise<VerifyOutcome> {
  const now = deps.clock();
  const consumed = await consumeMagicLink(deps.db, hashSecret(token), now);
  if (consumed.outcome !== "ok") return consumed;
  const user = await upsertUserByEmail(deps.db, consumed.email);
  const tokens = issueSessionTokens(now);
  await createSession(deps.db, user.id, tokens.hashed);
  return {
    outcome: "ok",
    redirectTo: consumed.redirectTo,
    session: { ...tokens.plain, user, ...(await roleOf(deps, user.email)) },
  };
}

function signInMail(email: string, link: string) {
  return {
    to: email,
    subject: "Your Epicenter sign-in link",
    link,
    text: [
      "Sign in to Epicenter with this link:",
      "",
      link,
      "",
      `It works once and expires in ${MAGIC_LINK_TTL_MINUTES} minutes.`,
      "If you did not ask for it, ignore this e-mail.",
    ].join("\n"),
    html: `<!doctype html><html><body style="background:#08090b;color:#e8eaee;font-family:system-ui,sans-serif;padding:32px">
<h1 style="font-size:20px;margin:0 0 16px">Sign in to Epicenter</h1>
<p><a href="${link}" style="display:inline-block;background:#ff6a3d;color:#140802;padding:10px 18px;border-radius:8px;text-decoration:none;font-weight:600">Sign in</a></p>
<p style="color:#9aa3b2">The link works once and expires in ${MAGIC_LINK_TTL_MINUTES} minutes. If you did not ask for it, ignore this e-mail.</p>
</body></html>`,
  };
}

export type { AppDb };
