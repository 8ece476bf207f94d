// The read-only admin views: users, recent sync runs, recent query runs.
import { endpoints } from "@epicenter/contracts";
import type { AppDb } from "@epicenter/db";
import type { Warehouse } from "@epicenter/warehouse";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { readQuery } from "../../http/errors";
import { mount } from "../../http/mount";
import { listUsers, recentQueryRuns, recentSyncRuns } from "../../services/admin/admin";
import type { QueryRunRecorder } from "../../services/queries/run-recorder";

export function getAdminUsers(app: Hono<AppEnv>, deps: { db: AppDb; adminEmails: readonly string[] }): void {
  mount(app, endpoints.adminListUsers, async (c) => {
    const users = await listUsers(deps.db, deps.adminEmails);
    return c.json(
      {
        users: users.map((user) => ({
          id: user.id,
          email: user.email,
          created_at: user.createdAt.toISOString(),
          last_seen_at: user.lastSeenAt?.toISOString() ?? null,
          query_count: user.queryCount,
          key_count: user.keyCount,
          is_admin: user.isAdmin,
        })),
      },
      200,
    );
  });
}

export function getAdminSyncRuns(app: Hono<AppEnv>, deps: { warehouse: Warehouse }): void {
  const query = endpoints.adminSyncRuns.query;
  mount(app, endpoints.adminSyncRuns, async (c) => {
    const { hide_idle_backfill } = readQuery(c, query);
    const runs = await recentSyncRuns(deps.warehouse, { limit: 100, hideIdleBackfill: hide_idle_backfill === "true" });
    return c.json({ runs }, 200);
  });
}

export function getAdminQueryRuns(app: Hono<AppEnv>, deps: { db: AppDb; queryRuns: QueryRunRecorder }): void {
  const query = endpoints.adminQueryRuns.query;
  mount(app, endpoints.adminQueryRuns, async (c) => {
    const { errors_only } = readQuery(c, query);
    // Runs are recorded write-behind; the list includes the one that just failed.
    await deps.queryRuns.flush();
    const runs = await recentQueryRuns(deps.db, { errorsOnly: errors_only === "true", limit: 200 });
    return c.json(
      {
        runs: runs.map((run) => ({
          id: run.id,
          email: run.email,
          origin: run.origin,
          sql: run.sql,
          started_at: run.startedAt.toISOString(),
          duration_ms: run.durationMs,
          row_count: run.rowCount,
          error: run.error,
        })),
      },
      200,
    );
  });
}
