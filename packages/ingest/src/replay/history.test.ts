import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_FIXTURES_DIR, type Json, readFixture } from "./catalog";
import { kalshiHistoryKeys, polymarketHistoryKeys } from "./history";
import { type ReplayServer, startReplayServer } from "./server";

const NOW = Date.parse("2026-08-01T12:00:00Z");
const NOW_S = NOW / 1000;
const DAY_S = 86_400;
const MARKET_CUTOFF = NOW - 150 * DAY_S * 1000;
const TRADES_CUTOFF = NOW - 40 * DAY_S * 1000;
const OPTIONS = {
  catalogSize: 900,
  now: () => NOW,
  historicalCutoff: MARKET_CUTOFF,
  historicalTradesCutoff: TRADES_CUTOFF,
};

let replay: ReplayServer;
beforeAll(async () => {
  replay = await startReplayServer(OPTIONS);
});
afterAll(async () => {
  await replay?.close();
});

async function get(url: string): Promise<{ status: number; text: string; body: Json }> {
  const response = await fetch(url);
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) as Json };
}

const recorded = <T>(path: string) => readFixture(DEFAULT_FIXTURES_DIR, path) as T;
const polymarkets = () => [...polymarketHistoryKeys(replay.polymarket)];
const kalshiMarkets = () => [...kalshiHistoryKeys(replay.kalshi, MARKET_CUTOFF)];
const micros = (iso: string) =>
  Date.parse(`${iso.replace(/\.\d+Z$/, "")}Z`) * 1000 + Number(/\.(\d+)Z$/.exec(iso)?.[1]?.padEnd(6, "0") ?? 0);

describe("Polymarket price history", () => {
  const prices = (query: string) => get(`${replay.url.polymarketClob}/prices-history?${query}`);

  it("refuses a window over 15 days and serves one of exactly 15, hourly points a few seconds past the hour", async () => {
    const open = polymarkets().find((m) => !m.closed) as { tokenIds: string[] };
    const token = open.tokenIds[0];
    const tooLong = await prices(`market=${token}&startTs=${NOW_S - 16 * DAY_S}&endTs=${NOW_S}&fidelity=60`);
    expect(tooLong).toMatchObject({ status: 400, body: { error: "'startTs' and 'endTs' interval is too long" } });
    const ok = await prices(`market=${token}&startTs=${NOW_S - 15 * DAY_S}&endTs=${NOW_S}&fidelity=60`);
    const history = ok.body.history as Array<{ t: number; p: number }>;
    expect(ok.status).toBe(200);
    expect(history).toHaveLength(15 * 24);
    expect(
      history.every(({ t }, i) => t % 3600 >= 2 && t % 3600 < 20 && (i === 0 || t > (history[i - 1]?.t ?? 0))),
    ).toBe(true);
    const other = await prices(`market=${open.tokenIds[1]}&startTs=${NOW_S - 15 * DAY_S}&endTs=${NOW_S}&fidelity=60`);
    const complement = other.body.history as Array<{ t: number; p: number }>;
    expect(complement.map(({ t }) => t)).toEqual(history.map(({ t }) => t));
    expect(complement.every(({ p }, i) => Math.abs(p + (history[i]?.p ?? 0) - 1) < 1e-9)).toBe(true);
  });

  it("returns the recorded points for the recorded token, and nothing for an unknown one", async () => {
    const sample = recorded<{ _request: { token: string }; history: Array<{ t: number }> }>(
      "polymarket/history/clob_prices_history_hourly_2026-05.json",
    );
    const first = sample.history[0]?.t as number;
    const last = sample.history.at(-1)?.t as number;
    const answer = await prices(`market=${sample._request.token}&startTs=${first}&endTs=${last}&fidelity=60`);
    expect(answer.body).toEqual({ history: sample.history });
    expect((await prices(`market=123456789012345678901234567890&startTs=${first}&endTs=${last}`)).body).toEqual({
      history: [],
    });
  });

  it("answers a resolved market's interval=max only at fidelity ≥ 720, ending on its outcome", async () => {
    const closed = polymarkets().find((m) => m.closed) as { id: string; tokenIds: string[] };
    const token = closed.tokenIds[0] as string;
    for (const fidelity of ["", "&fidelity=1", "&fidelity=60"]) {
      expect((await prices(`market=${token}&interval=max${fidelity}`)).body).toEqual({ history: [] });
    }
    const coarse = (await prices(`market=${token}&interval=max&fidelity=720`)).body.history as Array<{ p: number }>;
    const ref = replay.polymarket.findByToken(token);
    const yes = Number((JSON.parse(String(ref?.market.outcomePrices)) as string[])[0]);
    expect(coarse.length).toBeGreaterThan(1);
    expect(coarse.at(-1)?.p).toBe(Math.round(yes));
    const endTs = Number(
      ((await prices(`market=${token}&interval=max&fidelity=720`)).body.history as Array<{ t: number }>).at(-1)?.t,
    );
    const window = await prices(`market=${token}&startTs=${endTs - DAY_S}&endTs=${endTs}&fidelity=1`);
    expect((window.body.history as unknown[]).length).toBeGreaterThan(60);
  });
});

