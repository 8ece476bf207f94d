/**
 * The coverage ledger's snapshots per market and day (migration 16), on the embedded
 * engine: each market's stored snapshots beside the venue's that day.
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
});
