import { createTable, type DdlContext, type TableSpec } from "../ddl";
import type { WarehouseMigration } from "./types";

/**
 * The four snapshot tables (one row per object per sync run, append-only) and their
 * latest-state twins (one row per object, the newest snapshot wins).
 *
 * Column names follow the upstream fields so people who know the APIs know the tables;
 * every documented field of the recorded payloads has a typed column, derived columns
 * sit beside them (`yes_probability`, `lastTradeTime`, `total_open_interest`), and `raw`
 * keeps the whole upstream object so no field is lost when an API adds one.
 *
 * Layout, chosen from the queries people run and measured by `scripts/bench-ingest.ts`:
 * - `ORDER BY (toDate(sync_timestamp), key, sync_timestamp)`, monthly partitions. A 1- or
 *   7-day window across all markets reads only that window's granules (the leading day
 *   prunes them, the partition prunes whole months); one market's history is one short
 *   key range per day; and a market's consecutive snapshots of a day sit side by side,
 *   which is what makes `raw` and the prices compress (adjacent rows differ in a few
 *   digits). Keying by `(key, sync_timestamp)` alone would make every time-window query
 *   scan the whole month.
 * - The latest tables are `ReplacingMergeTree(sync_timestamp)` ordered by the key, so
 *   `SELECT … FROM polymarket.markets_latest FINAL` is the current state without a
 *   row-number window over the history; each successful run copies its rows in.
 * - Codecs: DoubleDelta for the timestamps, ZSTD for text and floats, LowCardinality for
 *   small vocabularies.
 */
const ts = "DateTime64(3, 'UTC')";
const time = (name: string) => `${name} Nullable(${ts}) CODEC(ZSTD(1))`;
const float = (name: string) => `${name} Nullable(Float64) CODEC(ZSTD(1))`;
const text = (name: string) => `${name} String CODEC(ZSTD(1))`;
const label = (name: string) => `${name} LowCardinality(String)`;
const flag = (name: string) => `${name} Nullable(Bool)`;

const syncTimestamp = `sync_timestamp ${ts} CODEC(DoubleDelta, ZSTD(1))`;
const raw = "raw String CODEC(ZSTD(3))";

const polymarketEventColumns = [
  syncTimestamp,
  "id String",
  text("ticker"),
  text("slug"),
  text("title"),
  text("description"),
  text("resolutionSource"),
  label("category"),
  text("seriesSlug"),
  ...["startDate", "creationDate", "endDate", "createdAt", "updatedAt", "closedTime"].map(time),
  ...["active", "closed", "archived", "new", "featured", "restricted", "enableOrderBook"].map(flag),
  ...["negRisk", "enableNegRisk", "negRiskAugmented"].map(flag),
  text("negRiskMarketID"),
  ...["liquidity", "liquidityClob", "volume", "volume24hr", "volume1wk", "volume1mo", "volume1yr"].map(float),
  ...["openInterest", "competitive"].map(float),
  "commentCount Nullable(UInt32)",
  "tags Array(LowCardinality(String))",
  "tag_ids Array(String) CODEC(ZSTD(1))",
  "series_ids Array(String) CODEC(ZSTD(1))",
  "market_count UInt32",
  raw,
];

const polymarketMarketColumns = [
  syncTimestamp,
  "id String",
  "event_id String",
  text("question"),
  text("conditionId"),
  text("questionID"),
  text("slug"),
  text("groupItemTitle"),
  text("groupItemThreshold"),
  "outcomes Array(LowCardinality(String))",
  "outcomePrices Array(Float64) CODEC(ZSTD(1))",
  "clobTokenIds Array(String) CODEC(ZSTD(1))",
  float("yes_probability"),
  ...["lastTradePrice", "bestBid", "bestAsk", "spread"].map(float),
  ...["oneHourPriceChange", "oneDayPriceChange", "oneWeekPriceChange", "oneMonthPriceChange"].map(float),
  ...["volume", "volume24hr", "volume1wk", "volume1mo", "volume1yr", "volumeClob", "volume24hrClob"].map(float),
  ...["liquidity", "liquidityClob", "competitive", "orderPriceMinTickSize", "orderMinSize"].map(float),
  ...["umaBond", "umaReward"].map(float),
  label("umaResolutionStatus"),
  "umaResolutionStatuses Array(LowCardinality(String))",
  ...["active", "closed", "archived", "restricted", "acceptingOrders", "enableOrderBook"].map(flag),
  ...["negRisk", "negRiskOther"].map(flag),
  text("negRiskMarketID"),
  label("feeType"),
  label("comboStatus"),
  float("makerRebatesFeeShareBps"),
  ...["startDate", "endDate", "createdAt", "updatedAt", "closedTime", "gameStartTime"].map(time),
  time("acceptingOrdersTimestamp"),
  time("lastTradeTime"),
  raw,
];