describe("Polymarket trades", () => {
  const trades = (query: string) => get(`${replay.url.polymarketData}/v2/trades?${query}`);

  it("refuses a limit over 500", async () => {
    const market = polymarkets()[0] as { conditionId: string };
    expect((await trades(`condition=${market.conditionId}&limit=501`)).status).toBe(400);
  });

  it("walks newest first to the end with a keyset cursor, in the recorded shape, fills keyed uniquely", async () => {
    const sample = recorded<Json[]>("polymarket/history/data_api_trades_2026.json");
    const market = polymarkets().find((m) => m.closed && m.eventIndex >= 10) as {
      conditionId: string;
      tokenIds: string[];
    };
    const all: Json[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 100; page += 1) {
      const answer: { body: Json } = await trades(
        `condition=${market.conditionId}&limit=7${cursor ? `&cursor=${cursor}` : ""}`,
      );
      all.push(...(answer.body.trades as Json[]));
      cursor = answer.body.next_cursor as string | null;
      expect(answer.body.has_more).toBe(cursor !== null);
      if (!cursor) break;
    }
    expect(cursor).toBeNull();
    expect(all.length).toBeGreaterThan(7);
    for (const trade of all) {
      expect(Object.keys(trade)).toEqual(Object.keys(sample[0] as Json));
      expect(market.tokenIds).toContain(trade.asset);
      expect(trade.conditionId).toBe(market.conditionId);
    }
    const times = all.map((trade) => Number(trade.timestamp));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const keys = new Set(all.map((t) => `${t.transactionHash}|${t.asset}|${t.price}|${t.size}`));
    expect(keys.size).toBe(all.length);
    expect(new Set(all.map((t) => t.transactionHash)).size).toBeLessThan(all.length);
  });
});

