/**
 * The daily sample questions are answered from the per-day projection `market_day`
 * (warehouse migration 0005), and the projection answers exactly what the snapshots do.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrateWarehouse, openWarehouse, type Warehouse } from "@epicenter/warehouse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VENUE_READERS, type VenueTables as Venue } from "../venues";
import { averageYesProbability, dailyActivity, tradingPerHour } from "./market-sql";

const POLYMARKET = VENUE_READERS.polymarket.tables;
const KALSHI = VENUE_READERS.kalshi.tables;

const dir = mkdtempSync(join(tmpdir(), "epicenter-market-sql-"));
let warehouse: Warehouse;

beforeAll(async () => {
  warehouse = openWarehouse({ path: join(dir, "warehouse"), poolSize: 2 });
  await migrateWarehouse(warehouse);
  // Three markets per venue, a snapshot every 10 minutes for the last 9 days, written in
  // three inserts (three parts), with volumes that rise and prices that move.
  for (const [venue, table, key, price] of [
    [POLYMARKET, "polymarket.markets", "id", "yes_probability"],
    [KALSHI, "kalshi.markets", "ticker", "last_price_dollars"],
  ] as const) {
    for (const part of [0, 1, 2]) {
      await warehouse.command(
        `INSERT INTO ${table} (sync_timestamp, ${key}, volume, ${price})
         SELECT
           toStartOfTenMinutes(now()) - toIntervalMinute(10 * (number DIV 3)) AS sync_timestamp,
           concat('${venue.name}-', toString(number % 3)) AS ${key},
           if(number % 3 = 2, NULL, 1000 - (number DIV 3) * (number % 3 + 1)) AS volume,
           if(number % 7 = 0, NULL, ((number * 37) % 100) / 100) AS ${price}
         FROM numbers(3 * 9 * 144)
         WHERE (number DIV 3) % 3 = ${part}`,
      );
    }
  }
});
afterAll(async () => {
  await warehouse.close();
  rmSync(dir, { recursive: true, force: true });
});

// On a few rows the engine may read the snapshots as cheaply, so the tests insist on the
// projection (an error if it cannot answer); on real volumes it is chosen by itself. chDB
// keeps a setting on the connection once sent, so both sides send all three.
const fromMarketDay = (sql: string) =>
  warehouse.query(sql, {
    settings: {
      optimize_use_projections: 1,
      preferred_optimize_projection_name: "market_day",
      force_optimize_projection: 1,
    },
  });
const fromSnapshots = (sql: string) =>
  warehouse.query(sql, {
    settings: { optimize_use_projections: 0, preferred_optimize_projection_name: "", force_optimize_projection: 0 },
  });

describe.each([POLYMARKET, KALSHI])("the daily questions on $name", (venue: Venue) => {
  it.each([
    ["daily activity", dailyActivity(venue)],
    ["average yes probability", averageYesProbability(venue)],
  ])("%s can be answered from market_day, exactly as from the snapshots", async (_name, sql) => {
    const answer = await fromMarketDay(sql);
    expect(answer).toHaveLength(7);
    expect(answer).toEqual(await fromSnapshots(sql));
  });

  it("trading per hour cannot (an hour is not a day), and still runs", async () => {
    await expect(fromMarketDay(tradingPerHour(venue))).rejects.toThrow(/No projection is used/);
    expect((await fromSnapshots(tradingPerHour(venue))).length).toBeGreaterThan(0);
  });
});
