/**
 * The history worker against the replay server's history endpoints, on a real embedded
 * warehouse: what it stores, the limits it keeps by construction, the straddled trade
 * cutoff, the open markets' coverage and oldest gap, and the schedule by value. One
 * market's failure and a step killed with SIGKILL: `history-faults.integration.test.ts`;
 * the rate it holds beside a snapshot: `shared-limiter.integration.test.ts`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chooseTargets, openCoverageByTier } from "../history";
import { sourceNamed } from "../sources";
import type { Harness } from "../testing/harness";
import { type Contents, contents, DAY, drain, HOUR, NOW, startHistoryHarness } from "../testing/history-world";
import { readHistoryProgress, runHistoryStep } from "./history";

let h: Harness;
let reference: Contents;
beforeAll(async () => {
  h = await startHistoryHarness(60);
}, 120_000);
afterAll(async () => {
  await h?.close();
});

describe("the history worker", () => {
  it("stores every market's history once, and a second pass adds nothing", async () => {
    // Before any step, every open market is a gap, the oldest the one open longest.
    const before = await readHistoryProgress(h.warehouse, "kalshi", { now: NOW });
    expect(before.open_markets).toBeGreaterThan(0);
    expect(before.open_markets_current).toBe(0);
    expect(before.oldest_gap?.reason).toBe("not reached yet");
    const [oldest] = await h.warehouse.query<{ market: string; opened: number }>(
      `SELECT market, opened FROM (${sourceNamed("kalshi").history.marketsSql}) WHERE closed_at IS NULL ORDER BY opened, market LIMIT 1`,
    );
    expect(before.oldest_gap).toEqual({
      market: oldest?.market,
      since: new Date(Number(oldest?.opened) * 1000).toISOString(),
      reason: "not reached yet",
    });
    h.replay.requests.length = 0;
    for (const source of ["polymarket", "kalshi"] as const) await drain(h, source);
    reference = await contents(h);
    for (const [table, { rows, keys }] of Object.entries(reference)) {
      expect(rows, table).toBeGreaterThan(0);
      expect(keys, `${table} has no duplicates`).toBe(rows);
    }
    // Kalshi's three candle shapes land as one: no trade price is 0, a quiet period is NULL.
    const [candles] = await h.warehouse.query<{ zero: string; quiet: string; previous: string }>(
      `SELECT countIf(price_close = 0) AS zero, countIf(price_close IS NULL) AS quiet,
              countIf(price_close IS NULL AND price_previous IS NOT NULL) AS previous FROM kalshi.candles`,
    );
    expect(Number(candles?.zero)).toBe(0);
    expect(Number(candles?.quiet)).toBeGreaterThan(0);
    expect(Number(candles?.previous)).toBe(Number(candles?.quiet));

    const requests = h.replay.requests.length;
    for (const source of ["polymarket", "kalshi"] as const) {
      const again = await runHistoryStep(h.deps, source, { markets: 200 });
      expect(again.outcome?.markets, `${source}: nothing is due`).toBe(0);
    }
    expect(await contents(h)).toEqual(reference);
    expect(h.replay.requests.length - requests).toBeLessThanOrEqual(1);

    // The coverage ledger says what is stored: a row per market reached, its points counted.
    for (const source of ["polymarket", "kalshi"] as const) {
      const key = source === "polymarket" ? "id" : "ticker";
      const stored = sourceNamed(source)
        .history.tables.map(({ table }) => `SELECT ${key} AS market FROM ${table}`)
        .join(" UNION ALL ");
      const [ledger] = await h.warehouse.query<{ rows: string; states: string; wrong: string; none: string }>(
        `SELECT count() AS rows, toString(groupUniqArray(state)) AS states,
                countIf(c.points != s.n) AS wrong, countIf(venue_has_none != (state = 'complete' AND s.n = 0)) AS none
         FROM ${source}.coverage AS c FINAL
         LEFT JOIN (SELECT market, count() AS n FROM (${stored}) GROUP BY market) AS s ON s.market = c.${key}
         SETTINGS join_use_nulls = 0`,
      );
      const [state] = await h.warehouse.query<{ n: string }>(
        "SELECT uniqExact(market) AS n FROM internal.history_state WHERE source = {source:String}",
        { params: { source } },
      );
      expect(Number(ledger?.rows), source).toBe(Number(state?.n));
      expect(Number(ledger?.wrong), `${source}: points as stored`).toBe(0);
      expect(Number(ledger?.none), `${source}: venue_has_none`).toBe(0);
      expect(ledger?.states).not.toContain("upstream error");
    }

    const progress = await readHistoryProgress(h.warehouse, "kalshi", { now: NOW });
    expect(progress.markets_done).toBe(progress.markets_known);
    expect(progress.points_stored).toBe(
      (reference["kalshi.candles"]?.rows ?? 0) + (reference["kalshi.trades"]?.rows ?? 0),
    );
    expect(progress.oldest_point).not.toBeNull();
    // Every open market is current just after the pass; two days on, none is.
    expect(progress.open_markets).toBeGreaterThan(0);
    expect(progress.open_markets_current).toBe(progress.open_markets);
    const later = await readHistoryProgress(h.warehouse, "kalshi", { now: NOW + 2 * 86_400_000 });
    expect(later.open_markets).toBe(progress.open_markets);
    expect(later.open_markets_current).toBe(0);
    expect(progress.oldest_gap).toBeNull();
    expect(later.oldest_gap?.reason).toBe("refresh due");
    expect(Date.parse(later.oldest_gap?.since ?? "")).toBeGreaterThan(NOW - HOUR);
    // By tier of the schedule: the same open markets, every one fetched; two days on, each
    // is two days behind (its newest point was fetched up to the pass).
    const tiers = (now: number) =>
      openCoverageByTier(h.warehouse, "kalshi", sourceNamed("kalshi").history.marketsSql, { now, refreshMs: HOUR });
    const sum = (rows: Awaited<ReturnType<typeof tiers>>, key: "open" | "current" | "unfetched") =>
      rows.reduce((total, row) => total + row[key], 0);
    const now = await tiers(NOW);
    expect(sum(now, "open")).toBe(progress.open_markets);
    expect(sum(now, "current")).toBe(progress.open_markets);
    expect(sum(now, "unfetched")).toBe(0);
    expect(Math.max(...now.map((tier) => tier.lagMax))).toBeLessThan(HOUR / 1000);
    const twoDays = await tiers(NOW + 2 * DAY);
    expect(sum(twoDays, "current")).toBe(0);
    expect(Math.min(...twoDays.map((tier) => tier.lagP50))).toBeGreaterThanOrEqual((2 * DAY) / 1000);
  }, 300_000);
  it("never sends a request over an endpoint's limit", () => {
    const over: string[] = [];
    for (const path of h.replay.requests) {
      const url = new URL(path, "http://replay");
      const p = (name: string) => Number(url.searchParams.get(name));
      if (url.pathname.endsWith("/prices-history") && p("endTs") - p("startTs") > 15 * 86_400) over.push(path);
      if (url.pathname.endsWith("/batch-prices-history")) {
        const body = JSON.parse(decodeURIComponent(url.hash.slice(1))) as {
          markets: string[];
          start_ts: number;
          end_ts: number;
        };
        if (body.markets.length > 20 || body.end_ts - body.start_ts > 15 * 86_400) over.push(path);
      }
      if (url.pathname.endsWith("/candlesticks")) {
        const periods = (p("end_ts") - p("start_ts")) / (p("period_interval") * 60);
        const tickers = url.searchParams.get("market_tickers")?.split(",").length ?? 1;
        if (![1, 60, 1440].includes(p("period_interval")) || periods > 5_000) over.push(path);
        if (tickers > 100 || tickers * periods > 10_000) over.push(path);
      }
      if (url.pathname.endsWith("/trades") && p("limit") > 1_000) over.push(path);
    }
    expect(over).toEqual([]);
    expect(h.replay.requests.some((path) => path.includes("/markets/candlesticks?"))).toBe(true);
    expect(h.replay.requests.some((path) => path.includes("/historical/markets/"))).toBe(true);
    // Open markets' minutes in batches of tokens, more than one a request.
    const batches = h.replay.requests.filter((path) => path.includes("/batch-prices-history#"));
    expect(batches.some((path) => path.includes('"fidelity":1}') && path.includes('","'))).toBe(true);
  });

  it("reads a market whose trades straddle the cutoff from both tiers, each trade once", async () => {
    const straddled = h.replay.requests
      .filter((path) => path.includes("/historical/trades?"))
      .map((path) => new URL(path, "http://replay").searchParams.get("ticker"))
      .filter((ticker) =>
        h.replay.requests.some((path) => path.includes("/markets/trades?") && path.includes(`ticker=${ticker}&`)),
      );
    expect(straddled.length).toBeGreaterThan(0);
    const [row] = await h.warehouse.query<{ rows: string; ids: string }>(
      "SELECT count() AS rows, uniqExact(trade_id) AS ids FROM kalshi.trades WHERE ticker IN {tickers:Array(String)}",
      { params: { tickers: straddled } },
    );
    expect(Number(row?.rows)).toBeGreaterThan(0);
    expect(Number(row?.rows)).toBe(Number(row?.ids));
  });
});

describe("the schedule by value", () => {
  const MINUTE = 60_000;
  const VENUE = {
    polymarket: {
      markets: `SELECT id AS market, toUnixTimestamp(endDate) AS closes_at, volume24hr AS volume_day
                FROM polymarket.markets_latest FINAL WHERE NOT closed AND length(clobTokenIds) > 0`,
      trades: "SELECT id AS market, toUnixTimestamp(max(ts)) AS last FROM polymarket.trades GROUP BY id",
    },
    kalshi: {
      markets: `SELECT ticker AS market, toUnixTimestamp(coalesce(expected_expiration_time, close_time)) AS closes_at,
                       volume_24h AS volume_day
                FROM kalshi.markets_latest FINAL WHERE status IN ('initialized', 'inactive', 'active', 'unopened', 'open', 'paused')`,
      trades: "SELECT ticker AS market, toUnixTimestamp(max(created_time)) AS last FROM kalshi.trades GROUP BY ticker",
    },
  } as const;

  for (const source of ["polymarket", "kalshi"] as const) {
    it(`${source}: refreshes an open market every 10 minutes while it trades or is about to close, hourly after a day's trading, daily else`, async () => {
      // Every market was brought up to date at NOW (the first test); which are due later?
      const open = await h.warehouse.query<{ market: string; closes_at: number | null; volume_day: number | null }>(
        VENUE[source].markets,
      );
      const last = new Map(
        (await h.warehouse.query<{ market: string; last: number }>(VENUE[source].trades)).map((row) => [
          row.market,
          Number(row.last),
        ]),
      );
      const tierOf = (market: (typeof open)[number], at: number) => {
        const traded = last.get(market.market) ?? 0;
        const closes = market.closes_at === null ? null : Number(market.closes_at);
        if (traded >= at - 3_600 || (closes !== null && closes >= at && closes <= at + 3_600)) return 10;
        if (traded >= at - 86_400 || Number(market.volume_day ?? 0) > 0) return 60;
        return 1_440;
      };
      const tiers = new Map<number, number>();
      for (const market of open)
        tiers.set(tierOf(market, NOW / 1000), (tiers.get(tierOf(market, NOW / 1000)) ?? 0) + 1);
      expect(tiers.size, `markets in more than one tier: ${JSON.stringify([...tiers])}`).toBeGreaterThan(1);

      for (const minutes of [11, 61, 24 * 60 + 1]) {
        const at = NOW + minutes * MINUTE;
        const chosen = await chooseTargets<{ market: string }>(
          h.warehouse,
          source,
          sourceNamed(source).history.marketsSql,
          {
            limit: 100_000,
            refreshMs: 60 * MINUTE,
            now: at,
          },
        );
        const due = open.filter((market) => tierOf(market, at / 1000) < minutes).map((market) => market.market);
        const openChosen = chosen.filter((target) => target.closedAt === null).map((target) => target.market);
        expect(openChosen.sort(), `${minutes} minutes on`).toEqual(due.sort());
        // Closing soonest first, those past their end date after those still to close.
        const closes = chosen
          .filter((target) => target.closedAt === null)
          .map((target) => Number((target as { closes_at?: number | null }).closes_at ?? Number.POSITIVE_INFINITY));
        const key = (close: number) => (close < at / 1000 ? 1e12 + close : close);
        expect(closes.map(key)).toEqual(closes.map(key).sort((a, b) => a - b));
      }
    }, 120_000);
  }
  // One ordering serves both venues; the Polymarket reference has no market closing after NOW.
  it("kalshi: a market in its last hour goes before markets never fetched, so a first backfill of the open set does not hold up the minutes a venue coarsens once it closes", async () => {
    const source = "kalshi";
    const open = await h.warehouse.query<{ market: string; closes_at: number | null }>(VENUE[source].markets);
    const closing = open
      .filter((market) => Number(market.closes_at ?? 0) * 1000 >= NOW + 70 * MINUTE)
      .sort((a, b) => Number(a.closes_at) - Number(b.closes_at))[0];
    expect(closing, "an open market closing after the first hour").toBeDefined();
    const at = (Number(closing?.closes_at) - 30 * 60) * 1000;
    // Never fetched: those closing after it, without an end date, or past theirs (a venue has
    // many open past their end date, waiting for a resolution).
    const later = open
      .filter((market) => {
        const closes = market.closes_at === null ? null : Number(market.closes_at);
        return closes === null || closes > Number(closing?.closes_at) || closes * 1000 < at;
      })
      .map((market) => market.market);
    expect(later.length).toBeGreaterThan(0);
    await h.warehouse.command(
      `ALTER TABLE internal.history_state DELETE WHERE source = {source:String} AND market IN {later:Array(String)}
       SETTINGS mutations_sync = 2`,
      { params: { source, later } },
    );
    const options = { limit: 100_000, refreshMs: 60 * MINUTE, now: at };
    const order = (
      await chooseTargets<{ market: string }>(h.warehouse, source, sourceNamed(source).history.marketsSql, options)
    ).map((target) => target.market);
    const firstNeverFetched = Math.min(...later.map((market) => order.indexOf(market)));
    expect(firstNeverFetched).toBeGreaterThanOrEqual(0);
    expect(order.indexOf(closing?.market as string)).toBeGreaterThanOrEqual(0);
    expect(order.indexOf(closing?.market as string)).toBeLessThan(firstNeverFetched);
  }, 120_000);
});
