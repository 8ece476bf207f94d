/**
 * The screens' endpoints over real chDB and PGlite: platform statistics computed from
 * the warehouse (checked against the same numbers asked in SQL), and every tile of both
 * Pulse dashboards running through the query service on generated history plus one real
 * sync run against the replay server.
 */
import {
  type Dashboard,
  type DashboardSummary,
  type PlatformStats,
  rowsAsObjects,
  type TileResult,
} from "@epicenter/contracts";
import {
  generateDemoHistory,
  type ReplayServer,
  replayIngestConfig,
  runSync,
  silentLogger,
  startReplayServer,
} from "@epicenter/ingest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "../../testing/sign-in";
import { createTestApp, type TestApp } from "../../testing/test-app";

const USER = "screens@example.com";

let t: TestApp;
let replay: ReplayServer;
let token: string;

const get = (path: string, auth = true) =>
  t.app.request(path, auth ? { headers: { authorization: `Bearer ${token}` } } : {});

beforeAll(async () => {
  t = await createTestApp({ env: { ALLOWED_EMAILS: USER } });
  token = (await signIn(t, USER)).access_token;
});

afterAll(async () => {
  await replay?.close();
  await t?.close();
});

describe("GET /api/stats", () => {
  it("answers zeros and nulls on an empty warehouse", async () => {
    const response = await get("/api/stats");
    expect(response.status).toBe(200);
    const stats = (await response.json()) as PlatformStats;
    expect(stats).toMatchObject({
      markets_tracked: 0,
      freshness_seconds: null,
      last_sync: null,
      archive_start: null,
      sources: 2,
    });
  });

  it("computes markets, archive start and freshness from the warehouse after history and a sync", async () => {
    const history = await generateDemoHistory(t.stores.warehouse, { days: 7, intervalMinutes: 60 });
    replay = await startReplayServer({});
    const deps = {
      warehouse: t.stores.warehouse,
      config: replayIngestConfig(replay),
      logger: silentLogger,
    };
    expect((await runSync(deps, { source: "polymarket" })).success).toBe(true);
    expect((await runSync(deps, { source: "kalshi" })).success).toBe(true);

    const response = await get("/stats");
    expect(response.status).toBe(200);
    const stats = (await response.json()) as PlatformStats;
    const [truth] = await t.stores.warehouse.query<{ markets: string; start: string; zero: string }>(
      `SELECT
         (SELECT uniqExact(id) FROM polymarket.markets) + (SELECT uniqExact(ticker) FROM kalshi.markets) AS markets,
         toString(least((SELECT min(sync_timestamp) FROM polymarket.markets), (SELECT min(sync_timestamp) FROM kalshi.markets))) AS start,
         (SELECT countIf(ifNull(volume, 0) = 0) FROM kalshi.markets_latest FINAL) AS zero`,
    );
    expect(stats.markets_tracked).toBe(Number(truth?.markets));
    expect(stats.markets_tracked).toBeGreaterThan(0);
    expect(stats.archive_start).toBe(`${truth?.start.replace(" ", "T")}Z`);
    expect(stats.archive_start).toBe(`${history.from.replace(" ", "T")}Z`);
    expect(stats.by_source.kalshi.zero_volume_markets).toBe(Number(truth?.zero));
    expect(stats.freshness_seconds).toBeGreaterThanOrEqual(0);
    expect(stats.freshness_seconds).toBeLessThan(60);
    expect(stats.last_sync).not.toBeNull();
    expect(stats.snapshot_rows).toBeGreaterThan(stats.markets_tracked);
  });

  it("needs a session or a key", async () => {
    expect((await get("/api/stats", false)).status).toBe(401);
  });
});

describe("the catalog's descriptions", () => {
  it("describes all twelve market tables, history included, and every one of their columns", async () => {
    const response = await get("/api/tables");
    const { tables } = (await response.json()) as {
      tables: Array<{
        full_name: string;
        description: string | null;
        columns: Array<{ name: string; description: string | null }>;
      }>;
    };
    expect(tables.map((table) => table.full_name).sort()).toEqual([
      "kalshi.candles",
      "kalshi.events",
      "kalshi.events_latest",
      "kalshi.markets",
      "kalshi.markets_latest",
      "kalshi.trades",
      "polymarket.events",
      "polymarket.events_latest",
      "polymarket.markets",
      "polymarket.markets_latest",
      "polymarket.prices",
      "polymarket.trades",
    ]);
    const missing = tables.flatMap((table) => [
      ...(table.description ? [] : [table.full_name]),
      ...table.columns.filter((column) => !column.description).map((column) => `${table.full_name}.${column.name}`),
    ]);
    expect(missing).toEqual([]);
  });
});

describe("the dashboards", () => {
  it("lists the spec's three dashboards, the arbitrage monitor coming soon", async () => {
    const response = await get("/api/dashboards");
    expect(response.status).toBe(200);
    const { dashboards } = (await response.json()) as { dashboards: DashboardSummary[] };
    expect(dashboards.map((d) => [d.id, d.title, d.category, d.refresh, d.availability])).toEqual([
      ["polymarket-pulse", "Polymarket Pulse", "monitoring", "5min", "available"],
      ["kalshi-pulse", "Kalshi Pulse", "monitoring", "5min", "available"],
      ["arbitrage-monitor", "Cross-Platform Arbitrage", null, null, "coming_soon"],
    ]);
  });

  for (const id of ["polymarket-pulse", "kalshi-pulse"]) {
    it(`runs every tile of ${id} with rows and no error`, async () => {
      const dashboard = (await (await get(`/api/dashboards/${id}`)).json()) as Dashboard;
      expect(dashboard.tiles.length).toBeGreaterThanOrEqual(10);
      for (const tile of dashboard.tiles) {
        const response = await get(`/api/dashboards/${id}/tiles/${tile.id}`);
        expect(response.status, `${tile.id}: ${await response.clone().text()}`).toBe(200);
        const result = (await response.json()) as TileResult;
        expect(result.row_count, tile.id).toBeGreaterThan(0);
        const view = tile.node.view;
        if (view.kind === "number") expect(Number(rowsAsObjects(result)[0]?.[view.column]), tile.id).toBeGreaterThan(0);
        if (view.kind === "chart") {
          const names = result.columns.map((column) => column.name);
          expect(names, tile.id).toEqual(expect.arrayContaining([view.x, ...view.y]));
        }
      }
    });
  }

  it("answers 404 for an unknown dashboard or tile", async () => {
    expect((await get("/api/dashboards/nope")).status).toBe(404);
    expect((await get("/api/dashboards/kalshi-pulse/tiles/nope")).status).toBe(404);
  });
});
