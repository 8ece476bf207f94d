/**
 * The dashboards' and statistics endpoints over real chDB and PGlite: platform statistics computed from
 * the warehouse (checked against the same numbers asked in SQL), and every tile of the
 * three dashboards running through the query service on generated history plus one real
 * sync run against the replay server and the cross-venue matcher after it.
 */
import {
  type Dashboard,
  type DashboardSummary,
  type PlatformStats,
  rowsAsObjects,
  type TileResult,
  ZMarketBook,
} from "@epicenter/contracts";
import {
  captureBooks,
  generateDemoHistory,
  type ReplayServer,
  replayIngestConfig,
  runMatcher,
  runSync,
  silentLogger,
  startReplayServer,
} from "@epicenter/ingest";
import { toDateTime64 } from "@epicenter/warehouse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "../../testing/sign-in";
import { createTestApp, type TestApp } from "../../testing/test-app";

const USER = "screens@example.com";
const ADMIN = "screens-admin@example.com";

let t: TestApp;
let replay: ReplayServer;
let token: string;
let adminToken: string;

const get = (path: string, auth = true) =>
  t.app.request(path, auth ? { headers: { authorization: `Bearer ${token}` } } : {});

beforeAll(async () => {
  t = await createTestApp({ env: { ALLOWED_EMAILS: USER, ADMIN_EMAILS: ADMIN } });
  token = (await signIn(t, USER)).access_token;
  adminToken = (await signIn(t, ADMIN)).access_token;
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
    // As the scheduler does after each snapshot: the open markets' books, then the
    // questions both venues ask, paired.
    for (const source of ["polymarket", "kalshi"] as const) {
      const run = await runSync(deps, { source });
      expect(run.success).toBe(true);
      expect((await captureBooks(deps, source, run.sync_timestamp, { intervalSeconds: 600 })).captured).toBeGreaterThan(
        0,
      );
    }
    expect((await runMatcher(deps)).sameContract).toBeGreaterThan(0);

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
  it("describes all thirty-eight market tables, history, the coverage ledger, the books, the as-of views, the resolutions ledger, the live feeds' tables and cross-venue pairs included, and every one of their columns", async () => {
    const response = await get("/api/tables");
    const { tables } = (await response.json()) as {
      tables: Array<{
        full_name: string;
        description: string | null;
        columns: Array<{ name: string; description: string | null }>;
      }>;
    };
    expect(tables.map((table) => table.full_name).sort()).toEqual([
      "crossvenue.event_pairs",
      "crossvenue.market_pairs",
      "crossvenue.resolutions",
      "kalshi.book_asof",
      "kalshi.book_changes",
      "kalshi.book_coverage",
      "kalshi.book_levels",
      "kalshi.books",
      "kalshi.candles",
      "kalshi.coverage",
      "kalshi.coverage_days",
      "kalshi.events",
      "kalshi.events_latest",
      "kalshi.markets",
      "kalshi.markets_asof",
      "kalshi.markets_latest",
      "kalshi.resolutions",
      "kalshi.stream_gaps",
      "kalshi.stream_sessions",
      "kalshi.trades",
      "polymarket.book_asof",
      "polymarket.book_changes",
      "polymarket.book_coverage",
      "polymarket.book_levels",
      "polymarket.books",
      "polymarket.coverage",
      "polymarket.coverage_days",
      "polymarket.daily_closes",
      "polymarket.events",
      "polymarket.events_latest",
      "polymarket.markets",
      "polymarket.markets_asof",
      "polymarket.markets_latest",
      "polymarket.prices",
      "polymarket.resolutions",
      "polymarket.stream_gaps",
      "polymarket.stream_sessions",
      "polymarket.trades",
    ]);
    const missing = tables.flatMap((table) => [
      ...(table.description ? [] : [table.full_name]),
      ...table.columns.filter((column) => !column.description).map((column) => `${table.full_name}.${column.name}`),
    ]);
    expect(missing).toEqual([]);
    // The engine's system.columns leaves parameterised views out; the catalog has their columns.
    const asOf = tables.find((table) => table.full_name === "kalshi.book_asof");
    expect(asOf?.columns.map((column) => column.name)).toEqual([
      "ticker",
      "captured_at",
      "book_timestamp",
      "side",
      "level",
      "price",
      "size",
      "captured_by",
    ]);
    const markets = tables.find((table) => table.full_name === "polymarket.markets_asof");
    expect(markets?.columns.map((column) => column.name).slice(0, 3)).toEqual(["captured_at", "sync_timestamp", "id"]);
  });
});

