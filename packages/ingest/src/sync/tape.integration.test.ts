/**
 * Kalshi's exchange-wide trade tape against the replay server on a real embedded
 * warehouse: a walk stores exactly the trades the venue's tape holds for its span (empty
 * pages with a cursor, a page cut mid-way, a cursor that comes back unchanged), markets'
 * own trade requests stop where the tape starts, and a walk killed with SIGKILL resumes
 * without a gap or a duplicate.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRateLimiter } from "../http/rate-limiter";
import { replayIngestConfig } from "../replay/server";
import { kalshiTapeStart } from "../sources/kalshi/tape";
import { type Harness, startHarness } from "../testing/harness";
import { runHistoryStep } from "./history";
import { runSync } from "./run-sync";

// A catalog large enough, and a span long enough, for a walk of several pages.
const T0 = Date.parse("2026-01-15T00:00:00Z");
const SPAN_MS = 14 * 86_400_000;
const DAY = 86_400_000;
let clock = T0;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    catalogSize: 3_000,
    now: () => clock,
    historicalCutoff: T0 - 120 * DAY,
    historicalTradesCutoff: T0 - 40 * DAY,
  });
  h.deps = {
    ...h.deps,
    config: replayIngestConfig(h.replay),
    clock: () => new Date(clock),
    rateLimiters: new Map([["kalshi", createRateLimiter({ requests: 100_000, perMs: 1_000 })]]),
  };
}, 120_000);
afterAll(async () => {
  await h?.close();
});

/** The tape's trades for `[from, to]` (Unix seconds) as the venue serves them, page after page to the end. */
async function venueTape(from: number, to: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor = "";
  do {
    const url = new URL(`${h.replay.url.kalshi}/markets/trades`);
    url.searchParams.set("min_ts", String(from));
    url.searchParams.set("max_ts", String(to));
    url.searchParams.set("limit", "1000");
    if (cursor) url.searchParams.set("cursor", cursor);
    const page = (await (await fetch(url)).json()) as { trades: Array<{ trade_id: string }>; cursor: string };
    ids.push(...page.trades.map((trade) => trade.trade_id));
    cursor = page.cursor;
  } while (cursor);
  return ids.sort();
}

async function storedTape(from: number, to: number): Promise<{ ids: string[]; rows: number }> {
  const rows = await h.warehouse.query<{ trade_id: string }>(
    `SELECT trade_id FROM kalshi.trades
     WHERE created_time >= toDateTime64({from:UInt32}, 6, 'UTC') AND created_time < toDateTime64({to:UInt32} + 1, 6, 'UTC')`,
    { params: { from, to } },
  );
  return { ids: [...new Set(rows.map((row) => row.trade_id))].sort(), rows: rows.length };
}

async function walkToEnd(deps = h.deps) {
  for (let steps = 0; steps < 100; steps += 1) {
    const step = await runHistoryStep(deps, "kalshi", { markets: 0 });
    expect(step.run.error).toBeNull();
    if (!step.outcome?.more) return;
  }
  throw new Error("the tape never caught up");
}

async function restartTape() {
  await h.warehouse.command("TRUNCATE TABLE kalshi.trades");
  await h.warehouse.command("TRUNCATE TABLE internal.feed_state");
  clock = T0;
  await walkToEnd();
  expect(await kalshiTapeStart(h.warehouse)).toBe(T0 / 1000);
  clock = T0 + SPAN_MS;
}

const SPAN = { from: T0 / 1000, to: (T0 + SPAN_MS) / 1000 - 1 };

