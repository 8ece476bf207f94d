import { describe, expect, it } from "vitest";
import { marketTextLowCardinality } from "./0004-market-text-low-cardinality";
import { marketDayProjection } from "./0005-market-day-projection";
import { latestWithoutRaw } from "./0006-latest-without-raw";
import { pairReviews } from "./0010-pair-reviews";
import { warehouseMigrations } from "./index";

describe("warehouse migrations", () => {
  it("are numbered 1, 2, 3… in the order they are applied", () => {
    expect(warehouseMigrations.map((migration) => migration.version)).toEqual(
      warehouseMigrations.map((_, index) => index + 1),
    );
  });

  it("alter the market text in place on one node", () => {
    expect(marketTextLowCardinality.statements({ cluster: undefined })).toEqual([
      "ALTER TABLE polymarket.markets MODIFY COLUMN question LowCardinality(String) CODEC(ZSTD(1))",
      "ALTER TABLE kalshi.markets MODIFY COLUMN title LowCardinality(String) CODEC(ZSTD(1)), MODIFY COLUMN yes_sub_title LowCardinality(String) CODEC(ZSTD(1))",
    ]);
  });

  it("alter the storage and the Distributed table alike on a cluster", () => {
    const statements = marketTextLowCardinality.statements({ cluster: "main" });
    expect(statements).toContain(
      "ALTER TABLE polymarket.markets_local ON CLUSTER `main` MODIFY COLUMN question LowCardinality(String) CODEC(ZSTD(1))",
    );
    expect(statements).toContain(
      "ALTER TABLE polymarket.markets ON CLUSTER `main` MODIFY COLUMN question LowCardinality(String)",
    );
    expect(statements).toHaveLength(4);
  });

  it("add the per-day projection to the storage tables, on every node of a cluster", () => {
    const single = marketDayProjection.statements({ cluster: undefined });
    expect(single[0]).toBe(
      "ALTER TABLE polymarket.markets ADD PROJECTION IF NOT EXISTS market_day (SELECT toDate(sync_timestamp), id, min(volume), max(volume), avg(yes_probability), count() GROUP BY toDate(sync_timestamp), id)",
    );
    expect(single).toContain("ALTER TABLE kalshi.markets MATERIALIZE PROJECTION market_day");
    const cluster = marketDayProjection.statements({ cluster: "main" });
    expect(cluster.every((statement) => statement.includes("_local ON CLUSTER `main`"))).toBe(true);
    expect(cluster).toHaveLength(single.length);
  });

  it("drop raw from the four latest tables, storage and Distributed alike on a cluster", () => {
    expect(latestWithoutRaw.statements({ cluster: undefined })).toEqual([
      "ALTER TABLE polymarket.events_latest DROP COLUMN IF EXISTS raw",
      "ALTER TABLE polymarket.markets_latest DROP COLUMN IF EXISTS raw",
      "ALTER TABLE kalshi.events_latest DROP COLUMN IF EXISTS raw",
      "ALTER TABLE kalshi.markets_latest DROP COLUMN IF EXISTS raw",
    ]);
    const cluster = latestWithoutRaw.statements({ cluster: "main" });
    expect(cluster).toContain("ALTER TABLE kalshi.markets_latest_local ON CLUSTER `main` DROP COLUMN IF EXISTS raw");
    expect(cluster).toContain("ALTER TABLE kalshi.markets_latest ON CLUSTER `main` DROP COLUMN IF EXISTS raw");
    expect(cluster).toHaveLength(8);
  });

  it("log pair reviews in internal, replicated and sharded by the Polymarket market on a cluster", () => {
    const [single] = pairReviews.statements({ cluster: undefined });
    expect(single).toMatch(/^CREATE TABLE IF NOT EXISTS internal\.pair_reviews\n/);
    expect(single).toContain("ENGINE = MergeTree()");
    const cluster = pairReviews.statements({ cluster: "main" });
    expect(cluster).toHaveLength(2);
    expect(cluster[0]).toContain(
      "ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/internal/pair_reviews_local', '{replica}')",
    );
    expect(cluster[1]).toContain(
      "ENGINE = Distributed('main', 'internal', 'pair_reviews_local', cityHash64(polymarket_id))",
    );
  });
});
