/**
 * Polymarket's exchange-wide trade tape (the Data API's `/v2/trades` without a market)
 * against the replay server on a real embedded warehouse: a walk stores every fill of the
 * span of every listed market once, numbered as the market's own walk numbers them,
 * across pages that end inside a transaction and a page cut mid-way; a walk killed with
 * SIGKILL resumes without a gap or a duplicate; a market listed after its first fills
 * gets them from its own walk, and markets' own walks stop once they have had one since
 * the tape started.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRateLimiter } from "../http/rate-limiter";
import { replayIngestConfig } from "../replay/server";
import { mapTrades } from "../sources/polymarket/history-values";
import { polymarketTapeStart, TAPE_SETTLE_SECONDS } from "../sources/polymarket/tape";
import { type Harness, startHarness } from "../testing/harness";
import { runHistoryStep } from "./history";
import { runSync } from "./run-sync";

const T0 = Date.parse("2026-02-20T00:00:00Z");
const SPAN_MS = 6 * 86_400_000;
let clock = T0;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ catalogSize: 6_000, now: () => clock });
  h.deps = {
    ...h.deps,
    config: replayIngestConfig(h.replay),
    clock: () => new Date(clock),
    rateLimiters: new Map([["polymarket", createRateLimiter({ requests: 100_000, perMs: 1_000 })]]),
  };
  expect((await runSync(h.deps, { source: "polymarket" })).success).toBe(true);
}, 300_000);
afterAll(async () => {
  await h?.close();
});

/** The span a walk at `clock` covers after one at T0 (Unix seconds, both inclusive). */
const SPAN = { from: T0 / 1000 - TAPE_SETTLE_SECONDS + 1, to: (T0 + SPAN_MS) / 1000 - TAPE_SETTLE_SECONDS };

interface Fill {
  conditionId: string;
  transactionHash: string;
  asset: string;
  side: string;
  price: number;
  size: number;
  proxyWallet: string;
  timestamp: number;
}

const fillKey = (fill: Omit<Fill, "timestamp">) =>
  [fill.conditionId, fill.transactionHash, fill.asset, fill.side, fill.price, fill.size, fill.proxyWallet].join("|");

/** The venue's tape from its top down to the span's start (it holds about two months). */
async function venueTape(): Promise<Fill[]> {
  const fills: Fill[] = [];
  let cursor = "";
  do {
    const url = new URL(`${h.replay.url.polymarketData}/v2/trades`);
    url.searchParams.set("limit", "500");
    if (cursor) url.searchParams.set("cursor", cursor);
    const page = (await (await fetch(url)).json()) as { trades: Fill[]; next_cursor: string | null };
    fills.push(...page.trades);
    cursor = page.trades.some((fill) => fill.timestamp < SPAN.from) ? "" : (page.next_cursor ?? "");
  } while (cursor);
  return fills;
}

async function listedConditions(): Promise<Set<string>> {
  const rows = await h.warehouse.query<{ condition: string }>(
    "SELECT conditionId AS condition FROM polymarket.markets_latest FINAL",
  );
  return new Set(rows.map((row) => row.condition));
}

/** The fills of listed markets in the span, as keys, sorted (a fill twice is there twice). */
async function expectedFills(): Promise<string[]> {
  const listed = await listedConditions();
  return (await venueTape())
    .filter((fill) => fill.timestamp >= SPAN.from && fill.timestamp <= SPAN.to && listed.has(fill.conditionId))
    .map(fillKey)
    .sort();
}

async function storedFills(): Promise<{ keys: string[]; rows: number; ids: number }> {
  const rows = await h.warehouse.query<Omit<Fill, "timestamp"> & { id: string; index: number }>(
    `SELECT condition_id AS conditionId, transaction_hash AS transactionHash, token_id AS asset, side, price, size,
            proxy_wallet AS proxyWallet, id, trade_index AS index
     FROM polymarket.trades FINAL
     WHERE ts BETWEEN toDateTime({from:UInt32}, 'UTC') AND toDateTime({to:UInt32}, 'UTC')`,
    { params: SPAN },
  );
  return {
    keys: rows.map(fillKey).sort(),
    rows: rows.length,
    ids: new Set(rows.map((row) => `${row.id} ${row.transactionHash} ${row.index}`)).size,
  };
}

async function walkToEnd(deps = h.deps) {
  for (let steps = 0; steps < 200; steps += 1) {
    const step = await runHistoryStep(deps, "polymarket", { markets: 0 });
    expect(step.run.error).toBeNull();
    if (!step.outcome?.more) return;
  }
  throw new Error("the tape never caught up");
}

async function restartTape() {
  await h.warehouse.command("TRUNCATE TABLE polymarket.trades");
  await h.warehouse.command("TRUNCATE TABLE internal.feed_state");
  await h.warehouse.command("TRUNCATE TABLE internal.history_state");
  clock = T0;
  await walkToEnd();
  expect(await polymarketTapeStart(h.warehouse)).toBe(SPAN.from);
  clock = T0 + SPAN_MS;
}

