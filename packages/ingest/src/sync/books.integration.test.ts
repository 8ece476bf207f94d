/**
 * The order-book capture against the replay server on a real embedded warehouse: what a
 * capture after a snapshot stores, its ledger, the tiers under a tight budget, and the
 * closing row of a market that left the open catalog.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { replayLevels } from "../replay/books";
import { type Harness, startHarness } from "../testing/harness";
import { type BookCaptureOutcome, captureBooks, QUIET_SLOTS, slotAt, slotOf } from "./books";
import { runSync } from "./run-sync";

/** The replay's clock, fixed, so the books it serves can be recomputed here. */
const NOW = Date.parse("2026-11-20T12:00:30Z");
let harness: Harness;
const snapshots: Record<"polymarket" | "kalshi", string> = { polymarket: "", kalshi: "" };

beforeAll(async () => {
  harness = await startHarness({ now: () => NOW });
  for (const source of ["polymarket", "kalshi"] as const) {
    const run = await runSync(harness.deps, { source });
    expect(run.success).toBe(true);
    snapshots[source] = run.sync_timestamp;
  }
}, 120_000);

afterAll(async () => {
  await harness?.close();
});

interface BookRow {
  market: string;
  state: string;
  bid_price: number[];
  ask_price: number[];
  bid_size: number[];
  ask_size: number[];
}

async function booksAt(source: string, key: string, ts: string): Promise<BookRow[]> {
  return harness.warehouse.query<BookRow>(
    `SELECT ${key} AS market, state, bid_price, bid_size, ask_price, ask_size FROM ${source}.books
     WHERE sync_timestamp = {ts:DateTime64(3, 'UTC')} ORDER BY market`,
    { params: { ts } },
  );
}

async function ledger(source: string, ts: string): Promise<Record<string, unknown>> {
  const [row] = await harness.warehouse.query<Record<string, unknown>>(
    `SELECT * EXCEPT (sync_timestamp, duration_ms) FROM ${source}.book_coverage WHERE sync_timestamp = {ts:DateTime64(3, 'UTC')}`,
    { params: { ts } },
  );
  return row ?? {};
}

const counts = (outcome: BookCaptureOutcome) => {
  const { sync_timestamp: _ts, duration_ms: _ms, ...rest } = outcome;
  return rest;
};

describe.each([
  ["polymarket", "id"],
  ["kalshi", "ticker"],
] as const)("%s books", (source, key) => {
  let outcome: BookCaptureOutcome;
  let rows: BookRow[];

  beforeAll(async () => {
    outcome = await captureBooks(harness.deps, source, snapshots[source], { intervalSeconds: 600 });
    rows = await booksAt(source, key, snapshots[source]);
  }, 120_000);

  it("captures every market due: the traded ones and this slot's share of the quiet ones", async () => {
    const open = await harness.warehouse.query<{ market: string; active: number }>(sourceTargets(source), {
      params: { ts: snapshots[source] },
    });
    const slot = slotAt(snapshots[source]);
    const active = new Set(open.filter((m) => Number(m.active) > 0).map((m) => m.market));
    const due = open.filter((m) => active.has(m.market) || slotOf(m.market) === slot);
    expect(outcome.active_due).toBe(active.size);
    expect(outcome.active_due + outcome.hourly_due).toBe(due.length);
    expect(outcome).toMatchObject({ markets_open: open.length, failed: 0, left_out: 0, error: "" });
    expect(rows.map((row) => row.market)).toEqual(due.map((m) => m.market).sort());
    for (const row of rows) expect(row.state).toBe(active.has(row.market) ? "active" : "hourly");
  });

  it("stores at most ten levels a side, bids descending below asks ascending", () => {
    let deep = 0;
    let oneSided = 0;
    for (const row of rows) {
      const bids = row.bid_price.map(Number);
      const asks = row.ask_price.map(Number);
      expect(bids.length).toBeLessThanOrEqual(10);
      expect(asks.length).toBeLessThanOrEqual(10);
      expect(bids).toEqual([...bids].sort((a, b) => b - a));
      expect(asks).toEqual([...asks].sort((a, b) => a - b));
      if (bids.length > 0 && asks.length > 0) expect(bids[0]).toBeLessThan(asks[0] as number);
      if (bids.length === 10) deep += 1;
      if ((bids.length === 0) !== (asks.length === 0)) oneSided += 1;
    }
    // The replay serves up to 15 levels a side, empty and one-sided books among them.
    expect(deep).toBeGreaterThan(0);
    expect(oneSided).toBeGreaterThan(0);
    expect(outcome.empty).toBeGreaterThan(0);
  });

  it("writes the yes book the venue served: Kalshi's no bids as yes asks at 1 − p", async () => {
    const priced = await harness.warehouse.query<{ market: string; book_id: string; yes: number }>(
      source === "polymarket"
        ? `SELECT id AS market, clobTokenIds[1] AS book_id, outcomePrices[1] AS yes FROM polymarket.markets_latest FINAL`
        : `SELECT ticker AS market, ticker AS book_id, last_price_dollars AS yes FROM kalshi.markets_latest FINAL`,
    );
    const byMarket = new Map(priced.map((row) => [row.market, row]));
    const minute = Math.floor(NOW / 60_000);
    let compared = 0;
    for (const row of rows.filter((r) => r.bid_price.length > 0 && r.ask_price.length > 0).slice(0, 25)) {
      const market = byMarket.get(row.market);
      if (!market) continue;
      const served = replayLevels(market.book_id, Number(market.yes), minute);
      expect(row.bid_price.map(Number)).toEqual(served.bids.slice(0, 10).map(([cents]) => cents / 100));
      expect(row.ask_price.map(Number)).toEqual(served.asks.slice(0, 10).map(([cents]) => cents / 100));
      compared += 1;
    }
    expect(compared).toBeGreaterThan(5);
  });

  it("records the capture in the ledger", async () => {
    expect(await ledger(source, snapshots[source])).toEqual(counts(outcome));
  });
});

