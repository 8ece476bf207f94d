/**
 * API keys: only a display prefix and a hash are stored; the key itself is shown once. Every
 * query is scoped by the owner's id, so one user can never see, use or revoke another's.
 */
import { and, desc, eq, isNull, lt, or } from "drizzle-orm";
import { announcingAccessChange } from "../access-changes";
import type { AppDb } from "../client";
import { apiKeys, users, whitelistEmails } from "../schema";
import type { User } from "./users";

export interface ApiKey {
  id: string;
  name: string;
  keyPrefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

const publicColumns = {
  id: apiKeys.id,
  name: apiKeys.name,
  keyPrefix: apiKeys.keyPrefix,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
};

export async function createApiKey(
  db: AppDb,
  key: { userId: string; name: string; keyPrefix: string; keyHash: string },
): Promise<ApiKey> {
  const [created] = await db.insert(apiKeys).values(key).returning(publicColumns);
  if (!created) throw new Error("could not create the API key");
  return created;
}

export function listApiKeys(db: AppDb, userId: string): Promise<ApiKey[]> {
  return db
    .select(publicColumns)
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt));
}

/** Revokes one of the user's own keys; false when the user has no such live key. */
export async function revokeApiKey(db: AppDb, userId: string, keyId: string, now: Date): Promise<boolean> {
  const revoked = await announcingAccessChange(db, { kind: "api_key", apiKeyId: keyId }, () =>
    db
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id }),
  );
  return revoked.length > 0;
}

/**
 * The live key with its owner and the owner's allow-list entry, in one statement: this runs
 * on every API call made with a key.
 */
export async function findActiveApiKey(
  db: AppDb,
  keyHash: string,
): Promise<
  { keyId: string; lastUsedAt: Date | null; user: User; allowListEntry: { isAdmin: boolean } | null } | undefined
> {
  const [row] = await db
    .select({
      keyId: apiKeys.id,
      lastUsedAt: apiKeys.lastUsedAt,
      user: users,
      allowListEntry: { isAdmin: whitelistEmails.isAdmin },
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .leftJoin(whitelistEmails, eq(whitelistEmails.email, users.email))
    .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)));
  return row;
}

/** Records a use, at most once a minute per key so a busy client does not write on every call. */
export async function touchApiKey(db: AppDb, keyId: string, now: Date): Promise<void> {
  const aMinuteAgo = new Date(now.getTime() - 60_000);
  await db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(and(eq(apiKeys.id, keyId), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, aMinuteAgo))));
}
