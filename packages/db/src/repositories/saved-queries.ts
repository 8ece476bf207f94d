/**
 * Saved queries and their run statistics. Visibility follows the spec: everyone sees the
 * examples and public queries, a signed-in user also sees their own; only the owner may
 * change or delete a query, and never an example. Every write is scoped by owner in the
 * statement itself, so a forged id cannot touch someone else's query.
 */
import { and, avg, count, desc, eq, inArray, isNotNull, max, or, type SQL } from "drizzle-orm";
import type { AppDb } from "../client";
import { queryRuns, savedQueries, users } from "../schema";

export interface SavedQuery {
  id: string;
  userId: string | null;
  authorEmail: string | null;
  title: string;
  sql: string;
  description: string | null;
  isPublic: boolean;
  isExample: boolean;
  chart: unknown;
  params: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
}

const columns = {
  id: savedQueries.id,
  userId: savedQueries.userId,
  authorEmail: users.email,
  title: savedQueries.title,
  sql: savedQueries.sql,
  description: savedQueries.description,
  isPublic: savedQueries.isPublic,
  isExample: savedQueries.isExample,
  chart: savedQueries.chart,
  params: savedQueries.params,
  createdAt: savedQueries.createdAt,
  updatedAt: savedQueries.updatedAt,
};

function visibleTo(userId: string | null): SQL | undefined {
  const shared = or(eq(savedQueries.isExample, true), eq(savedQueries.isPublic, true));
  return userId ? or(shared, eq(savedQueries.userId, userId)) : shared;
}

/** Newest first. */
export function listVisibleQueries(db: AppDb, userId: string | null): Promise<SavedQuery[]> {
  return db
    .select(columns)
    .from(savedQueries)
    .leftJoin(users, eq(users.id, savedQueries.userId))
    .where(visibleTo(userId))
    .orderBy(desc(savedQueries.createdAt));
}

export async function getVisibleQuery(db: AppDb, id: string, userId: string | null): Promise<SavedQuery | undefined> {
  const [query] = await db
    .select(columns)
    .from(savedQueries)
    .leftJoin(users, eq(users.id, savedQueries.userId))
    .where(and(eq(savedQueries.id, id), visibleTo(userId)));
  return query;
}

export interface SavedQueryInput {
  title: string;
  sql: string;
  description: string | null;
  isPublic: boolean;
  chart: unknown;
  params: Record<string, string>;
}

export async function createSavedQuery(db: AppDb, userId: string, input: SavedQueryInput): Promise<string> {
  const [created] = await db
    .insert(savedQueries)
    .values({ userId, ...input, isExample: false })
    .returning({ id: savedQueries.id });
  if (!created) throw new Error("could not save the query");
  return created.id;
}

/** Updates one of the user's own, non-example queries; false when there is none. */
export async function updateSavedQuery(
  db: AppDb,
  userId: string,
  id: string,
  input: Partial<SavedQueryInput>,
  now: Date,
): Promise<boolean> {
  const updated = await db
    .update(savedQueries)
    .set({ ...input, updatedAt: now })
    .where(and(eq(savedQueries.id, id), eq(savedQueries.userId, userId), eq(savedQueries.isExample, false)))
    .returning({ id: savedQueries.id });
  return updated.length > 0;
}

export async function deleteSavedQuery(db: AppDb, userId: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(savedQueries)
    .where(and(eq(savedQueries.id, id), eq(savedQueries.userId, userId), eq(savedQueries.isExample, false)))
    .returning({ id: savedQueries.id });
  return deleted.length > 0;
}

/** Seeds or refreshes a system example under a fixed id. */
export async function upsertExampleQuery(
  db: AppDb,
  example: { id: string; title: string; sql: string; description: string; chart: unknown },
): Promise<void> {
  await db
    .insert(savedQueries)
    .values({ ...example, userId: null, isPublic: true, isExample: true })
    .onConflictDoUpdate({
      target: savedQueries.id,
      set: { title: example.title, sql: example.sql, description: example.description, chart: example.chart },
    });
}

export interface QueryRunRecord {
  queryId: string | null;
  userId: string | null;
  apiKeyId: string | null;
  origin: "editor" | "api" | "dashboard" | "seismo" | "catalog" | "market" | "clickhouse" | "mcp";
  sql: string;
  startedAt: Date;
  durationMs: number;
  rowCount: number;
  error: string | null;
}

/** Several runs in one statement (the server records them in small batches). */
export async function recordQueryRuns(db: AppDb, runs: readonly QueryRunRecord[]): Promise<void> {
  if (runs.length === 0) return;
  await db.insert(queryRuns).values([...runs]);
}

export interface QueryStats {
  queryId: string;
  executionCount: number;
  avgRuntimeMs: number;
  lastExecutedAt: Date | null;
}

/** Runs per saved query: how many, their average runtime (failures included) and the last one. */
export async function queryStats(db: AppDb, queryIds?: readonly string[]): Promise<QueryStats[]> {
  const rows = await db
    .select({
      queryId: queryRuns.queryId,
      executionCount: count(),
      avgRuntimeMs: avg(queryRuns.durationMs),
      lastExecutedAt: max(queryRuns.startedAt),
    })
    .from(queryRuns)
    .where(and(isNotNull(queryRuns.queryId), queryIds ? inArray(queryRuns.queryId, [...queryIds]) : undefined))
    .groupBy(queryRuns.queryId);
  return rows.map((row) => ({
    queryId: row.queryId as string,
    executionCount: Number(row.executionCount),
    avgRuntimeMs: Math.round(Number(row.avgRuntimeMs ?? 0)),
    lastExecutedAt: row.lastExecutedAt ? new Date(row.lastExecutedAt) : null,
  }));
}