describe("Polymarket's trade tape", () => {
  let expected: string[];

  it("stores every listed market's fills of the span once, numbered as the market's own walk numbers them", async () => {
    await restartTape();
    expected = await expectedFills();
    expect(expected.length, "several pages of fills").toBeGreaterThan(2_000);
    h.replay.requests.length = 0;
    await walkToEnd();
    const stored = await storedFills();
    expect(stored.rows).toBe(stored.ids);
    expect(stored.keys).toEqual(expected);
    const walk = h.replay.requests.filter((path) => path.includes("/v2/trades?"));
    expect(walk.every((path) => !path.includes("condition="))).toBe(true);

    // Each market's fills carry the numbers its own walk would give them.
    const markets = await h.warehouse.query<{ id: string; condition: string; n: string }>(
      `SELECT id, any(condition_id) AS condition, count() AS n FROM polymarket.trades
       GROUP BY id ORDER BY n DESC, id LIMIT 15`,
    );
    for (const market of markets) {
      const own = await ownFills(market.condition);
      const numbered = mapTrades({ id: market.id, conditionId: market.condition, tokens: [], outcomes: [] }, own)
        .rows.filter((row) => row.ts >= SPAN.from && row.ts <= SPAN.to)
        .map((row) => `${row.transaction_hash} ${row.trade_index} ${row.token_id} ${row.size}`)
        .sort();
      const rows = await h.warehouse.query<{ key: string }>(
        `SELECT concat(transaction_hash, ' ', toString(trade_index), ' ', token_id, ' ', toString(size)) AS key
         FROM polymarket.trades WHERE id = {id:String} ORDER BY key`,
        { params: { id: market.id } },
      );
      expect(
        rows.map((row) => row.key),
        market.id,
      ).toEqual(numbered);
    }

    // A second walk at the same clock has nothing to ask for.
    h.replay.requests.length = 0;
    await walkToEnd();
    expect(h.replay.requests.filter((path) => path.includes("/v2/trades?"))).toEqual([]);
  }, 300_000);

  it("goes on through a page cut mid-way", async () => {
    await restartTape();
    h.replay.setFault({ kind: "truncated-json", source: "polymarket", match: "limit=500&cursor=", after: 1, times: 2 });
    try {
      await walkToEnd();
    } finally {
      h.replay.setFault(null);
    }
    const stored = await storedFills();
    expect(stored.rows).toBe(stored.ids);
    expect(stored.keys).toEqual(expected);
  }, 300_000);

  it("leaves a listed market's fills to the tape once the market's own walk has run since it started", async () => {
    await restartTape();
    const open = await h.warehouse.query<{ id: string }>(
      "SELECT id FROM polymarket.markets_latest FINAL WHERE NOT closed ORDER BY id LIMIT 20",
    );
    await withListed(
      open.map((row) => row.id),
      async () => {
        h.replay.requests.length = 0;
        let step = await runHistoryStep(h.deps, "polymarket", { markets: 20 });
        expect(step.run.error).toBeNull();
        expect(step.outcome?.markets).toBe(20);
        const own = () =>
          h.replay.requests.filter((path) => path.includes("/v2/trades?") && path.includes("condition="));
        expect(new Set(own().map(conditionOf)).size, "each market walks its own trades once").toBe(20);
        // A day on, the same markets are refreshed, and their trades asked of the tape alone.
        clock += 86_400_000;
        h.replay.requests.length = 0;
        step = await runHistoryStep(h.deps, "polymarket", { markets: 20 });
        expect(step.run.error).toBeNull();
        expect(step.outcome?.markets).toBe(20);
        expect(own()).toEqual([]);
        expect(h.replay.requests.some((path) => path.includes("/v2/trades?") && !path.includes("condition="))).toBe(
          true,
        );
      },
    );
    const stored = await h.warehouse.query<{ rows: string; keys: string }>(
      "SELECT count() AS rows, uniqExact(id, transaction_hash, trade_index) AS keys FROM polymarket.trades",
    );
    expect(stored[0]?.rows).toBe(stored[0]?.keys);
  }, 300_000);
});

