import { z } from "zod";

export const ZAllowListEntry = z.object({
  email: z.string(),
  added_by: z.string().nullable(),
  is_admin: z.boolean(),
  created_at: z.iso.datetime(),
});
export type AllowListEntry = z.infer<typeof ZAllowListEntry>;
export const ZAllowList = z.object({ entries: z.array(ZAllowListEntry) }).meta({ id: "AllowList" });
export type AllowList = z.infer<typeof ZAllowList>;
export const ZAddAllowListRequest = z.object({ email: z.email("a valid e-mail address") });

export const ZWaitlist = z
  .object({ entries: z.array(z.object({ email: z.string(), created_at: z.iso.datetime() })) })
  .meta({ id: "Waitlist" });
export type Waitlist = z.infer<typeof ZWaitlist>;

export const ZAdminUsers = z
  .object({
    users: z.array(
      z.object({
        id: z.uuid(),
        email: z.string(),
        created_at: z.iso.datetime(),
        last_seen_at: z.iso.datetime().nullable(),
        query_count: z.number().int(),
        key_count: z.number().int(),
        is_admin: z.boolean(),
      }),
    ),
  })
  .meta({ id: "AdminUsers" });
export type AdminUsers = z.infer<typeof ZAdminUsers>;

export const ZAdminSyncRuns = z
  .object({
    runs: z.array(
      z.object({
        run_id: z.string(),
        source: z.string(),
        kind: z.string(),
        started_at: z.string(),
        duration_ms: z.number(),
        events_written: z.number(),
        markets_written: z.number(),
        success: z.boolean(),
        error: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: "AdminSyncRuns" });
export type AdminSyncRuns = z.infer<typeof ZAdminSyncRuns>;

export const ZAdminQueryRuns = z
  .object({
    runs: z.array(
      z.object({
        id: z.uuid(),
        email: z.string().nullable(),
        origin: z.string(),
        sql: z.string(),
        started_at: z.iso.datetime(),
        duration_ms: z.number().int(),
        row_count: z.number().int(),
        error: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: "AdminQueryRuns" });
export type AdminQueryRuns = z.infer<typeof ZAdminQueryRuns>;

export const ZEmailParam = z.object({ email: z.email("a valid e-mail address") });
