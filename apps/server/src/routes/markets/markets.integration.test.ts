/**
 * The market endpoints over a real embedded warehouse: a Polymarket market with price
 * history and trades, a Kalshi market with candles (one quiet hour) and a market with
 * snapshots only.
 */
import { ZApiError, ZMarket, ZMarketBook, ZMarketHistory, ZMarketSearch, ZQueryResult } from "@epicenter/contracts";
import { rebuildResolutions } from "@epicenter/ingest";
import { toDateTime64 } from "@epicenter/warehouse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, json, signIn } from "../../testing/sign-in";
import { createTestApp, type TestApp } from "../../testing/test-app";

let t: TestApp;
let token: string;
const HOUR = 3_600_000;
const start = Date.UTC(2026, 0, 10);
const now = new Date(start + 30 * 24 * HOUR);
const seconds = (ms: number) => Math.floor(ms / 1000);

beforeAll(async () => {
  t = await createTestApp({ env: { ALLOWED_EMAILS: "ada@example.com" }, clock: () => now });
  const { warehouse } = t.stores;
  const market = {
    sync_timestamp: toDateTime64(now.getTime() - HOUR),
    id: "501",
    event_id: "77",
    question: "Will it rain in Lisbon on Friday?",
    outcomes: ["Yes", "No"],
    outcomePrices: [1, 0],
    clobTokenIds: ["111", "222"],
    closed: true,
    umaResolutionStatus: "resolved",
    startDate: toDateTime64(start),
    endDate: toDateTime64(start + 5 * 24 * HOUR),
    closedTime: toDateTime64(start + 5 * 24 * HOUR),
    volume: 1234.5,
    raw: "{}",
  };
  const quiet = {
    ...market,
    id: "502",
    question: "Will the ferry run on Sunday?",
    closed: false,
    outcomePrices: [0.4, 0.6],
  };
  for (const table of ["polymarket.markets", "polymarket.markets_latest"]) {
    const rows: Record<string, unknown>[] = [market, quiet];
    await warehouse.insert(table, table.endsWith("latest") ? rows.map(({ raw: _raw, ...row }) => row) : rows);
  }
  await warehouse.insert("polymarket.events_latest", [
    { sync_timestamp: market.sync_timestamp, id: "77", title: "Lisbon weather", slug: "lisbon-weather" },
  ]);
  // Two days of hourly points for Yes, one of them fetched twice.
  const points = Array.from({ length: 48 }, (_, hour) => ({
    id: "501",
    token_id: "111",
    outcome: "Yes",
    ts: seconds(start + hour * HOUR),
    price: 0.5 + hour / 200,
    fidelity_minutes: 60,
  }));
  await warehouse.insert("polymarket.prices", points);
  await warehouse.insert("polymarket.prices", points);
  // The coverage ledger: an earlier row, then the venue refusing the market.
  const ledger = (state: string, updated: number, error = "") => ({
    id: "501",
    is_open: false,
    state,
    history_until: Math.floor(start / 1000) + 47 * 3600,
    venue_has_none: false,
    points: 48,
    last_trade: null,
    refresh_minutes: 60,
    error,
    failures: error ? 1 : 0,
    retry_at: error ? Math.floor(start / 1000) + 50 * 3600 : null,
    updated_at: updated,
  });
  await warehouse.insert("polymarket.coverage", [ledger("current", start)]);
  await warehouse.insert("polymarket.coverage", [ledger("upstream error", start + 1000, "HTTP 404 from …: gone")]);
  await warehouse.insert("polymarket.trades", [
    {
      id: "501",
      condition_id: "0xc",
      transaction_hash: "0xa",
      trade_index: 0,
      token_id: "111",
      outcome: "Yes",
      outcome_index: 0,
      ts: seconds(start + 90 * 60_000),
      price: 0.5,
      size: 100,
      side: "BUY",
      proxy_wallet: "0xw",
    },
    {
      id: "501",
      condition_id: "0xc",
      transaction_hash: "0xa",
      trade_index: 1,
      token_id: "111",
      outcome: "Yes",
      outcome_index: 0,
      ts: seconds(start + 90 * 60_000),
      price: 0.5,
      size: 20,
      side: "BUY",
      proxy_wallet: "0xw",
    },
  ]);
  // Quiet-market snapshots: no history, three snapshots an hour apart.
  await warehouse.insert(
    "polymarket.markets",
    [0, 1, 2].map((hour) => ({
      ...quiet,
      sync_timestamp: toDateTime64(start + hour * HOUR),
      outcomePrices: [0.4 + hour / 100, 0.6 - hour / 100],
    })),
  );

  const kalshi = {
    sync_timestamp: toDateTime64(now.getTime() - HOUR),
    ticker: "KXRAIN-26JAN10",
    event_ticker: "KXRAIN",
    title: "Rain in NYC on Jan 10?",
    yes_sub_title: "Above 1 inch",
    status: "finalized",
    result: "no",
    open_time: toDateTime64(start),
    close_time: toDateTime64(start + 24 * HOUR),
    settlement_ts: toDateTime64(start + 26 * HOUR),
    last_price_dollars: 0.02,
    volume: 900,
    open_interest: 0,
    raw: "{}",
  };
  await warehouse.insert("kalshi.markets", [kalshi]);
  await warehouse.insert("kalshi.markets_latest", [{ ...kalshi, raw: undefined }]);
  await warehouse.insert("kalshi.events_latest", [
    { sync_timestamp: kalshi.sync_timestamp, event_ticker: "KXRAIN", series_ticker: "KXRAIN", title: "NYC rain" },
  ]);
  const candle = (hour: number, close: number | null) => ({
    ticker: "KXRAIN-26JAN10",
    period_minutes: 60,
    end_period_ts: seconds(start + (hour + 1) * HOUR),
    price_open: close,
    price_high: close,
    price_low: close,
    price_close: close,
    price_mean: close,
    price_previous: 0.3,
    volume: close === null ? 0 : 10,
    open_interest: 50,
  });
  await warehouse.insert("kalshi.candles", [candle(0, 0.3), candle(1, null), candle(2, 0.25)]);
  // Settled early, before its backstop close years out, and without a settlement time.
  const early = {
    ...kalshi,
    ticker: "KXEARLY-29",
    title: "Fed cut before the end of 2028?",
    close_time: toDateTime64(Date.UTC(2029, 0, 20)),
    settlement_ts: null,
    updated_time: toDateTime64(start + 3 * 24 * HOUR),
  };
  await warehouse.insert("kalshi.markets", [early]);
  await warehouse.insert("kalshi.markets_latest", [{ ...early, raw: undefined }]);
  // Rows written straight to the tables, not by sync runs: the ledger is derived as the migration does.
  await rebuildResolutions(warehouse);
  token = (await signIn(t, "ada@example.com")).access_token;
});
afterAll(async () => {
  await t.close();
});

