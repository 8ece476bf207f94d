/**
 * Who is asking: resolves a bearer token or an `X-API-Key` to a user, and whether that
 * user is still allowed in and is an admin. Checked on every request — against the store,
 * or against the callers kept in memory (`principal-cache.ts`), which every access-changing
 * write invalidates — so a sign-out, a revoked key or a removal from the allow-list takes
 * effect at once.
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
import type { CachedPrincipal, PrincipalCache } from "./principal-cache";
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
  /** Resolved callers kept in memory; absent: every request asks the store. */
  principals?: PrincipalCache;
}

export async function roleOf(deps: AccessDeps, email: string): Promise<{ isAllowed: boolean; isAdmin: boolean }> {
  return roleFrom(deps, email, (await getAllowListEntry(deps.db, email)) ?? null);
}

/** The role from an allow-list entry already read (`ADMIN_EMAILS` need no entry). */
export function roleFrom(deps: Pick<AccessDeps, "adminEmails">, email: string, entry: { isAdmin: boolean } | null) {
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
  const cached = deps.principals?.get(hash, now);
  if (cached) {
    if (isDue(cached.touchedAt, now)) {
      cached.touchedAt = now;
      await touch(deps.db, cached.principal, now);
    }
    return cached.principal;
  }
  const generation = deps.principals?.generation() ?? 0;
  const found = await lookUp(deps, credential, hash, now);
  if (found) deps.principals?.set(hash, found, generation);
  return found?.principal;
}

/** The caller behind a credential, from the store, in one statement (plus a due touch). */
async function lookUp(
  deps: AccessDeps,
  credential: string,
  hash: string,
  now: Date,
): Promise<CachedPrincipal | undefined> {
  if (isApiKey(credential)) {
    const found = await findActiveApiKey(deps.db, hash);
    if (!found) return undefined;
    const role = roleFrom(deps, found.user.email, found.allowListEntry);
    const principal: Principal = { user: found.user, ...role, via: "api_key", apiKeyId: found.keyId };
    const isTouchDue = isDue(found.lastUsedAt, now);
    if (isTouchDue) await touch(deps.db, principal, now);
    return { principal, expiresAt: null, touchedAt: isTouchDue ? now : found.lastUsedAt };
  }
  const session = await findSessionByAccessHash(deps.db, hash, now);
  if (!session) return undefined;
  const role = roleFrom(deps, session.user.email, session.allowListEntry);
  const principal: Principal = { user: session.user, ...role, via: "session", sessionId: session.sessionId };
  const isTouchDue = isDue(session.user.lastSeenAt, now);
  if (isTouchDue) await touch(deps.db, principal, now);
  return { principal, expiresAt: session.accessExpiresAt, touchedAt: isTouchDue ? now : session.user.lastSeenAt };
}

/** "Last used" for a key, "last seen" for a signed-in user. */
function touch(db: AppDb, principal: Principal, now: Date): Promise<void> {
  return principal.apiKeyId ? touchApiKey(db, principal.apiKeyId, now) : touchUserLastSeen(db, principal.user.id, now);
}