describe("a market listed after its first fills", () => {
  it("gets the fills the tape skipped from its own walk", async () => {
    await restartTape();
    // The open market with the most fills in the span, unlisted while the tape walks it.
    const open = new Map(
      (
        await h.warehouse.query<{ id: string; condition: string }>(
          "SELECT id, conditionId AS condition FROM polymarket.markets_latest FINAL WHERE NOT closed",
        )
      ).map((row) => [row.condition, row.id]),
    );
    const counts = new Map<string, number>();
    for (const fill of await venueTape()) {
      if (fill.timestamp < SPAN.from || fill.timestamp > SPAN.to || !open.has(fill.conditionId)) continue;
      counts.set(fill.conditionId, (counts.get(fill.conditionId) ?? 0) + 1);
    }
    const [condition] = [...counts].sort((a, b) => b[1] - a[1])[0] as [string, number];
    const id = open.get(condition) as string;
    await withListed([], async () => {
      await walkToEnd();
    });
    const skipped = await h.warehouse.query<{ n: string }>(
      "SELECT count() AS n FROM polymarket.trades WHERE id = {id:String}",
      { params: { id } },
    );
    expect(Number(skipped[0]?.n), "the tape skipped it").toBe(0);
    expect(Number((await storedFills()).rows), "and stored nothing while no market was listed").toBe(0);

    await withListed([id], async () => {
      h.replay.requests.length = 0;
      const step = await runHistoryStep(h.deps, "polymarket", { markets: 1 });
      expect(step.run.error).toBeNull();
      expect(h.replay.requests.some((path) => path.includes(`condition=${condition}`))).toBe(true);
    });
    const own = (await ownFills(condition))
      .filter((fill) => fill.timestamp <= SPAN.to)
      .map(fillKey)
      .sort();
    expect(own.length).toBeGreaterThanOrEqual(counts.get(condition) ?? 0);
    const stored = await h.warehouse.query<Omit<Fill, "timestamp">>(
      `SELECT condition_id AS conditionId, transaction_hash AS transactionHash, token_id AS asset, side, price, size,
              proxy_wallet AS proxyWallet
       FROM polymarket.trades FINAL WHERE id = {id:String} AND ts <= toDateTime({to:UInt32}, 'UTC')`,
      { params: { id, to: SPAN.to } },
    );
    expect(stored.map(fillKey).sort()).toEqual(own);
  }, 300_000);
});

/** Runs `body` with only the markets `ids` listed, then lists every market again as it was. */
async function withListed(ids: readonly string[], body: () => Promise<void>): Promise<void> {
  const all = await h.warehouse.query<Record<string, unknown>>("SELECT * FROM polymarket.markets_latest FINAL");
  await h.warehouse.command(
    `ALTER TABLE polymarket.markets_latest DELETE WHERE id NOT IN {ids:Array(String)} SETTINGS mutations_sync = 1`,
    { params: { ids } },
  );
  try {
    await body();
  } finally {
    await h.warehouse.command("TRUNCATE TABLE polymarket.markets_latest");
    await h.warehouse.insert("polymarket.markets_latest", all);
  }
}

function conditionOf(path: string): string {
  return new URL(path, "http://replay").searchParams.get("condition") ?? "";
}

describe("a tape walk killed with SIGKILL", () => {
  const child = fileURLToPath(new URL("../testing/killable-tape.ts", import.meta.url));

  it("resumes from its span and cursor without a gap or a duplicate", async () => {
    await restartTape();
    const expected = await expectedFills();
    await h.warehouse.close();
    const pages = 3;
    h.replay.setFault({ kind: "stall", source: "polymarket", match: "/v2/trades?", after: pages });
    h.replay.requests.length = 0;
    const proc = spawn(
      process.execPath,
      ["--import", "tsx", child, h.path, JSON.stringify(h.deps.config), String(T0 + SPAN_MS), "polymarket"],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let gone = false;
    const exited = new Promise((resolve) => proc.on("exit", resolve)).then(() => {
      gone = true;
    });
    const asked = () => h.replay.requests.filter((path) => path.includes("/v2/trades?")).length;
    while (asked() <= pages && !gone) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(gone, "the child was still walking").toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    proc.kill("SIGKILL");
    await exited;
    h.replay.setFault(null);
    await h.reopen();
    const killed = await storedFills();
    expect(killed.rows, "the killed walk stored some").toBeGreaterThan(0);
    expect(killed.rows, "and not all").toBeLessThan(expected.length);

    h.replay.requests.length = 0;
    await walkToEnd({ ...h.deps, warehouse: h.warehouse });
    const resumed = h.replay.requests.filter((path) => path.includes("/v2/trades?"));
    expect(resumed[0]).toContain("cursor=");
    const stored = await storedFills();
    expect(stored.rows).toBe(stored.ids);
    expect(stored.keys).toEqual(expected);
  }, 300_000);
});

/** One market's fills as its own walk gets them, newest first to the end. */
async function ownFills(condition: string): Promise<Fill[]> {
  const fills: Fill[] = [];
  let cursor = "";
  do {
    const url = new URL(`${h.replay.url.polymarketData}/v2/trades`);
    url.searchParams.set("condition", condition);
    url.searchParams.set("limit", "500");
    if (cursor) url.searchParams.set("cursor", cursor);
    const page = (await (await fetch(url)).json()) as { trades: Fill[]; next_cursor: string | null };
    fills.push(...page.trades);
    cursor = page.next_cursor ?? "";
  } while (cursor);
  return fills;
}