describe("Kalshi candlesticks", () => {
  const candles = (path: string, query: string) => get(`${replay.url.kalshi}${path}?${query}`);
  const live = () => kalshiMarkets().filter((m) => !m.historical);
  const liveCandles = (m: { ticker: string; seriesTicker: string }, query: string) =>
    candles(`/series/${m.seriesTicker}/markets/${m.ticker}/candlesticks`, query);

  it("refuses a bad period, over 5,000 candles per market, over 100 tickers and over 10,000 in a batch", async () => {
    const market = live()[0] as { ticker: string; seriesTicker: string };
    expect((await liveCandles(market, `start_ts=${NOW_S - DAY_S}&end_ts=${NOW_S}&period_interval=5`)).status).toBe(400);
    const over = await liveCandles(market, `start_ts=${NOW_S - 5_001 * 60}&end_ts=${NOW_S}&period_interval=1`);
    expect(over).toMatchObject({
      status: 400,
      body: {
        error: { code: "bad_request", message: "requested time range with candlesticks: 5001, max candlesticks: 5000" },
      },
    });
    expect((await liveCandles(market, `start_ts=${NOW_S - 5_000 * 60}&end_ts=${NOW_S}&period_interval=1`)).status).toBe(
      200,
    );
    const tickers = live().map((m) => m.ticker);
    const batch = (count: number, periods: number) =>
      candles(
        "/markets/candlesticks",
        `market_tickers=${tickers.slice(0, count).join(",")}&start_ts=${NOW_S - periods * 3600}&end_ts=${NOW_S}&period_interval=60`,
      );
    expect((await batch(101, 1)).status).toBe(400);
    expect((await batch(100, 101)).status).toBe(400);
    const ok = await batch(100, 100);
    expect(ok.status).toBe(200);
    expect((ok.body.markets as Json[]).map((m) => m.market_ticker)).toEqual(tickers.slice(0, 100));
  });

  it("serves the three shapes: live fixed-point, historical strings, legacy integer cents", async () => {
    const sample = recorded<{ candlesticks: Json[] }>("kalshi/history/candlesticks_live_hourly_2026-06.json");
    const range = `start_ts=${NOW_S - 200 * DAY_S}&end_ts=${NOW_S}&period_interval=1440`;
    const traded = (list: Json[]) =>
      list.find((c) => (c.price as Json).close_dollars ?? (c.price as Json).close) as Json;
    const liveMarket = live().find((m) => m.shape === "live") as { ticker: string; seriesTicker: string };
    const liveCandle = traded((await liveCandles(liveMarket, range)).body.candlesticks as Json[]);
    expect(Object.keys(liveCandle).sort()).toEqual(Object.keys(sample.candlesticks[0] as Json).sort());
    expect(Object.keys(liveCandle.price as Json).sort()).toEqual(
      Object.keys(sample.candlesticks[0]?.price as Json).sort(),
    );

    const legacyMarket = live().find((m) => m.shape === "legacy") as { ticker: string; seriesTicker: string };
    const legacy = traded((await liveCandles(legacyMarket, range)).body.candlesticks as Json[]);
    expect(legacy).toMatchObject({ volume: expect.any(Number), open_interest: expect.any(Number) });
    expect(Number.isInteger((legacy.price as Json).close)).toBe(true);
    expect((legacy.price as Json).close).toBeGreaterThan(0);

    const archived = kalshiMarkets().find((m) => m.historical) as { ticker: string; seriesTicker: string };
    const old = await candles(
      `/historical/markets/${archived.ticker}/candlesticks`,
      `start_ts=${MARKET_CUTOFF / 1000 - 300 * DAY_S}&end_ts=${MARKET_CUTOFF / 1000}&period_interval=1440`,
    );
    const historical = traded(old.body.candlesticks as Json[]);
    expect(historical).toMatchObject({
      volume: expect.stringMatching(/^\d+\.\d\d$/),
      price: { close: expect.stringMatching(/^0\.\d{4}$/) },
    });
    expect((await liveCandles(archived, range)).status).toBe(404);
    expect((await candles(`/historical/markets/${liveMarket.ticker}/candlesticks`, range)).status).toBe(404);
  });

  it("is sparse, aligned, ended, and a period without a trade has no trade price", async () => {
    const market = live().find((m) => m.shape === "live") as { ticker: string; seriesTicker: string };
    const start = NOW_S - 3 * DAY_S;
    const list = (await liveCandles(market, `start_ts=${start}&end_ts=${NOW_S + 3600}&period_interval=1`)).body
      .candlesticks as Json[];
    const ends = list.map((c) => Number(c.end_period_ts));
    expect(ends.every((end) => end % 60 === 0 && end <= NOW_S && end >= start)).toBe(true);
    expect(list.length).toBeGreaterThan(3 * 1440 * 0.3);
    expect(list.length).toBeLessThan(3 * 1440 * 0.75);
    const quiet = list.filter((c) => c.volume_fp === "0.00");
    expect(quiet.length).toBeGreaterThan(0);
    for (const candle of quiet) {
      expect(Object.keys(candle.price as Json)).toEqual(["previous_dollars"]);
      expect(candle.yes_bid).toMatchObject({ close_dollars: expect.any(String) });
    }
  });

  it("prepends a candle with null trade prices and the last close before the range when asked", async () => {
    const market = live().find((m) => m.shape === "live") as { ticker: string };
    let synthetic: Json | undefined;
    let boundary = 0;
    for (let hours = 1; hours < 48 && !synthetic; hours += 1) {
      boundary = Math.floor(NOW_S / 3600) * 3600 - hours * 3600;
      const query = `market_tickers=${market.ticker}&start_ts=${boundary - 1800}&end_ts=${NOW_S}&period_interval=60`;
      const [plain, latest] = await Promise.all([
        candles("/markets/candlesticks", query),
        candles("/markets/candlesticks", `${query}&include_latest_before_start=true`),
      ]);
      const [withFirst] = (latest.body.markets as Array<{ candlesticks: Json[] }>)[0]?.candlesticks ?? [];
      const [plainFirst] = (plain.body.markets as Array<{ candlesticks: Json[] }>)[0]?.candlesticks ?? [];
      if (withFirst?.end_period_ts !== plainFirst?.end_period_ts) synthetic = withFirst;
    }
    expect(synthetic).toMatchObject({
      end_period_ts: boundary,
      volume_fp: "0.00",
      price: { open_dollars: null, close_dollars: null, mean_dollars: null, previous_dollars: expect.any(String) },
    });
  });

  it("returns the recorded candles for the recorded market", async () => {
    const sample = recorded<{ ticker: string; candlesticks: Json[] }>(
      "kalshi/history/candlesticks_live_hourly_2026-06.json",
    );
    const ends = sample.candlesticks.map((c) => Number(c.end_period_ts));
    const answer = await liveCandles(
      { ticker: sample.ticker, seriesTicker: "KXNBAGAME" },
      `start_ts=${ends[0]}&end_ts=${ends.at(-1)}&period_interval=60`,
    );
    expect(answer.body).toEqual(sample);
  });
});