const get = (path: string) => t.app.request(path, bearer(token));

describe("GET /api/markets/{venue}/{id}", () => {
  it("reads a resolved Polymarket market with its history coverage and panel SQL", async () => {
    const response = await get("/api/markets/polymarket/501");
    expect(response.status).toBe(200);
    const market = ZMarket.parse(await response.json());
    expect(market).toMatchObject({
      venue: "polymarket",
      question: "Will it rain in Lisbon on Friday?",
      status: "resolved",
      result: "Yes",
      event: { id: "77", title: "Lisbon weather" },
      url: "https://polymarket.com/event/lisbon-weather",
      volume: 1234.5,
    });
    expect(market.outcomes).toEqual([
      { label: "Yes", token_id: "111", price: 1 },
      { label: "No", token_id: "222", price: 0 },
    ]);
    // Inserted twice (before a merge folds them), counted once.
    expect(market.history).toMatchObject({ points: 48, trades: 2, first: new Date(start).toISOString() });
    // The newest ledger row: the venue's answer and when it is tried again.
    expect(market.history).toMatchObject({
      state: "upstream error",
      error: "HTTP 404 from …: gone",
      until: new Date(start + 47 * HOUR).toISOString(),
      retry_at: new Date(start + 50 * HOUR).toISOString(),
    });
    // The panel's SQL takes the id and span as typed parameters, whose values travel with it;
    // with them it runs in the editor's sandbox and gives the same points.
    expect(market.queries.prices.sql).toContain("WHERE id = {id:String}");
    expect(market.queries.prices.params).toMatchObject({ id: "501" });
    const run = await t.app.request(
      "/api/query/rows",
      json({ query: market.queries.prices.sql, params: market.queries.prices.params, limit: 1000 }, { token }),
    );
    expect(ZQueryResult.parse(await run.json()).row_count).toBe(48);
    // The ledger per day reads in user SQL too: one snapshot of it, of one that day, and
    // both outcomes' 48 price points over the days they fall on (days before the snapshot have none).
    const days = await t.app.request(
      "/api/query/rows",
      json(
        {
          query: `SELECT sum(snapshots), sum(price_points_minute + price_points_hour), countIf(snapshots > 0),
                         maxIf(venue_snapshots, snapshots > 0)
                  FROM polymarket.coverage_days WHERE id = '501'`,
          limit: 10,
        },
        { token },
      ),
    );
    const answer = (await days.json()) as { rows?: unknown; error?: { message: string } };
    expect(answer.error?.message).toBeUndefined();
    expect(answer.rows).toEqual([["1", "96", "1", "1"]]);
  });

  it("says how a market settled from the resolutions ledger, with the SQL that reads it", async () => {
    const market = ZMarket.parse(await (await get("/api/markets/polymarket/501")).json());
    expect(market.resolution).toMatchObject({
      outcome_type: "yes",
      winning_outcome: "Yes",
      payouts: [1, 0],
      source: "UMA",
      closed_at: new Date(start + 5 * 24 * HOUR).toISOString(),
      disputed: false,
      // No snapshot while it traded: the last history point before the close, Yes at 0.735.
      last_prices: [0.735, 0.265],
      last_price_at: new Date(start + 47 * HOUR).toISOString(),
      last_price_from: "history",
      event_winner: "Will it rain in Lisbon on Friday?",
    });
    expect(market.queries.resolution.sql).toContain("FROM polymarket.resolutions FINAL");
    const run = await t.app.request(
      "/api/query/rows",
      json({ query: market.queries.resolution.sql, params: market.queries.resolution.params, limit: 10 }, { token }),
    );
    expect(ZQueryResult.parse(await run.json()).row_count).toBe(1);

    const kalshi = ZMarket.parse(await (await get("/api/markets/kalshi/KXRAIN-26JAN10")).json());
    expect(kalshi.resolution).toMatchObject({
      outcome_type: "no",
      source: "Kalshi",
      resolved_at: new Date(start + 26 * HOUR).toISOString(),
      // The last candle with a trade before the close.
      last_prices: [0.25, 0.75],
      last_price_from: "history",
    });
    const open = ZMarket.parse(await (await get("/api/markets/polymarket/502")).json());
    expect(open.resolution).toBeNull();
  });

  it("reads a settled Kalshi market", async () => {
    const market = ZMarket.parse(await (await get("/api/markets/kalshi/KXRAIN-26JAN10")).json());
    expect(market).toMatchObject({ status: "resolved", result: "No", subtitle: "Above 1 inch", open_interest: 0 });
    expect(market.url).toBe("https://kalshi.com/markets/kxrain");
    expect(market.history.points).toBe(3);
    expect(market.history).toMatchObject({ state: "not reached", until: null, error: null });
  });

  it("says when a market settled early resolved, not its backstop close years out (issue 24, #7)", async () => {
    const market = ZMarket.parse(await (await get("/api/markets/kalshi/KXEARLY-29")).json());
    expect(market.status).toBe("resolved");
    expect(market.resolved_at).toBe(new Date(start + 3 * 24 * HOUR).toISOString());
  });

  it("answers 404 for a market the archive does not know, and 400 for a malformed id", async () => {
    const missing = await get("/api/markets/kalshi/NOPE");
    expect(missing.status).toBe(404);
    expect(ZApiError.parse(await missing.json()).error.message).toBe("No Kalshi market NOPE in the archive.");
    expect((await get("/api/markets/kalshi/bad%20id")).status).toBe(400);
    expect((await get("/api/markets/manifold/1")).status).toBe(400);
  });
});

