/** People who have signed in at least once, created on their first verified magic link. */
import { and, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { AppDb } from "../client";
import { apiKeys, savedQueries, users } from "../schema";
import { normalizeEmail } from "./allow-list";

export interface User {
  id: string;
  email: string;
  createdAt: Date;
  lastSeenAt: Date | null;
}

export async function upsertUserByEmail(db: AppDb, email: string): Promise<User> {
  const normalized = normalizeEmail(email);
  const [user] = await db
    .insert(users)
    .values({ email: normalized })
    .onConflictDoUpdate({ target: users.email, set: { email: normalized } })
    .returning();
  if (!user) throw new Error(`could not create the user ${normalized}`);
  return user;
}

export async function getUserById(db: AppDb, id: string): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return user;
}

/** Records that the user was seen, at most once a minute so reads do not become writes. */
export async function touchUserLastSeen(db: AppDb, userId: string, now: Date): Promise<void> {
  const aMinuteAgo = new Date(now.getTime() - 60_000);
  await db
    .update(users)
    .set({ lastSeenAt: now })
    .where(and(eq(users.id, userId), or(isNull(users.lastSeenAt), lt(users.lastSeenAt, aMinuteAgo))));
}

export interface UserSummary extends User {
  queryCount: number;
  keyCount: number;
}

export async function listUsersWithCounts(db: AppDb): Promise<UserSummary[]> {
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      createdAt: users.createdAt,
      lastSeenAt: users.lastSeenAt,
      queryCount: sql<number>`(SELECT count(*) FROM ${savedQueries} WHERE ${savedQueries.userId} = ${users.id})::int`,
      keyCount: sql<number>`(SELECT count(*) FROM ${apiKeys} WHERE ${apiKeys.userId} = ${users.id} AND ${apiKeys.revokedAt} IS NULL)::int`,
    })
    .from(users)
    .orderBy(desc(users.createdAt));
  return rows.map((row) => ({ ...row, queryCount: Number(row.queryCount), keyCount: Number(row.keyCount) }));
}
