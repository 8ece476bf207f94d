import { z } from "zod";
import { adminEndpoints } from "./admin-endpoints";
import { assistantEndpoints } from "./assistant";
import {
  ZClientConfig,
  ZMagicLinkRequest,
  ZMagicLinkResponse,
  ZRefreshRequest,
  ZSessionResponse,
  ZSessionTokens,
  ZVerifyRequest,
} from "./auth";
import { ZSampleData, ZSampleQuery, ZTable, ZTableList, ZTableParams, ZTablesQuery } from "./catalog";
import { crossVenueEndpoints } from "./crossvenue";
import { dashboardEndpoints } from "./dashboards";
import { defineEndpoint, QUERY_BODY_BYTES } from "./endpoint";
import { errorResponse, NO_CONTENT, UNAUTHORIZED, ZApiError } from "./errors";
import { ZExportQueryRequest } from "./export";
import { ZHealthResponse } from "./health";
import { ZApiKeyList, ZCreateApiKeyRequest, ZCreatedApiKey } from "./keys";
import { marketEndpoints } from "./markets";
import { ZQueryErrorDetails, ZRunQueryRequest, ZRunQueryResponse } from "./query";
import { ZQueryResult } from "./query-node";
import {
  ZCreateSavedQueryRequest,
  ZQueryStats,
  ZRunHistory,
  ZSavedQuery,
  ZSavedQueryList,
  ZUpdateSavedQueryRequest,
} from "./saved-queries";
import { ZSqlDialect } from "./sql-dialect";
import { ZSyncStatusResponse } from "./sync";

const error = errorResponse;
const noContent = NO_CONTENT;
const unauthorized = UNAUTHORIZED;

/** How a run of SQL can fail, alike for both run endpoints. */
const runFailures = {
  400: {
    description: "The SQL was refused or failed; details carry the position",
    schema: ZApiError.extend({ error: ZApiError.shape.error.extend({ details: ZQueryErrorDetails.optional() }) }),
  },
  401: unauthorized,
  404: error("No saved query with that id is visible to you"),
  503: error("Too many queries are waiting; retry after the Retry-After seconds"),
};

