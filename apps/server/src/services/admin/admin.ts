/**
 * What the admin area reads and changes, as plain functions over the two stores, answering
 * in the API's shapes (`packages/contracts/src/admin.ts`).
 */
import type { AdminQueryRuns, AdminUsers, AllowListEntry as AllowListEntryJson, Waitlist } from "@epicenter/contracts";
import {
  type AllowListEntry,
  type AppDb,
  addToAllowList,
  listAllowList,
  listUsersWithCounts,
  listWaitlist,
  removeFromAllowList,
  removeFromWaitlist,
  schema,
} from "@epicenter/db";
import type { Warehouse } from "@epicenter/warehouse";
import { desc, eq, isNotNull } from "drizzle-orm";
import { type MagicLinkDeps, requestMagicLink } from "../access/magic-link";
import { roleFrom } from "../access/principal";
import type { Mailer } from "../mail/mailer";
import type { QueryRunRecorder } from "../queries/run-recorder";

export interface AdminDeps {
  db: AppDb;
  /** `ADMIN_EMAILS`: admins whatever their allow-list entry says. */
  adminEmails: readonly string[];
}

/** An entry as the admin area shows it, with the role its e-mail signs in with. */
function allowListEntryJson(entry: AllowListEntry, adminEmails: readonly string[]): AllowListEntryJson {
  return {
    email: entry.email,
    added_by: entry.addedBy,
    is_admin: roleFrom({ adminEmails }, entry.email, entry).isAdmin,
    created_at: entry.createdAt.toISOString(),
  };
}

export async function allowListView(deps: AdminDeps): Promise<{ entries: AllowListEntryJson[] }> {
  const entries = await listAllowList(deps.db);
  return { entries: entries.map((entry) => allowListEntryJson(entry, deps.adminEmails)) };
}

export async function allowEmail(deps: AdminDeps, email: string, addedBy: string): Promise<AllowListEntryJson> {
  return allowListEntryJson(await addToAllowList(deps.db, email, addedBy), deps.adminEmails);
}

/** False when the e-mail was not on the allow-list. */
export function disallowEmail(deps: Pick<AdminDeps, "db">, email: string): Promise<boolean> {
  return removeFromAllowList(deps.db, email);
}

export async function waitlistView(deps: Pick<AdminDeps, "db">): Promise<Waitlist> {
  const entries = await listWaitlist(deps.db);
  return { entries: entries.map((entry) => ({ email: entry.email, created_at: entry.createdAt.toISOString() })) };
}

/** False when the e-mail was not waiting. */
export function dropWaitlisted(deps: Pick<AdminDeps, "db">, email: string): Promise<boolean> {
  return removeFromWaitlist(deps.db, email);
}

/** Allow-lists a waiting e-mail, sends it a sign-in link, and takes it off the waitlist. */
export async function approveWaitlisted(
  deps: MagicLinkDeps & { mailer: Mailer; adminEmails: readonly string[] },
  email: string,
  approvedBy: string,
): Promise<AllowListEntryJson> {
  const entry = await addToAllowList(deps.db, email, approvedBy);
  // The admin's approval is not subject to the callers' limits.
  const unlimited = { consume: async () => {}, takeWaitlistPlace: async () => {}, returnWaitlistPlace: async () => {} };
  await requestMagicLink({ ...deps, limits: unlimited }, { email: entry.email });
  await removeFromWaitlist(deps.db, entry.email);
  return allowListEntryJson(entry, deps.adminEmails);
}

export async function usersView(deps: AdminDeps): Promise<AdminUsers> {
  const { db, adminEmails } = deps;
  const users = await listUsersWithCounts(db);
  const admins = new Set(
    (
      await db
        .select({ email: schema.whitelistEmails.email })
        .from(schema.whitelistEmails)
        .where(eq(schema.whitelistEmails.isAdmin, true))
    ).map((row) => row.email),
  );
  return {
    users: users.map((user) => ({
      id: user.id,
      email: user.email,
      created_at: user.createdAt.toISOString(),
      last_seen_at: user.lastSeenAt?.toISOString() ?? null,
      query_count: user.queryCount,
      key_count: user.keyCount,
      is_admin: adminEmails.includes(user.email) || admins.has(user.email),
    })),
  };
}

/** The newest query runs, after the runs still waiting to be written are written. */
export async function recentQueryRuns(
  deps: { db: AppDb; queryRuns: Pick<QueryRunRecorder, "flush"> },
  options: { errorsOnly: boolean; limit: number },
): Promise<AdminQueryRuns> {
  await deps.queryRuns.flush();
  const { queryRuns: runs, users } = schema;
  const rows = await deps.db
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
  return {
    runs: rows.map((run) => ({
      id: run.id,
      email: run.email,
      origin: run.origin,
      sql: run.sql,
      started_at: run.startedAt.toISOString(),
      duration_ms: run.durationMs,
      row_count: run.rowCount,
      error: run.error,
    })),
  };
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
 * The newest sync runs, history steps listed like backfill steps. `hideIdleBackfill` leaves
 * out backfill and history steps that succeeded and wrote nothing: between two snapshots
 * the backfill walks its windows in many such steps, which would push the snapshots off.
 */
export async function recentSyncRuns(warehouse: Warehouse, options: { limit: number; hideIdleBackfill?: boolean }) {
  const idle = "kind IN ('backfill', 'history') AND success AND events_written = 0 AND markets_written = 0";
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