describe("a tight budget", () => {
  it("captures the most traded markets first and counts the rest as left out", async () => {
    const run = await runSync(harness.deps, { source: "kalshi" });
    const outcome = await captureBooks(harness.deps, "kalshi", run.sync_timestamp, {
      intervalSeconds: 600,
      maxMarkets: 7,
    });
    expect(outcome.captured).toBe(7);
    expect(outcome.left_out).toBe(outcome.active_due + outcome.hourly_due - 7);
    const rows = await booksAt("kalshi", "ticker", run.sync_timestamp);
    expect(rows.map((row) => row.state)).toEqual(Array(7).fill("active"));
    const volumes = await harness.warehouse.query<{ ticker: string; v: number }>(
      `SELECT ticker, coalesce(volume_24h, 0) AS v FROM kalshi.markets_latest FINAL
       WHERE sync_timestamp = {ts:DateTime64(3, 'UTC')} AND status = 'active' ORDER BY v DESC, ticker LIMIT 7`,
      { params: { ts: run.sync_timestamp } },
    );
    expect(rows.map((row) => row.market).sort()).toEqual(volumes.map((row) => row.ticker).sort());
    expect(await ledger("kalshi", run.sync_timestamp)).toMatchObject({ captured: 7, budget: 7 });
  }, 120_000);

  it("spreads the quiet markets over the hour's six slots", () => {
    const counts = Array(QUIET_SLOTS).fill(0);
    for (let i = 0; i < 6_000; i++) counts[slotOf(`KX-${i}`)] += 1;
    for (const count of counts) expect(count).toBeGreaterThan(850);
  });
});

describe("a market that left the open catalog", () => {
  it("gets one empty closed row, and no book as of a later time", async () => {
    // Every market with a book row in the look-back, empty books included.
    const before = await harness.warehouse.query<{ n: string }>(
      `SELECT uniqExact(ticker) AS n FROM kalshi.books WHERE sync_timestamp > now64(3) - INTERVAL 1 HOUR`,
    );
    expect(Number(before[0]?.n)).toBeGreaterThan(0);
    // A snapshot time no market row has: as if every market had closed since.
    const later = new Date(Date.now() + 1_000).toISOString().replace("T", " ").replace("Z", "");
    const outcome = await captureBooks(harness.deps, "kalshi", later, { intervalSeconds: 600 });
    expect(outcome.markets_open).toBe(0);
    expect(outcome.closed).toBe(Number(before[0]?.n));
    const rows = await booksAt("kalshi", "ticker", later);
    expect(rows.every((row) => row.state === "closed" && row.bid_price.length === 0)).toBe(true);
    const after = await harness.warehouse.query<{ n: string }>(
      `SELECT count() AS n FROM kalshi.book_asof(ts = {ts:DateTime64(3, 'UTC')})`,
      { params: { ts: later } },
    );
    expect(after).toEqual([{ n: "0" }]);
  }, 120_000);
});

it("the replay's books are what a reader must survive: deep, empty and one-sided", () => {
  const depths = Array.from({ length: 200 }, (_, i) => replayLevels(`M${i}`, 0.5, 1));
  expect(depths.some((book) => book.bids.length > 10)).toBe(true);
  expect(depths.some((book) => book.bids.length === 0 && book.asks.length === 0)).toBe(true);
  expect(depths.some((book) => book.bids.length > 0 && book.asks.length === 0)).toBe(true);
});

function sourceTargets(source: "polymarket" | "kalshi"): string {
  return source === "polymarket"
    ? `SELECT id AS market, coalesce(volume24hr, 0) > 0 AS active FROM polymarket.markets_latest FINAL
       WHERE sync_timestamp = {ts:DateTime64(3, 'UTC')} AND closed = false AND coalesce(active, true)
         AND coalesce(enableOrderBook, true) AND length(clobTokenIds) > 0`
    : `SELECT ticker AS market, coalesce(volume_24h, 0) > 0 AS active FROM kalshi.markets_latest FINAL
       WHERE sync_timestamp = {ts:DateTime64(3, 'UTC')} AND status IN ('active', 'open')`;
}
