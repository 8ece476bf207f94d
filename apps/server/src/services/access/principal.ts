/**
 * Who is asking: resolves a bearer token or an `X-API-Key` to a user, and whether that
 * user is still allowed in and is an admin. Checked on every request, against the store,
 * so a sign-out, a revoked key or a removal from the allow-list takes effect at once.
 */
import {
  type AppDb,
  findActiveApiKey,
  findSessionByAccessHash,
  getAllowListEntry,
  touchApiKey,
  touchUserLastSeen,
  type User,
} from "@epicenter/db";
import { hashSecret, isApiKey } from "./secrets";

export interface Principal {
  user: User;
  isAllowed: boolean;
  isAdmin: boolean;
  via: "session" | "api_key";
  sessionId?: string;
  apiKeyId?: string;
}

export interface AccessDeps {
  db: AppDb;
  adminEmails: readonly string[];
  clock: () => Date;
}

export async function roleOf(deps: AccessDeps, email: string): Promise<{ isAllowed: boolean; isAdmin: boolean }> {
  return roleFrom(deps, email, (await getAllowListEntry(deps.db, email)) ?? null);
}

/** The role from an allow-list entry already read (`ADMIN_EMAILS` need no entry). */
function roleFrom(deps: Pick<AccessDeps, "adminEmails">, email: string, entry: { isAdmin: boolean } | null) {
  if (deps.adminEmails.includes(email)) return { isAllowed: true, isAdmin: true };
  return { isAllowed: entry !== null, isAdmin: entry?.isAdmin ?? false };
}

/** Touches "last used" at most once a minute, and only writes when it is due. */
function isDue(last: Date | null, now: Date): boolean {
  return last === null || now.getTime() - last.getTime() >= 60_000;
}

/** The credential of a request: `Authorization: Bearer …` first, then `X-API-Key`. */
export function credentialOf(headers: { authorization?: string | undefined; apiKey?: string | undefined }) {
  const bearer = headers.authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
  return bearer ?? headers.apiKey?.trim() ?? undefined;
}

export async function resolvePrincipal(
  deps: AccessDeps,
  credential: string | undefined,
): Promise<Principal | undefined> {
  if (!credential) return undefined;
  const now = deps.clock();
  const hash = hashSecret(credential);
  if (isApiKey(credential)) {
    const found = await findActiveApiKey(deps.db, hash);
    if (!found) return undefined;
    if (isDue(found.lastUsedAt, now)) await touchApiKey(deps.db, found.keyId, now);
    const role = roleFrom(deps, found.user.email, found.allowListEntry);
    return { user: found.user, ...role, via: "api_key", apiKeyId: found.keyId };
  }
  const session = await findSessionByAccessHash(deps.db, hash, now);
  if (!session) return undefined;
  await touchUserLastSeen(deps.db, session.user.id, now);
  return {
    user: session.user,
    ...(await roleOf(deps, session.user.email)),
    via: "session",
    sessionId: session.sessionId,
  };
}
