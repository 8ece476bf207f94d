/**
 * The editor's rewrite of the latest-row pattern answers exactly the rows the pattern does:
 * markets last seen inside the window and long before it, a market seen once, prices that
 * move between snapshots, over several parts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { adviseQuery } from "@epicenter/contracts";
import { migrateWarehouse, openWarehouse, type Warehouse } from "@epicenter/warehouse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLE_QUERIES } from "./examples";

const dir = mkdtempSync(join(tmpdir(), "epicenter-query-advice-"));
let warehouse: Warehouse;

beforeAll(async () => {
  warehouse = openWarehouse({ path: join(dir, "warehouse"), poolSize: 1 });
  await migrateWarehouse(warehouse);
  // 40 markets, each last seen 0 to 78 hours ago, with snapshots every 10 minutes for the
  // two days before that, in three parts; market 0 is seen once.
  for (const part of [0, 1, 2]) {
    await warehouse.command(
      `INSERT INTO polymarket.markets (sync_timestamp, id, question, yes_probability, volume24hr)
       SELECT
         toStartOfTenMinutes(now()) - toIntervalHour(2 * market) - toIntervalMinute(10 * step) AS sync_timestamp,
         toString(market) AS id,
         concat('Market ', toString(market)) AS question,
         ((market * 37 + step * 11) % 100) / 100 AS yes_probability,
         1000 * market + step AS volume24hr
       FROM (SELECT number % 40 AS market, intDiv(number, 40) AS step FROM numbers(40 * 288))
       WHERE step % 3 = ${part} AND (market > 0 OR step = 0)`,
    );
  }
  await warehouse.command(
    `INSERT INTO polymarket.markets_latest (sync_timestamp, id, question, yes_probability, volume24hr)
     SELECT sync_timestamp, id, question, yes_probability, volume24hr FROM polymarket.markets
     ORDER BY id, sync_timestamp DESC LIMIT 1 BY id`,
  );
});
afterAll(async () => {
  await warehouse.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the latest-row rewrite", () => {
  it("gives the gallery pattern's rows, from the latest-state table", async () => {
    const pattern = EXAMPLE_QUERIES.find((example) => example.title.startsWith("Latest snapshot per market"))?.sql;
    if (!pattern) throw new Error("no latest-row example in the gallery");
    const rewrite = adviseQuery(pattern, ["polymarket.markets", "polymarket.markets_latest"])[0]?.rewrite;
    expect(rewrite).toContain("FROM polymarket.markets_latest FINAL");
    const [before, after] = await Promise.all(
      [pattern, rewrite as string].map((sql) => warehouse.query<Record<string, unknown>>(sql)),
    );
    // Twelve markets were seen in the last day: the example keeps its top 20 of them.
    expect(before).toHaveLength(12);
    expect(after).toEqual(before);
  });
});