describe("GET /api/markets/{venue}/{id}/history", () => {
  it("buckets Polymarket points per day, with volume from trades and the resolution", async () => {
    const history = ZMarketHistory.parse(await (await get("/api/markets/polymarket/501/history?interval=1d")).json());
    expect(history.source).toBe("history");
    expect(history.outcomes.map((outcome) => outcome.label)).toEqual(["Yes"]);
    const [first, second] = history.outcomes[0]?.points ?? [];
    expect(first).toMatchObject({ t: new Date(start).toISOString(), open: 0.5, close: 0.5 + 23 / 200 });
    expect(second?.close).toBeCloseTo(0.5 + 47 / 200);
    expect(history.volume).toEqual([{ t: new Date(start).toISOString(), volume: 60 }]);
    expect(history.resolution).toEqual({ at: new Date(start + 5 * 24 * HOUR).toISOString(), outcome: "Yes" });
  });

  it("carries Kalshi's last trade over a quiet hour instead of a zero", async () => {
    const history = ZMarketHistory.parse(
      await (await get("/api/markets/kalshi/KXRAIN-26JAN10/history?interval=1h")).json(),
    );
    const points = history.outcomes[0]?.points ?? [];
    expect(points.map((point) => point.close)).toEqual([0.3, 0.3, 0.25]);
    expect(points[1]?.open).toBeNull();
    expect(history.volume.map((bar) => bar.volume)).toEqual([10, 0, 10]);
  });

  it("rolls Kalshi's hourly candles up into days: the archive holds no daily ones (issue 24, #2)", async () => {
    const history = ZMarketHistory.parse(
      await (await get("/api/markets/kalshi/KXRAIN-26JAN10/history?interval=1d")).json(),
    );
    expect(history.source).toBe("history");
    expect(history.outcomes[0]?.points).toEqual([
      { t: new Date(start).toISOString(), open: 0.3, high: 0.3, low: 0.25, close: 0.25 },
    ]);
    expect(history.volume).toEqual([{ t: new Date(start).toISOString(), volume: 20 }]);
  });

  it("falls back to the snapshots where no history is archived", async () => {
    const history = ZMarketHistory.parse(await (await get("/api/markets/polymarket/502/history?interval=1h")).json());
    expect(history.source).toBe("snapshots");
    expect(history.outcomes.map((outcome) => [outcome.label, outcome.points.length])).toEqual([
      ["Yes", 4],
      ["No", 4],
    ]);
  });

  it("refuses a 1-minute span over 31 days, and from after to", async () => {
    const long = await get(
      `/api/markets/polymarket/501/history?interval=1m&from=${new Date(start - 2 * 24 * HOUR).toISOString()}&to=${now.toISOString()}`,
    );
    expect(long.status).toBe(400);
    expect(ZApiError.parse(await long.json()).error.message).toMatch(/at most 31 days/);
    const backwards = await get(
      `/api/markets/polymarket/501/history?from=${now.toISOString()}&to=${new Date(start).toISOString()}`,
    );
    expect(backwards.status).toBe(400);
  });
});

