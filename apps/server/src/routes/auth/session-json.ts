import type { SessionTokens, SessionUser } from "@epicenter/contracts";
import type { User } from "@epicenter/db";
import type { IssuedSession } from "../../services/access/sessions";

export function sessionUserJson(user: User, role: { isAllowed: boolean; isAdmin: boolean }): SessionUser {
  return { id: user.id, email: user.email, is_admin: role.isAdmin, is_allowed: role.isAllowed };
}

export function sessionTokensJson(session: IssuedSession, redirectTo: string): SessionTokens {
  return {
    access_token: session.accessToken,
    refresh_token: session.refreshToken,
    expires_at: session.accessExpiresAt.toISOString(),
    user: sessionUserJson(session.user, session),
    redirect_to: redirectTo,
  };
}
