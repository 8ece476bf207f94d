/**
 * Session tokens: an access token that works for an hour and a refresh token that works
 * for 30 days. Refreshing rotates both; signing out revokes the session server-side.
 */
import type { SessionTokens, SessionUser } from "@epicenter/contracts";
import {
  findSessionByRefreshHash,
  revokeSession,
  rotateSession,
  type SessionTokensHashed,
  type User,
} from "@epicenter/db";
import { type AccessDeps, roleOf } from "./principal";
import { hashSecret, newSecret } from "./secrets";

export const ACCESS_TTL_MS = 60 * 60_000;
export const REFRESH_TTL_MS = 30 * 24 * 60 * 60_000;

export interface IssuedSession {
  accessToken: string;
  refreshToken: string;
  accessExpiresAt: Date;
  user: User;
  isAllowed: boolean;
  isAdmin: boolean;
}

export function issueSessionTokens(now: Date) {
  const accessToken = newSecret("access");
  const refreshToken = newSecret("refresh");
  const accessExpiresAt = new Date(now.getTime() + ACCESS_TTL_MS);
  const hashed: SessionTokensHashed = {
    accessTokenHash: hashSecret(accessToken),
    refreshTokenHash: hashSecret(refreshToken),
    accessExpiresAt,
    refreshExpiresAt: new Date(now.getTime() + REFRESH_TTL_MS),
  };
  return { plain: { accessToken, refreshToken, accessExpiresAt }, hashed };
}

export async function refreshSession(deps: AccessDeps, refreshToken: string): Promise<IssuedSession | undefined> {
  const now = deps.clock();
  const session = await findSessionByRefreshHash(deps.db, hashSecret(refreshToken), now);
  if (!session) return undefined;
  const tokens = issueSessionTokens(now);
  if (!(await rotateSession(deps.db, session.sessionId, tokens.hashed))) return undefined;
  return { ...tokens.plain, user: session.user, ...(await roleOf(deps, session.user.email)) };
}

export async function signOut(deps: AccessDeps, sessionId: string): Promise<void> {
  await revokeSession(deps.db, sessionId, deps.clock());
}

/** The signed-in user as the API shows them. */
export function sessionUserJson(user: User, role: { isAllowed: boolean; isAdmin: boolean }): SessionUser {
  return { id: user.id, email: user.email, is_admin: role.isAdmin, is_allowed: role.isAllowed };
}

/** Issued tokens as the API answers them. */
export function sessionTokensJson(session: IssuedSession, redirectTo: string): SessionTokens {
  return {
    access_token: session.accessToken,
    refresh_token: session.refreshToken,
    expires_at: session.accessExpiresAt.toISOString(),
    user: sessionUserJson(session.user, session),
    redirect_to: redirectTo,
  };
}
