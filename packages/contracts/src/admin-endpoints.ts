/** The admin area's endpoints: the allow-list, the waitlist, users, sync and query runs. */
import { z } from "zod";
import {
  ZAddAllowListRequest,
  ZAdminQueryRuns,
  ZAdminSyncRuns,
  ZAdminUsers,
  ZAllowList,
  ZAllowListEntry,
  ZEmailParam,
  ZWaitlist,
} from "./admin";
import { defineEndpoint } from "./endpoint";
import { errorResponse as error, FORBIDDEN as forbidden, NO_CONTENT as noContent } from "./errors";

export const adminEndpoints = {
  adminListAllowList: defineEndpoint({
    method: "get",
    path: "/api/admin/allow-list",
    summary: "The allow-list, newest first",
    tag: "Admin",
    auth: "admin",
    responses: { 200: { description: "Entries", schema: ZAllowList }, 403: forbidden },
  }),
  adminAddAllowList: defineEndpoint({
    method: "post",
    path: "/api/admin/allow-list",
    summary: "Add an e-mail to the allow-list",
    tag: "Admin",
    auth: "admin",
    body: ZAddAllowListRequest,
    responses: { 201: { description: "Added", schema: ZAllowListEntry }, 403: forbidden },
  }),
  adminRemoveAllowList: defineEndpoint({
    method: "delete",
    path: "/api/admin/allow-list/{email}",
    summary: "Remove an e-mail from the allow-list",
    tag: "Admin",
    auth: "admin",
    params: ZEmailParam,
    responses: { 204: noContent, 403: forbidden, 404: error("Not on the allow-list") },
  }),
  adminListWaitlist: defineEndpoint({
    method: "get",
    path: "/api/admin/waitlist",
    summary: "The waitlist, newest first",
    tag: "Admin",
    auth: "admin",
    responses: { 200: { description: "Entries", schema: ZWaitlist }, 403: forbidden },
  }),
  adminApproveWaitlist: defineEndpoint({
    method: "post",
    path: "/api/admin/waitlist/{email}/approve",
    summary: "Allow-list a waiting e-mail and send it a magic link",
    tag: "Admin",
    auth: "admin",
    params: ZEmailParam,
    responses: { 200: { description: "Approved and mailed", schema: ZAllowListEntry }, 403: forbidden },
  }),
  adminRemoveWaitlist: defineEndpoint({
    method: "delete",
    path: "/api/admin/waitlist/{email}",
    summary: "Remove an e-mail from the waitlist",
    tag: "Admin",
    auth: "admin",
    params: ZEmailParam,
    responses: { 204: noContent, 403: forbidden, 404: error("Not on the waitlist") },
  }),
  adminListUsers: defineEndpoint({
    method: "get",
    path: "/api/admin/users",
    summary: "Users with their query and key counts",
    tag: "Admin",
    auth: "admin",
    responses: { 200: { description: "Users", schema: ZAdminUsers }, 403: forbidden },
  }),
  adminSyncRuns: defineEndpoint({
    method: "get",
    path: "/api/admin/sync-runs",
    summary: "Recent sync runs",
    tag: "Admin",
    auth: "admin",
    query: z.object({
      hide_idle_backfill: z
        .enum(["true", "false"])
        .optional()
        .describe("Leave out backfill steps that succeeded and wrote nothing (default false)"),
    }),
    responses: { 200: { description: "Runs, newest first", schema: ZAdminSyncRuns }, 403: forbidden },
  }),
  adminQueryRuns: defineEndpoint({
    method: "get",
    path: "/api/admin/query-runs",
    summary: "Recent query runs",
    tag: "Admin",
    auth: "admin",
    query: z.object({ errors_only: z.enum(["true", "false"]).optional() }),
    responses: { 200: { description: "Runs, newest first", schema: ZAdminQueryRuns }, 403: forbidden },
  }),
};
