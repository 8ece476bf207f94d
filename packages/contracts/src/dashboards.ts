/**
 * What the catalog, dashboards, hub and landing screens need beyond the query service:
 * live platform statistics (`GET /api/stats`, and `GET /stats` of SPEC §7) and the
 * dashboards. A dashboard and its tiles are plain data values tagged with a `kind`
 * (STYLE.md), so the definition the server serves, the one the SPA draws and the SQL a
 * tile opens in the editor are the same value.
 */
import { z } from "zod";
import { defineEndpoint, type Endpoint } from "./endpoint";
import { ZApiError } from "./errors";
import { ZQueryErrorDetails } from "./query";
import { ZQueryNode, ZQueryResult, ZQueryView } from "./query-node";
import { VENUES, ZVenue } from "./venues";

const error = (description: string) => ({ description, schema: ZApiError });
const unauthorized = error("No valid session or API key");

// ── Platform statistics ──────────────────────────────────────────────────────────────

export const ZSourceStats = z.object({
  markets: z.number().int().nonnegative().describe("Distinct markets ever archived"),
  events: z.number().int().nonnegative().describe("Distinct events ever archived"),
  open_markets: z.number().int().nonnegative().describe("Markets open for trading in their latest snapshot"),
  zero_volume_markets: z
    .number()
    .int()
    .nonnegative()
    .describe("Markets whose latest cumulative volume is zero (or missing)"),
  last_sync: z.iso.datetime().nullable().describe("End of the last successful snapshot run"),
});
export type SourceStats = z.infer<typeof ZSourceStats>;

export const ZPlatformStats = z
  .object({
    timestamp: z.iso.datetime(),
    markets_tracked: z.number().int().nonnegative().describe("Distinct markets across both venues"),
    events_tracked: z.number().int().nonnegative(),
    snapshot_rows: z.number().int().nonnegative().describe("Rows in the four snapshot tables"),
    freshness_seconds: z
      .number()
      .int()
      .nonnegative()
      .nullable()
      .describe("Seconds since the last successful snapshot run of any source; null before the first"),
    last_sync: z.iso.datetime().nullable(),
    archive_start: z.iso.datetime().nullable().describe("The oldest sync_timestamp in the archive"),
    sources: z.number().int().describe("Number of venues archived (2)"),
    by_source: z.record(ZVenue, ZSourceStats),
  })
  .meta({ id: "PlatformStats" });
export type PlatformStats = z.infer<typeof ZPlatformStats>;

// ── Dashboards ───────────────────────────────────────────────────────────────────────

/** How a value reads: Polymarket money is USDC, Kalshi volume is contracts. */
export const ZValueFormat = z.enum([
  "count",
  "usd",
  "price",
  "cents",
  "contracts",
  "probability",
  "percent",
  "datetime",
  "text",
]);
export type ValueFormat = z.infer<typeof ZValueFormat>;

/** A tile: a query node (its SQL, its title, its view) placed on a dashboard. */
export const ZDashboardTile = z
  .object({
    kind: z.literal("tile"),
    id: z.string().regex(/^[a-z0-9-]+$/),
    description: z.string().nullable(),
    node: ZQueryNode.extend({ title: z.string(), view: ZQueryView }).describe(
      "The SQL the tile runs (through the same query service as the editor), its title and how it is drawn",
    ),
    size: z.enum(["sm", "md", "lg"]).describe("sm: a quarter row, md: half, lg: the whole row"),
    formats: z.record(z.string(), ZValueFormat).describe("How to read each column's values"),
    empty: z
      .string()
      .nullable()
      .describe("What the tile says when its query returns no rows; null for the dashboards' general words"),
  })
  .meta({ id: "DashboardTile" });
export type DashboardTile = z.infer<typeof ZDashboardTile>;

export const ZDashboardSummary = z.object({
  kind: z.literal("dashboard"),
  id: z.string(),
  title: z.string(),
  description: z.string(),
  category: z.string().nullable(),
  refresh: z.string().nullable().describe("How often it refreshes, e.g. 5min"),
  refresh_seconds: z.number().int().nullable(),
  availability: z.enum(["available", "coming_soon"]),
  source: z.enum([...VENUES, "both"]),
  tile_count: z.number().int().nonnegative(),
});
export type DashboardSummary = z.infer<typeof ZDashboardSummary>;

export const ZDashboard = ZDashboardSummary.extend({ tiles: z.array(ZDashboardTile) }).meta({ id: "Dashboard" });
export type Dashboard = z.infer<typeof ZDashboard>;

export const ZDashboardList = z
  .object({ dashboards: z.array(ZDashboardSummary), count: z.number().int() })
  .meta({ id: "DashboardList" });

export const ZDashboardParams = z.object({ id: z.string().regex(/^[a-z0-9-]+$/, "a dashboard id") });
export const ZTileParams = ZDashboardParams.extend({ tileId: z.string().regex(/^[a-z0-9-]+$/, "a tile id") });

export const ZTileResult = ZQueryResult.extend({
  dashboard_id: z.string(),
  tile_id: z.string(),
  ran_at: z.iso.datetime(),
}).meta({ id: "TileResult" });
export type TileResult = z.infer<typeof ZTileResult>;

/** The dashboards' and statistics endpoints; merged into `endpoints`. */
export const dashboardEndpoints = {
  platformStats: defineEndpoint({
    method: "get",
    path: "/api/stats",
    summary: "Live platform statistics",
    description:
      "Computed from the warehouse on each call: distinct markets and events across both venues, rows archived, freshness (seconds since the last successful snapshot), the archive's first snapshot, and per-venue counts.",
    tag: "Data",
    auth: "session_or_key",
    responses: { 200: { description: "Statistics", schema: ZPlatformStats }, 401: unauthorized },
  }),
  platformStatsLegacy: defineEndpoint({
    method: "get",
    path: "/stats",
    summary: "Platform statistics (older path, same answer)",
    tag: "Data",
    auth: "session_or_key",
    responses: { 200: { description: "Statistics", schema: ZPlatformStats }, 401: unauthorized },
  }),
  listDashboards: defineEndpoint({
    method: "get",
    path: "/api/dashboards",
    summary: "The dashboards",
    tag: "Dashboards",
    auth: "session_or_key",
    responses: { 200: { description: "Dashboards, available first", schema: ZDashboardList }, 401: unauthorized },
  }),
  getDashboard: defineEndpoint({
    method: "get",
    path: "/api/dashboards/{id}",
    summary: "One dashboard with its tiles",
    tag: "Dashboards",
    auth: "session_or_key",
    params: ZDashboardParams,
    responses: {
      200: { description: "The dashboard", schema: ZDashboard },
      401: unauthorized,
      404: error("No such dashboard"),
    },
  }),
  runDashboardTile: defineEndpoint({
    method: "get",
    path: "/api/dashboards/{id}/tiles/{tileId}",
    summary: "Run one tile's query",
    description:
      "Runs the tile's SQL through the query service (recorded with origin 'dashboard') and answers its rows. A failing query answers 400 with the engine's message.",
    tag: "Dashboards",
    auth: "session_or_key",
    params: ZTileParams,
    responses: {
      200: { description: "The tile's rows", schema: ZTileResult },
      400: {
        description: "The tile's query failed",
        schema: ZApiError.extend({ error: ZApiError.shape.error.extend({ details: ZQueryErrorDetails.optional() }) }),
      },
      401: unauthorized,
      404: error("No such dashboard or tile"),
    },
  }),
} satisfies Record<string, Endpoint>;