describe("the dashboards", () => {
  it("lists the spec's three dashboards, all available", async () => {
    const response = await get("/api/dashboards");
    expect(response.status).toBe(200);
    const { dashboards } = (await response.json()) as { dashboards: DashboardSummary[] };
    expect(dashboards.map((d) => [d.id, d.title, d.category, d.refresh, d.availability])).toEqual([
      ["polymarket-pulse", "Polymarket Pulse", "monitoring", "5min", "available"],
      ["kalshi-pulse", "Kalshi Pulse", "monitoring", "5min", "available"],
      ["arbitrage-monitor", "Cross-Platform Arbitrage", "monitoring", "5min", "available"],
    ]);
  });

  it("lists the matcher's own pairs apart, and prices only pairs someone checked", async () => {
    const tile = async (id: string) =>
      rowsAsObjects((await (await get(`/api/dashboards/arbitrage-monitor/tiles/${id}`)).json()) as TileResult);
    const unchecked = await tile("unchecked-pairs");
    expect(unchecked.length).toBeGreaterThan(1);
    expect(new Set(unchecked.map((row) => row.method))).toEqual(new Set(["auto"]));
    expect(await tile("open-pairs")).toEqual([]);
    // An admin reads both rules and confirms two of them: they move to the checked figures.
    for (const row of unchecked.slice(0, 2)) {
      const response = await t.app.request(
        `/api/admin/crossvenue/pairs/${row.polymarket_id}/${row.kalshi_ticker}/confirm`,
        {
          method: "POST",
          headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
          body: "{}",
        },
      );
      expect(response.status).toBe(200);
    }
    const checked = await tile("open-pairs");
    expect(checked.map((row) => row.kalshi_ticker).sort()).toEqual(
      unchecked
        .slice(0, 2)
        .map((row) => row.kalshi_ticker)
        .sort(),
    );
    expect(new Set(checked.map((row) => row.method))).toEqual(new Set(["confirmed"]));
    expect((await tile("unchecked-pairs")).length).toBe(unchecked.length - 2);
    const [count] = await tile("same-contract-pairs");
    expect(Number(count?.pairs)).toBe(2);

    // Books deep enough for both order sizes on the two checked pairs, captured now: the
    // replay's books move by the minute, and a thin one would leave the executable gap empty.
    const now = toDateTime64(Date.now());
    const deep = (mid: number) => {
      const levels = Array.from({ length: 10 }, (_, i) => i + 1);
      return {
        book_timestamp: null,
        state: "active",
        bid_price: levels.map((i) => (mid - i / 100).toFixed(4)),
        bid_size: levels.map((i) => 400 + 50 * i),
        ask_price: levels.map((i) => (mid + i / 100).toFixed(4)),
        ask_size: levels.map((i) => 300 + 70 * i),
      };
    };
    await t.stores.warehouse.insert(
      "polymarket.books",
      checked.map((row) => ({ sync_timestamp: now, id: row.polymarket_id, ...deep(0.4) })),
    );
    await t.stores.warehouse.insert(
      "kalshi.books",
      checked.map((row) => ({ sync_timestamp: now, ticker: row.kalshi_ticker, ...deep(0.45) })),
    );
  });

  for (const [id, tiles] of [
    ["polymarket-pulse", 10],
    ["kalshi-pulse", 10],
    ["arbitrage-monitor", 10],
  ] as const) {
    it(`runs every tile of ${id} with rows and no error`, async () => {
      const dashboard = (await (await get(`/api/dashboards/${id}`)).json()) as Dashboard;
      expect(dashboard.tiles.length).toBeGreaterThanOrEqual(tiles);
      for (const tile of dashboard.tiles) {
        const response = await get(`/api/dashboards/${id}/tiles/${tile.id}`);
        expect(response.status, `${tile.id}: ${await response.clone().text()}`).toBe(200);
        const result = (await response.json()) as TileResult;
        expect(result.row_count, tile.id).toBeGreaterThan(0);
        const view = tile.node.view;
        if (view.kind === "number") expect(Number(rowsAsObjects(result)[0]?.[view.column]), tile.id).toBeGreaterThan(0);
        if (view.kind === "chart") {
          const names = result.columns.map((column) => column.name);
          expect(names, tile.id).toEqual(
            expect.arrayContaining([view.x, ...view.y, ...(view.series ? [view.series] : [])]),
          );
        }
      }
    });
  }

  for (const [id, figure, column] of [
    ["polymarket-pulse", "volume-24h", "volume"],
    ["kalshi-pulse", "contracts-24h", "contracts"],
  ] as const) {
    it(`gives ${id}'s 24h volume one definition: its hourly chart adds up to it (issue 24, #8)`, async () => {
      const tileRows = async (tile: string) =>
        rowsAsObjects((await (await get(`/api/dashboards/${id}/tiles/${tile}`)).json()) as TileResult);
      const [total] = await tileRows(figure);
      const hours = await tileRows("trading-per-hour");
      const [traded] = await tileRows("markets-traded-24h");
      const sum = hours.reduce((acc, row) => acc + Number(row[column]), 0);
      expect(Number(Object.values(total ?? {})[0])).toBeGreaterThan(0);
      // Each hour is rounded on its own: at most half a unit apart per hour.
      expect(Math.abs(sum - Number(Object.values(total ?? {})[0]))).toBeLessThanOrEqual(hours.length / 2);
      const busiestHour = Math.max(...hours.map((row) => Number(row.markets_traded)));
      expect(Number(traded?.markets_traded)).toBeGreaterThanOrEqual(busiestHour);
    });
  }

  it("prices each open pair's gap from both venues' quotes, after the spread and Kalshi's taker fee", async () => {
    const response = await get("/api/dashboards/arbitrage-monitor/tiles/open-pairs");
    const rows = rowsAsObjects((await response.json()) as TileResult);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const [pmBid, pmAsk, kBid, kAsk] = [row.polymarket_bid, row.polymarket_ask, row.kalshi_bid, row.kalshi_ask].map(
        Number,
      ) as [number, number, number, number];
      const buyPolymarket = kBid - pmAsk;
      const buyKalshi = pmBid - kAsk;
      const kalshiPrice = buyPolymarket >= buyKalshi ? kBid : kAsk;
      // The replay's Polymarket markets have no fee schedule: Kalshi's fee alone.
      const afterFees = Math.max(buyPolymarket, buyKalshi) - 0.07 * kalshiPrice * (1 - kalshiPrice);
      expect(Number(row.gross_gap), String(row.question)).toBeCloseTo(
        Math.abs((pmBid + pmAsk) / 2 - (kBid + kAsk) / 2),
        3,
      );
      expect(Number(row.gap_after_spread), String(row.question)).toBeCloseTo(Math.max(buyPolymarket, buyKalshi), 3);
      expect(Number(row.gap_after_fees), String(row.question)).toBeCloseTo(afterFees, 3);
      expect(row.buy_first_outcome_on).toBe(buyPolymarket >= buyKalshi ? "Polymarket" : "Kalshi");
    }
    // Widest gap after fees first.
    const gaps = rows.map((row) => Number(row.gap_after_fees));
    expect(gaps).toEqual([...gaps].sort((a, b) => b - a));
  });

  it("prices the executable gap at each size from both captured books, as the market page fills them", async () => {
    const rows = rowsAsObjects(
      (await (await get("/api/dashboards/arbitrage-monitor/tiles/executable-gap")).json()) as TileResult,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect([100, 1000]).toContain(Number(row.order_usd));
    // The two checked pairs' books hold both sizes.
    expect(rows.filter((row) => Number(row.order_usd) === 1000).length).toBeGreaterThanOrEqual(2);
    const book = async (venue: string, id: unknown) =>
      ZMarketBook.parse(await (await get(`/api/markets/${venue}/${String(id)}/book`)).json());
    // A size left out is one neither direction's two legs can fill from the ten levels.
    for (const row of rows.filter((r) => Number(r.order_usd) === 100)) {
      if (rows.some((r) => r.polymarket_id === row.polymarket_id && Number(r.order_usd) === 1000)) continue;
      const [pm, kalshi] = await Promise.all([
        book("polymarket", row.polymarket_id),
        book("kalshi", row.kalshi_ticker),
      ]);
      const complete = (answer: typeof pm, side: "buy" | "sell") =>
        answer.fills.find((f) => f.usd === 1000 && f.side === side)?.complete === true;
      expect(complete(pm, "buy") && complete(kalshi, "sell")).toBe(false);
      expect(complete(pm, "sell") && complete(kalshi, "buy")).toBe(false);
    }
    let compared = 0;
    for (const row of rows) {
      const [pm, kalshi] = await Promise.all([
        book("polymarket", row.polymarket_id),
        book("kalshi", row.kalshi_ticker),
      ]);
      const usd = Number(row.order_usd);
      const fill = (answer: typeof pm, side: "buy" | "sell") =>
        answer.fills.find((f) => f.usd === usd && f.side === side);
      const buysPolymarket = row.buy_first_outcome_on === "Polymarket";
      const pmFill = fill(pm, buysPolymarket ? "buy" : "sell");
      const kalshiFill = fill(kalshi, buysPolymarket ? "sell" : "buy");
      // The confirmed pairs here read Kalshi's yes side (orientation same).
      expect(pmFill?.complete && kalshiFill?.complete, String(row.question)).toBe(true);
      expect(Number(row.polymarket_fill)).toBeCloseTo(pmFill?.price ?? Number.NaN, 3);
      expect(Number(row.kalshi_fill)).toBeCloseTo(kalshiFill?.price ?? Number.NaN, 3);
      const [p, k] = [pmFill?.price ?? 0, kalshiFill?.price ?? 0];
      const gap = buysPolymarket ? k - p : p - k;
      expect(Number(row.executable_gap_after_fees)).toBeCloseTo(gap - 0.07 * k * (1 - k), 3);
      compared += 1;
    }
    expect(compared).toBeGreaterThan(0);
  });

  it("reads an inverse pair on Kalshi's no side, and takes Polymarket's fee schedule where a market has one", async () => {
    const warehouse = t.stores.warehouse;
    const at = toDateTime64(Date.now());
    const closes = toDateTime64(Date.now() + 30 * 86_400_000);
    // Polymarket's first outcome is Kalshi's no; the market charges a taker fee (2026's feeSchedule).
    const polymarket = {
      sync_timestamp: at,
      id: "p-inverse-fee",
      event_id: "e-inverse-fee",
      question: "Will the rate stay at or below 4%?",
      groupItemTitle: "",
      outcomes: ["Yes", "No"],
      outcomePrices: [0.41, 0.59],
      bestBid: 0.4,
      bestAsk: 0.42,
      closed: false,
      endDate: closes,
    };
    await warehouse.insert("polymarket.markets", [
      {
        ...polymarket,
        raw: JSON.stringify({ id: "p-inverse-fee", feeSchedule: { rate: 0.07, exponent: 1, takerOnly: true } }),
      },
    ]);
    await warehouse.insert("polymarket.markets_latest", [polymarket]);
    await warehouse.insert("kalshi.markets_latest", [
      {
        sync_timestamp: at,
        ticker: "KXRATE-INVERSE-T4",
        event_ticker: "KXRATE-INVERSE",
        title: "Will the rate be above 4%?",
        yes_sub_title: "Above 4%",
        status: "active",
        yes_bid_dollars: 0.5,
        yes_ask_dollars: 0.52,
        close_time: closes,
      },
    ]);
    await warehouse.insert("crossvenue.market_pairs", [
      {
        polymarket_id: "p-inverse-fee",
        kalshi_ticker: "KXRATE-INVERSE-T4",
        relation: "same_contract",
        orientation: "inverse",
        score: 1,
        method: "confirmed",
        reasons: ["paired by hand"],
        matched_at: at,
        reviewed_by: "admin",
        updated_at: at,
      },
    ]);
    const response = await get("/api/dashboards/arbitrage-monitor/tiles/open-pairs");
    const row = rowsAsObjects((await response.json()) as TileResult).find((r) => r.polymarket_id === "p-inverse-fee");
    // Kalshi's no side: bid 1 − 0.52, ask 1 − 0.50.
    expect(Number(row?.kalshi_bid)).toBeCloseTo(0.48, 4);
    expect(Number(row?.kalshi_ask)).toBeCloseTo(0.5, 4);
    expect(Number(row?.gross_gap)).toBeCloseTo(0.08, 4);
    // The first outcome bought on Polymarket at 0.42, its opposite (Kalshi's yes) at 0.52: 0.94 for 1.
    expect(row?.buy_first_outcome_on).toBe("Polymarket");
    expect(Number(row?.gap_after_spread)).toBeCloseTo(0.06, 4);
    // Less Polymarket's 0.07 × 0.42 × 0.58 and Kalshi's 0.07 × 0.48 × 0.52.
    expect(Number(row?.gap_after_fees)).toBeCloseTo(0.06 - 0.07 * 0.42 * 0.58 - 0.07 * 0.48 * 0.52, 4);
    expect(Number(row?.days_to_close)).toBeCloseTo(30, 0);
  });

  it("draws the gap over time from the history, moving as both venues' quotes move", async () => {
    const response = await get("/api/dashboards/arbitrage-monitor/tiles/gap-over-time");
    const result = (await response.json()) as TileResult;
    // Issue 24, #6: five pairs of a week's hours are more rows than a table tile gets; none is cut.
    expect(result.truncated).toBe(false);
    const rows = rowsAsObjects(result);
    const pairs = new Set(rows.map((row) => row.pair));
    expect(pairs.size).toBeGreaterThanOrEqual(2);
    expect(pairs.size).toBeLessThanOrEqual(5);
    // A week of hourly points per pair, and the gap is not a flat line.
    const first = rows.filter((row) => row.pair === rows[0]?.pair);
    expect(first.length).toBeGreaterThan(24);
    expect(new Set(first.map((row) => row.gross_gap)).size).toBeGreaterThan(1);
  });

  it("answers 404 for an unknown dashboard or tile", async () => {
    expect((await get("/api/dashboards/nope")).status).toBe(404);
    expect((await get("/api/dashboards/kalshi-pulse/tiles/nope")).status).toBe(404);
  });
});
