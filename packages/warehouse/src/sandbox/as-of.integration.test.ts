/**
 * The "as of" views (migration 18) through the sandbox, as user SQL calls them: both
 * argument forms, and the semantics at the edges — no capture yet, a market that closed
 * before `ts`, two captures within one second, a book older than the look-back.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rowsAsObjects } from "@epicenter/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWarehouse, type Warehouse } from "../client";
import { migrateWarehouse } from "../migrate";
import { nameAsOfArguments } from "./as-of";
import { SandboxRefusal } from "./errors";
import { Sandbox } from "./sandbox";

const dir = mkdtempSync(join(tmpdir(), "epicenter-asof-"));
const path = join(dir, "warehouse");
let warehouse: Warehouse;
let sandbox: Sandbox;

const T = Date.parse("2026-11-20T12:00:00Z");
const MIN = 60_000;
const at = (ms: number) => new Date(ms).toISOString().replace("T", " ").replace("Z", "");

const book = (ticker: string, ms: number, state: string, bid: number, ask: number | null) => ({
  sync_timestamp: at(ms),
  ticker,
  book_timestamp: null,
  state,
  bid_price: state === "closed" ? [] : [bid.toFixed(4), (bid - 0.01).toFixed(4)],
  bid_size: state === "closed" ? [] : [100, 250],
  ask_price: ask === null || state === "closed" ? [] : [ask.toFixed(4)],
  ask_size: ask === null || state === "closed" ? [] : [40],
});

beforeAll(async () => {
  warehouse = openWarehouse({ path, poolSize: 2 });
  await migrateWarehouse(warehouse);
  await warehouse.insert("kalshi.books", [
    // Two captures 400 ms apart, in one second.
    book("TWICE", T - 10 * MIN, "active", 0.4, 0.45),
    book("TWICE", T - 10 * MIN + 400, "active", 0.41, 0.46),
    // Captured, then closed before T.
    book("CLOSED", T - 30 * MIN, "hourly", 0.9, 0.95),
    book("CLOSED", T - 20 * MIN, "closed", 0, null),
    // Last captured 80 minutes before T: past the look-back.
    book("STALE", T - 80 * MIN, "hourly", 0.2, 0.3),
    // One-sided.
    book("ONESIDED", T - 5 * MIN, "active", 0.05, null),
    // First captured after T.
    book("LATER", T + 5 * MIN, "active", 0.5, 0.55),
  ]);
  const market = (ticker: string, ms: number, status: string, price: number) => ({
    sync_timestamp: at(ms),
    ticker,
    event_ticker: "EV",
    title: ticker,
    status,
    last_price_dollars: price,
  });
  const snapshots = [
    market("OPEN", T - 20 * MIN, "active", 0.3),
    market("OPEN", T - 10 * MIN, "active", 0.35),
    market("OPEN", T - 10 * MIN + 300, "active", 0.36),
    market("OPEN", T + 10 * MIN, "active", 0.5),
    // Closed 10 days before T: its last snapshot is older than the window.
    market("GONE", T - 10 * 24 * 60 * MIN, "finalized", 1),
    market("NEW", T + 20 * MIN, "active", 0.1),
  ];
  await warehouse.insert("kalshi.markets", snapshots);
  // The latest table holds each market's newest row, as a run publishes it.
  await warehouse.insert(
    "kalshi.markets_latest",
    snapshots.filter((row) => !(row.ticker === "OPEN" && row.sync_timestamp !== at(T + 10 * MIN))),
  );
  sandbox = await Sandbox.open(
    { path, warehouse },
    { limits: { maxExecutionSeconds: 10, maxMemoryBytes: 500 * 1024 ** 2, poolSize: 1 }, maxStalenessMs: 0 },
  );
});

afterAll(async () => {
  await sandbox?.close();
  await warehouse?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function rows(sql: string): Promise<Record<string, unknown>[]> {
  return rowsAsObjects(await sandbox.run(sql, { limit: 1_000 }));
}

describe("book_asof", () => {
  it("answers each market's last book at or before ts, levels best first, with its capture time", async () => {
    const got = await rows(`SELECT ticker, captured_at, side, level, price, size FROM kalshi.book_asof('${at(T)}')`);
    expect(got.map((row) => row.ticker)).not.toContain("CLOSED");
    expect(got.map((row) => row.ticker)).not.toContain("STALE");
    expect(got.map((row) => row.ticker)).not.toContain("LATER");
    const twice = got.filter((row) => row.ticker === "TWICE");
    expect(twice).toEqual([
      { ticker: "TWICE", captured_at: at(T - 10 * MIN + 400), side: "bid", level: 1, price: 0.41, size: 100 },
      { ticker: "TWICE", captured_at: at(T - 10 * MIN + 400), side: "bid", level: 2, price: 0.4, size: 250 },
      { ticker: "TWICE", captured_at: at(T - 10 * MIN + 400), side: "ask", level: 1, price: 0.46, size: 40 },
    ]);
    expect(got.filter((row) => row.ticker === "ONESIDED").map((row) => row.side)).toEqual(["bid", "bid"]);
  });

  it("tells two captures in one second apart", async () => {
    const between = await rows(
      `SELECT DISTINCT captured_at FROM kalshi.book_asof(ts = '${at(T - 10 * MIN + 200)}') WHERE ticker = 'TWICE'`,
    );
    expect(between).toEqual([{ captured_at: at(T - 10 * MIN) }]);
  });

  it("has no book for a market before its first capture, and none after it closed", async () => {
    const before = await rows(`SELECT count() AS n FROM kalshi.book_asof('${at(T - 100 * MIN)}')`);
    expect(before).toEqual([{ n: "0" }]);
    const whileOpen = await rows(
      `SELECT DISTINCT ticker FROM kalshi.book_asof('${at(T - 25 * MIN)}') WHERE ticker = 'CLOSED'`,
    );
    expect(whileOpen).toEqual([{ ticker: "CLOSED" }]);
  });

  it("takes an expression for ts, as the issue's example writes it", async () => {
    const got = await rows("SELECT count() AS n FROM kalshi.book_asof(now() - INTERVAL 20 MINUTE)");
    expect(got).toEqual([{ n: "0" }]);
  });
});

describe("markets_asof", () => {
  it("answers each market's snapshot as last captured at or before ts, with its capture time", async () => {
    const got = await rows(
      `SELECT ticker, captured_at, status, last_price_dollars FROM kalshi.markets_asof('${at(T)}') ORDER BY ticker`,
    );
    expect(got).toEqual([
      // Closed long before ts: its final state, from the latest table.
      { ticker: "GONE", captured_at: at(T - 10 * 24 * 60 * MIN), status: "finalized", last_price_dollars: 1 },
      // Two captures in one second: the later one.
      { ticker: "OPEN", captured_at: at(T - 10 * MIN + 300), status: "active", last_price_dollars: 0.36 },
    ]);
  });

  it("has no row for a market not captured yet", async () => {
    const got = await rows(`SELECT ticker FROM kalshi.markets_asof(ts = '${at(T + 15 * MIN)}') ORDER BY ticker`);
    expect(got.map((row) => row.ticker)).toEqual(["GONE", "OPEN"]);
  });
});

describe("the sandbox", () => {
  it("names the one unnamed argument and leaves named ones alone", () => {
    expect(nameAsOfArguments("SELECT * FROM polymarket.book_asof(now()) LIMIT 5")).toBe(
      "SELECT * FROM polymarket.book_asof(ts = now()) LIMIT 5",
    );
    expect(nameAsOfArguments("SELECT * FROM kalshi.markets_asof( ts = now())")).toBe(
      "SELECT * FROM kalshi.markets_asof( ts = now())",
    );
    expect(nameAsOfArguments("SELECT 'polymarket.book_asof(1)' FROM polymarket.markets")).toBe(
      "SELECT 'polymarket.book_asof(1)' FROM polymarket.markets",
    );
  });

  it("still refuses every other table function", async () => {
    await expect(sandbox.run("SELECT * FROM polymarket.markets_latest(ts = now())", { limit: 1 })).rejects.toThrow(
      SandboxRefusal,
    );
  });
});