describe("Kalshi's trade tape", () => {
  let expected: string[];

  it("stores every trade of the span once, across pages and the empty pages between them", async () => {
    await restartTape();
    expected = await venueTape(SPAN.from, SPAN.to);
    expect(expected.length, "several pages of trades").toBeGreaterThan(4_000);
    h.replay.requests.length = 0;
    await walkToEnd();
    const stored = await storedTape(SPAN.from, SPAN.to);
    expect(stored.rows).toBe(stored.ids.length);
    expect(stored.ids).toEqual(expected);
    const walk = h.replay.requests.filter((path) => path.includes("/markets/trades?"));
    expect(walk.every((path) => !path.includes("ticker="))).toBe(true);
    expect(walk.length).toBeGreaterThan(expected.length / 1_000);
    // A second walk at the same clock has nothing to ask for.
    h.replay.requests.length = 0;
    await walkToEnd();
    expect(h.replay.requests.filter((path) => path.includes("/markets/trades?"))).toEqual([]);
  }, 300_000);

  it("goes on through a page cut mid-way, and past a cursor that comes back unchanged", async () => {
    for (const kind of ["truncated-json", "repeat-cursor"] as const) {
      await restartTape();
      h.replay.setFault({ kind, source: "kalshi", match: "cursor=", after: 1, times: 2 });
      try {
        await walkToEnd();
      } finally {
        h.replay.setFault(null);
      }
      const stored = await storedTape(SPAN.from, SPAN.to);
      expect(stored.rows, kind).toBe(stored.ids.length);
      expect(stored.ids, kind).toEqual(expected);
    }
  }, 300_000);

  it("leaves a market's own trade requests to the time before the tape started", async () => {
    await restartTape();
    expect((await runSync(h.deps, { source: "kalshi" })).success).toBe(true);
    h.replay.requests.length = 0;
    const step = await runHistoryStep(h.deps, "kalshi", { markets: 300 });
    expect(step.run.error).toBeNull();
    expect(step.outcome?.markets).toBe(300);
    const perMarket = h.replay.requests
      .filter((path) => path.includes("/markets/trades?") && path.includes("ticker="))
      .map((path) => Number(new URL(path, "http://replay").searchParams.get("max_ts")));
    expect(perMarket.length).toBeGreaterThan(0);
    expect(Math.max(...perMarket)).toBeLessThan(SPAN.from);
    const stored = await storedTape(SPAN.from, SPAN.to);
    expect(stored.rows).toBe(stored.ids.length);
    expect(stored.ids).toEqual(expected);
    // The tape stored these markets' recent trades first; their earlier ones still came.
    const traded = await h.warehouse.query<{ ticker: string }>(
      `SELECT DISTINCT ticker FROM kalshi.trades
       WHERE ticker IN (SELECT ticker FROM kalshi.coverage) AND created_time >= toDateTime64({from:UInt32}, 6, 'UTC')`,
      { params: { from: SPAN.from } },
    );
    expect(traded.length).toBeGreaterThan(0);
    for (const { ticker } of traded.slice(0, 20)) {
      const before = await h.warehouse.query<{ trade_id: string }>(
        `SELECT DISTINCT trade_id FROM kalshi.trades
         WHERE ticker = {ticker:String} AND created_time < toDateTime64({from:UInt32}, 6, 'UTC') ORDER BY trade_id`,
        { params: { ticker, from: SPAN.from } },
      );
      expect(
        before.map((row) => row.trade_id),
        ticker,
      ).toEqual(await venueTrades(ticker, SPAN.from - 1));
    }
  }, 300_000);
});

/** One market's trades up to `to` (Unix seconds) as the venue serves them, both tiers. */
async function venueTrades(ticker: string, to: number): Promise<string[]> {
  const ids = new Set<string>();
  for (const tier of ["/historical/trades", "/markets/trades"]) {
    let cursor = "";
    do {
      const url = new URL(`${h.replay.url.kalshi}${tier}`);
      url.searchParams.set("ticker", ticker);
      url.searchParams.set("max_ts", String(to));
      url.searchParams.set("limit", "1000");
      if (cursor) url.searchParams.set("cursor", cursor);
      const page = (await (await fetch(url)).json()) as { trades: Array<{ trade_id: string }>; cursor: string };
      for (const trade of page.trades) ids.add(trade.trade_id);
      cursor = page.cursor;
    } while (cursor);
  }
  return [...ids].sort();
}

describe("a tape walk killed with SIGKILL", () => {
  const child = fileURLToPath(new URL("../testing/killable-tape.ts", import.meta.url));

  it("resumes from its span and cursor without a gap or a duplicate", async () => {
    await restartTape();
    const expected = await venueTape(SPAN.from, SPAN.to);
    await h.warehouse.close();
    const pages = 4;
    h.replay.setFault({ kind: "stall", source: "kalshi", match: "/markets/trades?", after: pages });
    h.replay.requests.length = 0;
    const proc = spawn(
      process.execPath,
      ["--import", "tsx", child, h.path, JSON.stringify(h.deps.config), String(T0 + SPAN_MS)],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let gone = false;
    const exited = new Promise((resolve) => proc.on("exit", resolve)).then(() => {
      gone = true;
    });
    const walked = () => h.replay.requests.filter((path) => path.includes("/markets/trades?")).length;
    while (walked() <= pages && !gone) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(gone, "the child was still walking").toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    proc.kill("SIGKILL");
    await exited;
    h.replay.setFault(null);
    await h.reopen();
    const killed = await storedTape(SPAN.from, SPAN.to);
    expect(killed.rows, "the killed walk stored some").toBeGreaterThan(0);
    expect(killed.rows, "and not all").toBeLessThan(expected.length);

    h.replay.requests.length = 0;
    await walkToEnd({ ...h.deps, warehouse: h.warehouse });
    // It went on from where it stood, not from the span's top.
    const resumed = h.replay.requests.filter((path) => path.includes("/markets/trades?"));
    expect(resumed[0]).toContain("cursor=");
    const stored = await storedTape(SPAN.from, SPAN.to);
    expect(stored.rows).toBe(stored.ids.length);
    expect(stored.ids).toEqual(expected);
  }, 300_000);
});