describe("Kalshi trades", () => {
  const trades = (path: string, query: string) => get(`${replay.url.kalshi}${path}?${query}`);

  async function walk(path: string, ticker: string, limit: number) {
    const all: Json[] = [];
    let cursor = "";
    let empty = 0;
    for (let page = 0; page < 200; page += 1) {
      const answer = await trades(path, `ticker=${ticker}&limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
      const list = answer.body.trades as Json[];
      if (list.length === 0 && answer.body.cursor) empty += 1;
      all.push(...list);
      cursor = String(answer.body.cursor);
      if (!cursor) break;
    }
    return { all, empty, cursor };
  }

  it("refuses a limit over 1,000 and reports both cutoffs", async () => {
    expect((await trades("/markets/trades", "limit=1001")).status).toBe(400);
    expect((await get(`${replay.url.kalshi}/historical/cutoff`)).body).toEqual({
      market_settled_ts: new Date(MARKET_CUTOFF).toISOString(),
      trades_created_ts: new Date(TRADES_CUTOFF).toISOString(),
      orders_updated_ts: new Date(TRADES_CUTOFF).toISOString(),
    });
  });

  it("walks newest first through an empty page to the end; the tiers split at the cutoff and overlap", async () => {
    const sample = recorded<{ trades: Json[] }>("kalshi/history/markets_trades_2026.json");
    // A market that trades on both sides of the cutoff, enough for six pages of three.
    let market = { ticker: "" };
    for (const candidate of kalshiMarkets().filter((m) => !m.historical && m.shape === "live")) {
      const [recent, older] = await Promise.all([
        trades("/markets/trades", `ticker=${candidate.ticker}&limit=1000`),
        trades("/historical/trades", `ticker=${candidate.ticker}&limit=1000`),
      ]);
      if ((recent.body.trades as Json[]).length >= 16 && (older.body.trades as Json[]).length > 0) {
        market = candidate;
        break;
      }
    }
    const livePart = await walk("/markets/trades", market.ticker, 3);
    const oldPart = await walk("/historical/trades", market.ticker, 1000);
    expect(livePart.empty).toBeGreaterThan(0);
    expect(livePart.cursor).toBe("");
    const times = livePart.all.map((t) => micros(String(t.created_time)));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(Object.keys(livePart.all[0] as Json).sort()).toEqual(Object.keys(sample.trades[0] as Json).sort());
    expect(Math.min(...times)).toBeGreaterThanOrEqual((TRADES_CUTOFF - 21 * DAY_S * 1000) * 1000);
    const oldTimes = oldPart.all.map((t) => micros(String(t.created_time)));
    expect(Math.max(...oldTimes)).toBeLessThan(TRADES_CUTOFF * 1000);
    const liveIds = new Set(livePart.all.map((t) => t.trade_id));
    expect(new Set(livePart.all.map((t) => t.trade_id)).size).toBe(livePart.all.length);
    expect(oldPart.all.some((t) => liveIds.has(t.trade_id))).toBe(true);
  });

  it("serves legacy markets' trades in integer cents and counts, and an exchange-wide feed", async () => {
    const legacy = kalshiMarkets().find((m) => m.shape === "legacy") as { ticker: string };
    const { all } = await walk("/historical/trades", legacy.ticker, 1000);
    expect(all[0]).toMatchObject({
      count: expect.any(Number),
      yes_price: expect.any(Number),
      no_price: expect.any(Number),
    });
    const wide = await trades("/markets/trades", "limit=50");
    expect(new Set((wide.body.trades as Json[]).map((t) => t.ticker)).size).toBeGreaterThan(5);
  });
});

describe("the catalog's clones and determinism", () => {
  it("gives every clone its own tokens and condition, and finds its history", async () => {
    const markets = polymarkets();
    expect(new Set(markets.map((m) => m.conditionId)).size).toBe(markets.length);
    expect(new Set(markets.flatMap((m) => m.tokenIds)).size).toBe(markets.flatMap((m) => m.tokenIds).length);
    const clone = markets.at(-1) as { id: string; conditionId: string; tokenIds: string[] };
    expect(clone.conditionId).toMatch(/^0x[0-9a-f]{64}$/);
    expect(replay.polymarket.findByToken(clone.tokenIds[1] as string)).toMatchObject({
      market: { id: clone.id },
      outcomeIndex: 1,
    });
    const pricesAnswer = await get(
      `${replay.url.polymarketClob}/prices-history?market=${clone.tokenIds[0]}&startTs=${NOW_S - DAY_S}&endTs=${NOW_S}&fidelity=60`,
    );
    expect((pricesAnswer.body.history as unknown[]).length).toBe(24);
    const tradesAnswer = await get(`${replay.url.polymarketData}/v2/trades?condition=${clone.conditionId}`);
    expect((tradesAnswer.body.trades as Json[]).every((t) => clone.tokenIds.includes(String(t.asset)))).toBe(true);

    const kalshiClone = kalshiMarkets().find((m) => /R1(-|$)/.test(m.ticker)) as { ticker: string };
    expect(replay.kalshi.findMarket(kalshiClone.ticker)?.market.ticker).toBe(kalshiClone.ticker);
  });

  it("answers the same request with the same bytes, here and on another server", async () => {
    const market = kalshiMarkets().find((m) => !m.historical && m.shape === "live") as {
      ticker: string;
      seriesTicker: string;
    };
    const paths = [
      `${replay.url.kalshi}/series/${market.seriesTicker}/markets/${market.ticker}/candlesticks?start_ts=${NOW_S - 30 * DAY_S}&end_ts=${NOW_S}&period_interval=60`,
      `${replay.url.kalshi}/markets/trades?ticker=${market.ticker}&limit=20`,
      `${replay.url.polymarketData}/v2/trades?condition=${polymarkets()[20]?.conditionId}&limit=20`,
    ];
    const other = await startReplayServer(OPTIONS);
    try {
      for (const url of paths) {
        const first = (await get(url)).text;
        expect(first.length).toBeGreaterThan(500);
        expect((await get(url)).text).toBe(first);
        expect((await get(url.replace(new URL(replay.url.kalshi).origin, new URL(other.url.kalshi).origin))).text).toBe(
          first,
        );
      }
    } finally {
      await other.close();
    }
  });

  it("records every request and applies faults to the history routes", async () => {
    replay.requests.length = 0;
    replay.setFault({ kind: "rate-limit", source: "polymarket", times: 2 });
    expect((await get(`${replay.url.polymarketClob}/prices-history?market=1`)).status).toBe(429);
    expect((await get(`${replay.url.polymarketData}/v2/trades?condition=0x1`)).status).toBe(429);
    expect((await get(`${replay.url.polymarketData}/v2/trades?condition=0x1`)).status).toBe(200);
    replay.setFault(null);
    expect(replay.requests).toEqual([
      "/polymarket-clob/prices-history?market=1",
      "/polymarket-data/v2/trades?condition=0x1",
      "/polymarket-data/v2/trades?condition=0x1",
    ]);
  });
});
