import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../replay/catalog";
import type { FaultKind } from "../replay/server";
import { countRows, duplicateRows, type Harness, STALL_HTTP, startHarness } from "../testing/harness";
import { runSync } from "./run-sync";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ catalogSize: 6_000, leakCombos: true });
});
afterAll(async () => {
  await h?.close();
});

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** What a correct Polymarket run must store: open events plus those that ended within a week. */
function expectedPolymarket(): { events: number; markets: number } {
  const since = Date.now() - WEEK_MS;
  let events = 0;
  let markets = 0;
  for (let i = 0; i < h.replay.polymarket.eventCount; i += 1) {
    const event = h.replay.polymarket.event(i);
    if (event.closed === true && !(Date.parse(String(event.endDate)) >= since)) continue;
    events += 1;
    markets += (event.markets as Json[]).length;
  }
  return { events, markets };
}

describe("snapshot runs against the replay server", () => {
  it("pages through every Polymarket keyset page with after_cursor, never cursor or offset", async () => {
    h.replay.requests.length = 0;
    const run = await runSync(h.deps, { source: "polymarket" });
    expect(run).toMatchObject({ success: true, error: null });
    expect({ events: run.events_written, markets: run.markets_written }).toEqual(expectedPolymarket());
    const pages = h.replay.requests.filter((url) => url.includes("/events/keyset"));
    expect(pages.length).toBeGreaterThan(3);
    expect(pages.filter((url) => url.includes("after_cursor="))).toHaveLength(pages.length - 2);
    expect(pages.every((url) => !/[?&](cursor|offset)=/.test(url) && /closed=(true|false)/.test(url))).toBe(true);
    expect(await countRows(h.warehouse, "polymarket.markets", run.sync_timestamp)).toBe(run.markets_written);
    expect(await countRows(h.warehouse, "polymarket.markets_latest FINAL")).toBe(run.markets_written);
  });

  it("writes the same snapshot when the pages are streamed (the path a ClickHouse server takes)", async () => {
    const spooled = await runSync(h.deps, { source: "polymarket" });
    const streamed = await runSync({ ...h.deps, feed: "stream" }, { source: "polymarket" });
    expect(streamed).toMatchObject({ success: true, markets_written: spooled.markets_written });
    expect(streamed.events_written).toBe(spooled.events_written);
    const columns =
      "id, event_id, question, outcomes, outcomePrices, yes_probability, volume, bestBid, endDate, closed, raw";
    const snapshot = (ts: string) =>
      h.warehouse.query(
        `SELECT ${columns} FROM polymarket.markets WHERE sync_timestamp = {ts:DateTime64(3, 'UTC')} ORDER BY id`,
        { params: { ts } },
      );
    expect(await snapshot(streamed.sync_timestamp)).toEqual(await snapshot(spooled.sync_timestamp));
    expect(await duplicateRows(h.warehouse)).toMatchObject({ "polymarket.markets": 0, "polymarket.events": 0 });
  });

  it("pages through Kalshi with cursor until it comes back empty, and stores no combo", async () => {
    h.replay.requests.length = 0;
    const run = await runSync(h.deps, { source: "kalshi" });
    expect(run.success).toBe(true);
    const pages = h.replay.requests.filter((url) => url.includes("/events?"));
    expect(pages.filter((url) => url.includes("status=open")).length).toBeGreaterThan(1);
    expect(pages.some((url) => url.includes("cursor="))).toBe(true);
    expect(run.combos_excluded).toBeGreaterThan(0);
    expect(run.markets_written).toBeGreaterThan(2_000);
    const [combos] = await h.warehouse.query<{ n: string }>(
      `SELECT (SELECT count() FROM kalshi.markets WHERE ticker LIKE 'KXMVE%' OR event_ticker LIKE 'KXMVE%')
            + (SELECT count() FROM kalshi.events WHERE event_ticker LIKE 'KXMVE%') AS n`,
    );
    expect(Number(combos?.n)).toBe(0);

    const streamed = await runSync({ ...h.deps, feed: "stream" }, { source: "kalshi" });
    expect(streamed).toMatchObject({ success: true, markets_written: run.markets_written });
  });

  it("derives lastTradeTime from volume growth between runs", async () => {
    h.replay.advance();
    const run = await runSync(h.deps, { source: "polymarket" });
    const [row] = await h.warehouse.query<{ traded: string; open: string }>(
      `SELECT countIf(lastTradeTime = sync_timestamp) AS traded, countIf(closed = false) AS open
       FROM polymarket.markets WHERE sync_timestamp = {ts:DateTime64(3, 'UTC')}`,
      { params: { ts: run.sync_timestamp } },
    );
    expect(Number(row?.traded)).toBeGreaterThan(Number(row?.open) / 3);
  });
});