const kalshiEventColumns = [
  syncTimestamp,
  "event_ticker String",
  label("series_ticker"),
  text("title"),
  text("sub_title"),
  label("category"),
  label("collateral_return_type"),
  flag("mutually_exclusive"),
  flag("available_on_brokers"),
  time("strike_date"),
  label("strike_period"),
  time("last_updated_ts"),
  float("total_open_interest"),
  float("total_volume"),
  "market_count Nullable(UInt32)",
  raw,
];

const kalshiMarketColumns = [
  syncTimestamp,
  "ticker String",
  "event_ticker String",
  label("market_type"),
  text("title"),
  text("subtitle"),
  text("yes_sub_title"),
  text("no_sub_title"),
  label("status"),
  label("result"),
  ...["can_close_early", "fractional_trading_enabled", "is_provisional"].map(flag),
  ...["created_time", "updated_time", "open_time", "close_time", "expiration_time"].map(time),
  ...["expected_expiration_time", "latest_expiration_time", "settlement_ts"].map(time),
  ...["yes_bid_dollars", "yes_ask_dollars", "no_bid_dollars", "no_ask_dollars", "last_price_dollars"].map(float),
  ...["previous_yes_bid_dollars", "previous_yes_ask_dollars", "previous_price_dollars"].map(float),
  ...["notional_value_dollars", "settlement_value_dollars", "yes_bid_size", "yes_ask_size"].map(float),
  ...["volume", "volume_24h", "open_interest"].map(float),
  "liquidity Nullable(Int64) CODEC(ZSTD(1))",
  float("liquidity_dollars"),
  text("expiration_value"),
  label("strike_type"),
  ...["floor_strike", "cap_strike"].map(float),
  text("custom_strike"),
  label("price_level_structure"),
  ...["tick_size", "settlement_timer_seconds"].map(float),
  text("rules_primary"),
  text("rules_secondary"),
  text("early_close_condition"),
  raw,
];

interface SnapshotTable {
  database: "polymarket" | "kalshi";
  name: string;
  key: string;
  columns: readonly string[];
}

export const SNAPSHOT_TABLES: readonly SnapshotTable[] = [
  { database: "polymarket", name: "events", key: "id", columns: polymarketEventColumns },
  { database: "polymarket", name: "markets", key: "id", columns: polymarketMarketColumns },
  { database: "kalshi", name: "events", key: "event_ticker", columns: kalshiEventColumns },
  { database: "kalshi", name: "markets", key: "ticker", columns: kalshiMarketColumns },
];

function snapshotSpec(table: SnapshotTable): TableSpec {
  return {
    database: table.database,
    name: table.name,
    columns: table.columns,
    engine: { kind: "MergeTree" },
    partitionBy: "toYYYYMM(sync_timestamp)",
    orderBy: `(toDate(sync_timestamp), ${table.key}, sync_timestamp)`,
    shardBy: `cityHash64(${table.key})`,
  };
}

function latestSpec(table: SnapshotTable): TableSpec {
  return {
    database: table.database,
    name: `${table.name}_latest`,
    columns: table.columns,
    engine: { kind: "ReplacingMergeTree", version: "sync_timestamp" },
    orderBy: table.key,
    shardBy: `cityHash64(${table.key})`,
  };
}

export const snapshotTables: WarehouseMigration = {
  version: 2,
  name: "snapshot and latest-state tables",
  statements: (ctx: DdlContext) =>
    SNAPSHOT_TABLES.flatMap((table) => [
      ...createTable(ctx, snapshotSpec(table)),
      ...createTable(ctx, latestSpec(table)),
    ]),
};
