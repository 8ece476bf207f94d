/** Single-use sign-in links, stored as hashes, each valid for a bounded time. */
import { and, eq, gt, isNull } from "drizzle-orm";
import type { AppDb } from "../client";
import { magicLinkTokens } from "../schema";

export interface NewMagicLink {
  email: string;
  tokenHash: string;
  redirectTo: string;
  expiresAt: Date;
  requestIp: string | null;
}

export async function createMagicLink(db: AppDb, link: NewMagicLink): Promise<void> {
  await db.insert(magicLinkTokens).values(link);
}

export type ConsumeResult =
  | { outcome: "ok"; email: string; redirectTo: string }
  | { outcome: "unknown" | "used" | "expired" };

/**
 * Marks a link used and returns whom it signs in. The update is conditional, so two
 * clicks racing on one link sign in at most once.
 */
export async function consumeMagicLink(db: AppDb, tokenHash: string, now: Date): Promise<ConsumeResult> {
  const [claimed] = await db
    .update(magicLinkTokens)
    .set({ usedAt: now })
    .where(
      and(eq(magicLinkTokens.tokenHash, tokenHash), isNull(magicLinkTokens.usedAt), gt(magicLinkTokens.expiresAt, now)),
    )
    .returning({ email: magicLinkTokens.email, redirectTo: magicLinkTokens.redirectTo });
  if (claimed) return { outcome: "ok", ...claimed };

  const [link] = await db
    .select({ usedAt: magicLinkTokens.usedAt })
    .from(magicLinkTokens)
    .where(eq(magicLinkTokens.tokenHash, tokenHash));
  if (!link) return { outcome: "unknown" };
  return { outcome: link.usedAt ? "used" : "expired" };
}