describe("every injected fault ends in a completed run or a clean failure", () => {
  const recoverable: Array<{ kind: FaultKind; times?: number }> = [
    { kind: "rate-limit", times: 2 },
    { kind: "server-error", times: 2 },
    { kind: "stall", times: 1 },
    { kind: "malformed-json", times: 1 },
    { kind: "truncated-json", times: 1 },
    { kind: "unknown-fields" },
    { kind: "bom" },
  ];
  for (const fault of recoverable) {
    it(`completes through ${fault.kind}`, async () => {
      h.replay.setFault({ ...fault, source: "polymarket", after: 1, retryAfterSeconds: 0.05 });
      const http = fault.kind === "stall" ? STALL_HTTP : h.deps.http;
      const run = await runSync({ ...h.deps, http }, { source: "polymarket" });
      h.replay.setFault(null);
      expect(run).toMatchObject({ success: true, objects_skipped: 0, ...expectedAsWritten() });
      expect(await duplicateRows(h.warehouse)).toEqual(allZero());
    });
  }

  it("skips and counts an object that fails validation, keeping the rest of its page", async () => {
    h.replay.setFault({ kind: "invalid-object", source: "kalshi", times: 1 });
    const run = await runSync(h.deps, { source: "kalshi" });
    h.replay.setFault(null);
    expect(run.success).toBe(true);
    expect(run.objects_skipped).toBe(1);
  });

  it("fails cleanly when the upstream keeps failing mid-run: no rows of the run remain", async () => {
    const latestBefore = await countRows(h.warehouse, "polymarket.markets_latest FINAL");
    const totalBefore = await countRows(h.warehouse, "polymarket.markets");
    h.replay.setFault({ kind: "server-error", source: "polymarket", after: 3 });
    const run = await runSync({ ...h.deps, writer: { maxRows: 300 } }, { source: "polymarket" });
    h.replay.setFault(null);
    expect(run.success).toBe(false);
    expect(run.error).toMatch(/HTTP 500/);
    expect(await countRows(h.warehouse, "polymarket.markets", run.sync_timestamp)).toBe(0);
    expect(await countRows(h.warehouse, "polymarket.events", run.sync_timestamp)).toBe(0);
    expect(await countRows(h.warehouse, "polymarket.markets")).toBe(totalBefore);
    expect(await countRows(h.warehouse, "polymarket.markets_latest FINAL")).toBe(latestBefore);
    const [recorded] = await h.warehouse.query<{ success: boolean; error: string }>(
      "SELECT success, error FROM internal.sync_run_history FINAL WHERE run_id = {id:String}",
      { params: { id: run.run_id } },
    );
    expect(recorded).toMatchObject({ success: false });
  });

  it("fails cleanly on a page that stays malformed", async () => {
    h.replay.setFault({ kind: "truncated-json", source: "kalshi", after: 1 });
    const run = await runSync(h.deps, { source: "kalshi" });
    h.replay.setFault(null);
    expect(run.success).toBe(false);
    expect(run.error).toMatch(/not JSON/);
    expect(await countRows(h.warehouse, "kalshi.markets", run.sync_timestamp)).toBe(0);
    expect(await duplicateRows(h.warehouse)).toEqual(allZero());
  });
});

function expectedAsWritten() {
  const expected = expectedPolymarket();
  return { events_written: expected.events, markets_written: expected.markets };
}

function allZero() {
  return { "polymarket.events": 0, "polymarket.markets": 0, "kalshi.events": 0, "kalshi.markets": 0 };
}
