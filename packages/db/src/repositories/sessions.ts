/**
 * Sign-in sessions: a short-lived access token and a longer refresh token, both stored
 * only as hashes. Refreshing rotates both, so a stolen refresh token works once at most.
 */
import { and, eq, gt, isNull } from "drizzle-orm";
import { announcingAccessChange } from "../access-changes";
import type { AppDb } from "../client";
import { sessions, users, whitelistEmails } from "../schema";
import type { User } from "./users";

export interface SessionTokensHashed {
  accessTokenHash: string;
  refreshTokenHash: string;
  accessExpiresAt: Date;
  refreshExpiresAt: Date;
}

export interface ActiveSession {
  sessionId: string;
  user: User;
  accessExpiresAt: Date;
  /** The user's allow-list entry, read in the same statement (null: not on the list). */
  allowListEntry: { isAdmin: boolean } | null;
}

export async function createSession(db: AppDb, userId: string, tokens: SessionTokensHashed): Promise<string> {
  const [session] = await db
    .insert(sessions)
    .values({ userId, ...tokens })
    .returning({ id: sessions.id });
  if (!session) throw new Error("could not create the session");
  return session.id;
}

export async function findSessionByAccessHash(db: AppDb, accessTokenHash: string, now: Date) {
  return findActive(db, eq(sessions.accessTokenHash, accessTokenHash), gt(sessions.accessExpiresAt, now));
}

export async function findSessionByRefreshHash(db: AppDb, refreshTokenHash: string, now: Date) {
  return findActive(db, eq(sessions.refreshTokenHash, refreshTokenHash), gt(sessions.refreshExpiresAt, now));
}

async function findActive(db: AppDb, ...conditions: Parameters<typeof and>): Promise<ActiveSession | undefined> {
  const [row] = await db
    .select({
      sessionId: sessions.id,
      accessExpiresAt: sessions.accessExpiresAt,
      user: users,
      allowListEntry: { isAdmin: whitelistEmails.isAdmin },
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(whitelistEmails, eq(whitelistEmails.email, users.email))
    .where(and(isNull(sessions.revokedAt), ...conditions));
  return row;
}

/** Replaces both tokens of a session; false when it was revoked meanwhile. */
export async function rotateSession(db: AppDb, sessionId: string, tokens: SessionTokensHashed): Promise<boolean> {
  const updated = await announcingAccessChange(db, { kind: "session", sessionId }, () =>
    db
      .update(sessions)
      .set(tokens)
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id }),
  );
  return updated.length > 0;
}

export async function revokeSession(db: AppDb, sessionId: string, now: Date): Promise<void> {
  await announcingAccessChange(db, { kind: "session", sessionId }, () =>
    db.update(sessions).set({ revokedAt: now }).where(eq(sessions.id, sessionId)),
  );
}
