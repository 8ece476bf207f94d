/**
 * The coverage ledger per market and day (migrations 16 and 17), on the embedded engine:
 * each market's stored snapshots beside the venue's that day, and the history stored for
 * the day beside them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWarehouse, type Warehouse } from "../client";
import { migrateWarehouse } from "../migrate";
import { toDateTime64 } from "../values";

const dir = mkdtempSync(join(tmpdir(), "epicenter-coverage-days-"));
let warehouse: Warehouse;
beforeAll(async () => {
  warehouse = openWarehouse({ path: join(dir, "warehouse"), poolSize: 1 });
  await migrateWarehouse(warehouse);
});
afterAll(async () => {
  await warehouse?.close();
  rmSync(dir, { recursive: true, force: true });
});

const MINUTE = 60_000;
const DAY = Date.parse("2026-11-20T00:00:00Z");

describe("coverage_days", () => {
  it("counts each market's snapshots of a day beside the venue's, in separate inserts as runs write them", async () => {
    // Three runs on the 20th: market A in all, B missed by the second; one run on the 21st with A only.
    const runs = [
      { at: DAY + 10 * MINUTE, tickers: ["A", "B"] },
      { at: DAY + 20 * MINUTE, tickers: ["A"] },
      { at: DAY + 30 * MINUTE, tickers: ["A", "B"] },
      { at: DAY + 24 * 60 * MINUTE, tickers: ["A"] },
    ];
    for (const run of runs) {
      await warehouse.insert(
        "kalshi.markets",
        run.tickers.map((ticker) => ({
          sync_timestamp: toDateTime64(run.at),
          ticker,
          event_ticker: "E",
          raw: "{}",
        })),
      );
    }
    const rows = await warehouse.query<{ day: string; ticker: string; snapshots: string; venue_snapshots: string }>(
      "SELECT toString(day) AS day, ticker, snapshots, venue_snapshots FROM kalshi.coverage_days ORDER BY day, ticker",
    );
    expect(rows.map((row) => [row.day, row.ticker, Number(row.snapshots), Number(row.venue_snapshots)])).toEqual([
      ["2026-11-20", "A", 3, 3],
      ["2026-11-20", "B", 2, 3],
      ["2026-11-21", "A", 1, 1],
    ]);
  });

  it("puts each day's history beside its snapshots: points at each fidelity, trades, the venue's own count", async () => {
    const at = (ms: number) => Math.floor(ms / 1000);
    // Kalshi market A: two hourly candles and a one-minute candle on the 20th (the hour
    // ending at midnight belongs to the 19th), two trades on the 20th adding up to 7 of the
    // 9 contracts its candles count; market C has history on the 19th and no snapshot.
    await warehouse.insert("kalshi.candles", [
      { ticker: "A", period_minutes: 60, end_period_ts: at(DAY), volume: 4 },
      { ticker: "A", period_minutes: 60, end_period_ts: at(DAY + 60 * MINUTE), volume: 5 },
      { ticker: "A", period_minutes: 60, end_period_ts: at(DAY + 120 * MINUTE), volume: 4 },
      { ticker: "A", period_minutes: 1, end_period_ts: at(DAY + 61 * MINUTE), volume: 1 },
      { ticker: "C", period_minutes: 60, end_period_ts: at(DAY - 120 * MINUTE), volume: 2 },
    ]);
    await warehouse.insert("kalshi.trades", [
      {
        trade_id: "t1",
        ticker: "A",
        created_time: toDateTime64(DAY + 5 * MINUTE),
        count: 3,
        yes_price: 0.4,
        no_price: 0.6,
      },
      {
        trade_id: "t2",
        ticker: "A",
        created_time: toDateTime64(DAY + 95 * MINUTE),
        count: 4,
        yes_price: 0.5,
        no_price: 0.5,
      },
    ]);
    const rows = await warehouse.query<Record<string, string | null>>(
      `SELECT toString(day) AS day, ticker, snapshots, venue_snapshots, candles_minute, candles_hour, trades,
              contracts_traded, venue_contracts, toString(first_point) AS first, toString(last_point) AS last
       FROM kalshi.coverage_days ORDER BY day, ticker`,
    );
    expect(
      rows.map((row) => [
        row.day,
        row.ticker,
        Number(row.snapshots),
        Number(row.venue_snapshots),
        Number(row.candles_minute),
        Number(row.candles_hour),
        Number(row.trades),
        Number(row.contracts_traded),
        Number(row.venue_contracts),
        row.first,
        row.last,
      ]),
    ).toEqual([
      ["2026-11-19", "A", 0, 0, 0, 1, 0, 0, 4, "2026-11-20 00:00:00", "2026-11-20 00:00:00"],
      ["2026-11-19", "C", 0, 0, 0, 1, 0, 0, 2, "2026-11-19 22:00:00", "2026-11-19 22:00:00"],
      ["2026-11-20", "A", 3, 3, 1, 2, 2, 7, 9, "2026-11-20 00:05:00", "2026-11-20 02:00:00"],
      ["2026-11-20", "B", 2, 3, 0, 0, 0, 0, 0, null, null],
      ["2026-11-21", "A", 1, 1, 0, 0, 0, 0, 0, null, null],
    ]);

    await warehouse.insert("polymarket.prices", [
      { id: "P", token_id: "y", outcome: "Yes", ts: at(DAY + MINUTE), price: 0.5, fidelity_minutes: 60 },
      { id: "P", token_id: "y", outcome: "Yes", ts: at(DAY + 2 * MINUTE), price: 0.5, fidelity_minutes: 1 },
      { id: "P", token_id: "n", outcome: "No", ts: at(DAY + 2 * MINUTE), price: 0.5, fidelity_minutes: 1 },
    ]);
    await warehouse.insert("polymarket.trades", [
      {
        id: "P",
        condition_id: "0xc",
        transaction_hash: "0x1",
        trade_index: 0,
        token_id: "y",
        ts: at(DAY + 30 * MINUTE),
        price: 0.5,
        size: 10,
      },
    ]);
    const [day] = await warehouse.query<Record<string, string | null>>(
      `SELECT snapshots, price_points_minute, price_points_hour, trades, toString(first_point) AS first,
              toString(last_point) AS last
       FROM polymarket.coverage_days WHERE id = 'P'`,
    );
    expect(day).toEqual({
      snapshots: "0",
      price_points_minute: "2",
      price_points_hour: "1",
      trades: "1",
      first: "2026-11-20 00:01:00",
      last: "2026-11-20 00:30:00",
    });
  });
});
