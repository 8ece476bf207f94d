/** What the admin area reads and changes, as plain functions over the two stores. */
import { type AppDb, addToAllowList, listUsersWithCounts, removeFromWaitlist, schema } from "@epicenter/db";
import type { Warehouse } from "@epicenter/warehouse";
import { desc, eq, isNotNull } from "drizzle-orm";
import { type MagicLinkDeps, requestMagicLink } from "../access/magic-link";
import type { Mailer } from "../mail/mailer";

/** Allow-lists a waiting e-mail, sends it a sign-in link, and takes it off the waitlist. */
export async function approveWaitlisted(deps: MagicLinkDeps & { mailer: Mailer }, email: string, approvedBy: string) {
  const entry = await addToAllowList(deps.db, email, approvedBy);
  // The admin's approval is not subject to the callers' limits.
  const unlimited = { consume: async () => {}, takeWaitlistPlace: async () => {}, returnWaitlistPlace: async () => {} };
  await requestMagicLink({ ...deps, limits: unlimited }, { email: entry.email });
  await removeFromWaitlist(deps.db, entry.email);
  return entry;
}

export async function listUsers(db: AppDb, adminEmails: readonly string[]) {
  const users = await listUsersWithCounts(db);
  const admins = new Set(
    (
      await db
        .select({ email: schema.whitelistEmails.email })
        .from(schema.whitelistEmails)
        .where(eq(schema.whitelistEmails.isAdmin, true))
    ).map((row) => row.email),
  );
  return users.map((user) => ({ ...user, isAdmin: adminEmails.includes(user.email) || admins.has(user.email) }));
}

export async function recentQueryRuns(db: AppDb, options: { errorsOnly: boolean; limit: number }) {
  const { queryRuns: runs, users } = schema;
  return db
    .select({
      id: runs.id,
      email: users.email,
      origin: runs.origin,
      sql: runs.sql,
      startedAt: runs.startedAt,
      durationMs: runs.durationMs,
      rowCount: runs.rowCount,
      error: runs.error,
    })
    .from(runs)
    .leftJoin(users, eq(users.id, runs.userId))
    .where(options.errorsOnly ? isNotNull(runs.error) : undefined)
    .orderBy(desc(runs.startedAt))
    .limit(options.limit);
}

export interface SyncRunRow {
  run_id: string;
  source: string;
  kind: string;
  started_at: string;
  duration_ms: string | number;
  events_written: string | number;
  markets_written: string | number;
  success: boolean;
  error: string | null;
}

/**
 * The newest sync runs. `hideIdleBackfill` leaves out backfill steps that succeeded and
 * wrote nothing: between two snapshots the backfill walks its windows in many such steps,
 * which would push the snapshots off the list.
 */
export async function recentSyncRuns(warehouse: Warehouse, options: { limit: number; hideIdleBackfill?: boolean }) {
  const idle = "kind = 'backfill' AND success AND events_written = 0 AND markets_written = 0";
  const rows = await warehouse.query<SyncRunRow>(
    `SELECT run_id, source, kind, toString(started_at) AS started_at, duration_ms, events_written, markets_written,
            success, error
     FROM internal.sync_run_history FINAL
     ${options.hideIdleBackfill ? `WHERE NOT (${idle})` : ""}
     ORDER BY started_at DESC
     LIMIT {limit:UInt32}`,
    { params: { limit: options.limit } },
  );
  return rows.map((row) => ({
    ...row,
    duration_ms: Number(row.duration_ms),
    events_written: Number(row.events_written),
    markets_written: Number(row.markets_written),
    success: Boolean(row.success),
  }));
}