describe("GET /api/markets", () => {
  it("finds markets of both venues by the words of their question, open ones first", async () => {
    const found = ZMarketSearch.parse(await (await get("/api/markets?q=rain")).json());
    expect(found.markets.map((market) => `${market.venue}:${market.id}`).sort()).toEqual([
      "kalshi:KXRAIN-26JAN10",
      "polymarket:501",
    ]);
    const ferry = ZMarketSearch.parse(await (await get("/api/markets?q=ferry%20sunday&venue=polymarket")).json());
    expect(ferry.markets).toEqual([expect.objectContaining({ id: "502", status: "open" })]);
    const byTicker = ZMarketSearch.parse(await (await get("/api/markets?q=kxrain-26jan10")).json());
    expect(byTicker.markets.map((market) => market.id)).toEqual(["KXRAIN-26JAN10"]);
    // Each venue's title and subtitle, as the list shows them.
    expect(byTicker.markets[0]).toMatchObject({ question: "Rain in NYC on Jan 10?", subtitle: "Above 1 inch" });
  });
});

describe("GET /api/markets/{venue}/{id}/book", () => {
  const at = (ms: number) => toDateTime64(ms);
  const book = (ms: number, state: string, bids: number[], asks: number[]) => ({
    sync_timestamp: at(ms),
    id: "502",
    book_timestamp: at(ms - 2_000),
    state,
    bid_price: bids.map((price) => price.toFixed(4)),
    bid_size: bids.map(() => 500),
    ask_price: asks.map((price) => price.toFixed(4)),
    ask_size: asks.map(() => 500),
  });

  beforeAll(async () => {
    await t.stores.warehouse.insert("polymarket.books", [
      book(now.getTime() - 3 * HOUR, "active", [0.35, 0.34], [0.45]),
      book(now.getTime() - 20 * 60_000, "active", [0.39, 0.38, 0.37], [0.41, 0.42, 0.43]),
    ]);
  });

  it("answers the last book at or before the moment, with fill prices and the spread before it", async () => {
    const response = await get("/api/markets/polymarket/502/book");
    expect(response.status).toBe(200);
    const answer = ZMarketBook.parse(await response.json());
    expect(answer.captured_at).toBe(new Date(now.getTime() - 20 * 60_000).toISOString());
    expect(answer.bids.map((level) => level.price)).toEqual([0.39, 0.38, 0.37]);
    expect(answer.asks.map((level) => level.price)).toEqual([0.41, 0.42, 0.43]);
    // $100 of Yes: 243.9 shares at 0.41, inside the first level.
    expect(answer.fills).toContainEqual({ usd: 100, side: "buy", price: 0.41, filled_usd: 100, complete: true });
    // $1,000 of Yes: three levels of 500 hold $630, so the order does not fill.
    expect(answer.fills).toContainEqual({ usd: 1000, side: "buy", price: 0.42, filled_usd: 630, complete: false });
    expect(answer.spread.map((point) => [point.bid, point.ask])).toEqual([
      [0.35, 0.45],
      [0.39, 0.41],
    ]);
    expect(answer.query.sql).toContain("FROM polymarket.books");
  });

  it("has no book as of a moment with no capture in the 70 minutes before it", async () => {
    const earlier = new Date(now.getTime() - 90 * 60_000).toISOString();
    const answer = ZMarketBook.parse(await (await get(`/api/markets/polymarket/502/book?at=${earlier}`)).json());
    expect(answer).toMatchObject({ captured_at: null, bids: [], asks: [] });
    expect(answer.spread).toHaveLength(1);
  });

  it("is 404 for a market the archive does not have, and 400 for a moment that is not one", async () => {
    expect((await get("/api/markets/polymarket/999999/book")).status).toBe(404);
    expect((await get("/api/markets/polymarket/502/book?at=yesterday")).status).toBe(400);
  });
});