/** Every endpoint of the API, by name. Each area adds its own here. */
export const endpoints = {
  health: defineEndpoint({
    method: "get",
    path: "/health",
    summary: "Health of both stores",
    description: "No authentication. 200 when the warehouse and the app database both answer, else 503.",
    tag: "System",
    auth: "public",
    responses: {
      200: { description: "Both stores answer", schema: ZHealthResponse },
      503: { description: "A store does not answer", schema: ZHealthResponse },
    },
  }),
  openapi: defineEndpoint({
    method: "get",
    path: "/api/openapi.json",
    summary: "This OpenAPI document",
    tag: "System",
    auth: "public",
    responses: { 200: { description: "OpenAPI 3.1 document", schema: z.record(z.string(), z.unknown()) } },
  }),
  clientConfig: defineEndpoint({
    method: "get",
    path: "/api/config",
    summary: "Settings the web app needs before sign-in",
    tag: "System",
    auth: "public",
    responses: { 200: { description: "Client configuration", schema: ZClientConfig } },
  }),

  requestMagicLink: defineEndpoint({
    method: "post",
    path: "/api/auth/magic-link",
    summary: "E-mail a sign-in link",
    description:
      "Allow-listed e-mails get a single-use link that expires in 15 minutes. Others are put on the waitlist and answered 403 with a message containing 'not whitelisted'.",
    tag: "Auth",
    auth: "public",
    body: ZMagicLinkRequest,
    maxBodyBytes: 4 * 1024,
    responses: {
      200: { description: "The link was sent", schema: ZMagicLinkResponse },
      400: error("The e-mail is missing or malformed"),
      403: error("Not allow-listed: added to the waitlist"),
      429: error("Too many links asked for; try again later"),
    },
  }),
  verifyMagicLink: defineEndpoint({
    method: "post",
    path: "/api/auth/verify",
    summary: "Exchange a magic-link token for a session",
    tag: "Auth",
    auth: "public",
    body: ZVerifyRequest,
    maxBodyBytes: 4 * 1024,
    responses: {
      200: { description: "Signed in", schema: ZSessionTokens },
      400: error("The link is unknown, used or expired"),
      403: error("The e-mail is no longer allow-listed"),
    },
  }),
  refreshSession: defineEndpoint({
    method: "post",
    path: "/api/auth/refresh",
    summary: "Trade a refresh token for new tokens",
    tag: "Auth",
    auth: "public",
    body: ZRefreshRequest,
    maxBodyBytes: 4 * 1024,
    responses: { 200: { description: "New tokens", schema: ZSessionTokens }, 401: unauthorized },
  }),
  getSession: defineEndpoint({
    method: "get",
    path: "/api/auth/session",
    summary: "Who is signed in",
    description: "Answers for any valid session, allow-listed or not, so the app can show Access Denied.",
    tag: "Auth",
    auth: "public",
    responses: { 200: { description: "The signed-in user", schema: ZSessionResponse }, 401: unauthorized },
  }),
  signOut: defineEndpoint({
    method: "post",
    path: "/api/auth/sign-out",
    summary: "Revoke the current session",
    tag: "Auth",
    auth: "public",
    responses: { 204: noContent, 401: error("Auth session missing") },
  }),

  listApiKeys: defineEndpoint({
    method: "get",
    path: "/api/keys/list",
    summary: "Your API keys",
    tag: "API keys",
    auth: "session",
    responses: { 200: { description: "Live keys, newest first", schema: ZApiKeyList }, 401: unauthorized },
  }),
  createApiKey: defineEndpoint({
    method: "post",
    path: "/api/keys/create",
    summary: "Create an API key",
    description: "The full key is in this answer only; store it now.",
    tag: "API keys",
    auth: "session",
    body: ZCreateApiKeyRequest,
    responses: {
      201: { description: "The new key", schema: ZCreatedApiKey },
      400: error("Name or user id missing"),
      401: unauthorized,
      403: error("user_id is not yours"),
    },
  }),
  revokeApiKey: defineEndpoint({
    method: "delete",
    path: "/api/keys/{id}",
    summary: "Revoke an API key",
    tag: "API keys",
    auth: "session",
    params: z.object({ id: z.uuid("an API key id") }),
    responses: { 204: noContent, 401: unauthorized, 404: error("You have no such key") },
  }),

  runQuery: defineEndpoint({
    method: "post",
    path: "/api/query",
    summary: "Run SQL",
    description:
      "Runs one SELECT statement (ClickHouse dialect) over the polymarket, kalshi and crossvenue tables, or a saved query by id. Read-only, with a time limit, a memory limit and a row limit; `truncated` says when rows were cut. A refused or failing statement answers 400 with the engine's message and its position.",
    tag: "Query",
    auth: "session_or_key",
    query: z.object({
      query_id: z.uuid().optional().describe("Id of a saved query to run; the body's `query_id` says the same."),
    }),
    body: ZRunQueryRequest,
    maxBodyBytes: QUERY_BODY_BYTES,
    responses: {
      200: { description: "The result", schema: ZRunQueryResponse },
      ...runFailures,
    },
  }),
  runQueryRows: defineEndpoint({
    method: "post",
    path: "/api/query/rows",
    summary: "Run SQL, rows as value arrays",
    description:
      "The same run as `POST /api/query`, answered as one result value: `rows` holds one array of values per row, in column order. More compact than objects keyed by column name, and exact when two columns share a name. The editor uses it.",
    tag: "Query",
    auth: "session_or_key",
    body: ZRunQueryRequest,
    maxBodyBytes: QUERY_BODY_BYTES,
    responses: {
      200: { description: "The result", schema: ZQueryResult },
      ...runFailures,
    },
  }),
  exportQuery: defineEndpoint({
    method: "post",
    path: "/api/query/export",
    summary: "Download a result as CSV, JSON or Parquet",
    description:
      "Streams the whole result in the engine's own format, up to the row bound, not only the rows on screen.",
    tag: "Query",
    auth: "session_or_key",
    body: ZExportQueryRequest,
    maxBodyBytes: QUERY_BODY_BYTES,
    responses: {
      200: { description: "The file", contentType: "application/octet-stream" },
      400: error("The SQL was refused or failed"),
      401: unauthorized,
    },
  }),
  queryStats: defineEndpoint({
    method: "get",
    path: "/api/queries/stats",
    summary: "Run statistics of saved queries",
    description: "Runs, average runtime and last run per saved query. An empty list when statistics are unavailable.",
    tag: "Saved queries",
    auth: "session_or_key",
    responses: { 200: { description: "Statistics", schema: ZQueryStats }, 401: unauthorized },
  }),
  runHistory: defineEndpoint({
    method: "get",
    path: "/api/query/runs",
    summary: "Your recent runs",
    description:
      "The caller's last 50 runs from the editor, the API, the ClickHouse interface, MCP and Seismo, newest first: SQL, start, duration, rows and error. Runs of dashboards and pages are not listed.",
    tag: "Saved queries",
    auth: "session_or_key",
    responses: { 200: { description: "Runs, newest first", schema: ZRunHistory }, 401: unauthorized },
  }),
  listSavedQueries: defineEndpoint({
    method: "get",
    path: "/api/queries",
    summary: "Saved queries you can see",
    description: "Examples, public queries and your own, newest first.",
    tag: "Saved queries",
    auth: "session_or_key",
    responses: { 200: { description: "Queries", schema: ZSavedQueryList }, 401: unauthorized },
  }),
  createSavedQuery: defineEndpoint({
    method: "post",
    path: "/api/queries",
    summary: "Save a query",
    tag: "Saved queries",
    auth: "session",
    unauthenticatedMessage: "Not authenticated",
    body: ZCreateSavedQueryRequest,
    maxBodyBytes: QUERY_BODY_BYTES,
    responses: {
      201: { description: "Saved", schema: ZSavedQuery },
      400: error("Title or SQL missing"),
      401: unauthorized,
    },
  }),
  getSavedQuery: defineEndpoint({
    method: "get",
    path: "/api/queries/{id}",
    summary: "One saved query",
    tag: "Saved queries",
    auth: "session_or_key",
    params: z.object({ id: z.uuid("a saved query id") }),
    responses: { 200: { description: "The query", schema: ZSavedQuery }, 404: error("No such query visible to you") },
  }),
  updateSavedQuery: defineEndpoint({
    method: "patch",
    path: "/api/queries/{id}",
    summary: "Change one of your queries",
    tag: "Saved queries",
    auth: "session",
    params: z.object({ id: z.uuid("a saved query id") }),
    body: ZUpdateSavedQueryRequest,
    maxBodyBytes: QUERY_BODY_BYTES,
    responses: { 200: { description: "Changed", schema: ZSavedQuery }, 404: error("You have no such query") },
  }),
  deleteSavedQuery: defineEndpoint({
    method: "delete",
    path: "/api/queries/{id}",
    summary: "Delete one of your queries",
    tag: "Saved queries",
    auth: "session",
    params: z.object({ id: z.uuid("a saved query id") }),
    responses: { 204: noContent, 404: error("You have no such query") },
  }),

  sqlDialect: defineEndpoint({
    method: "get",
    path: "/api/sql/dialect",
    summary: "The engine's SQL keywords, functions and types",
    description: "Read from the engine itself (system.keywords, system.functions, system.data_type_families).",
    tag: "Query",
    auth: "session_or_key",
    responses: { 200: { description: "The dialect", schema: ZSqlDialect }, 401: unauthorized },
  }),
  listTables: defineEndpoint({
    method: "get",
    path: "/api/tables",
    summary: "The data catalog",
    tag: "Catalog",
    auth: "session_or_key",
    query: ZTablesQuery,
    responses: { 200: { description: "Tables", schema: ZTableList }, 401: unauthorized },
  }),
  getTable: defineEndpoint({
    method: "get",
    path: "/api/table/{namespace}/{table}",
    summary: "One table's schema and row count",
    tag: "Catalog",
    auth: "session_or_key",
    params: ZTableParams,
    responses: { 200: { description: "The table", schema: ZTable }, 404: error("No such table in the catalog") },
  }),
  sampleTable: defineEndpoint({
    method: "get",
    path: "/api/table/{namespace}/{table}/sample",
    summary: "Sample rows of a table",
    tag: "Catalog",
    auth: "session_or_key",
    params: ZTableParams,
    query: ZSampleQuery,
    responses: { 200: { description: "Sample rows", schema: ZSampleData }, 404: error("No such table in the catalog") },
  }),

  syncStatus: defineEndpoint({
    method: "get",
    path: "/api/sync/status",
    summary: "Where each source's archive stands",
    description:
      "Per source: status, last sync, open events tracked, counts, backfill offsets and recent runs; plus row counts per table.",
    tag: "Data",
    auth: "session_or_key",
    responses: { 200: { description: "Sync status", schema: ZSyncStatusResponse }, 401: unauthorized },
  }),
  syncStatusLegacy: defineEndpoint({
    method: "get",
    path: "/sync/status",
    summary: "Sync status (older path, same answer)",
    tag: "Data",
    auth: "session_or_key",
    responses: { 200: { description: "Sync status", schema: ZSyncStatusResponse }, 401: unauthorized },
  }),

  ...adminEndpoints,
  ...crossVenueEndpoints,
  ...assistantEndpoints,
  ...dashboardEndpoints,
  ...marketEndpoints,
} as const;
