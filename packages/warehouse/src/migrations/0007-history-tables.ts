import { createTable, type TableSpec } from "../ddl";
import type { WarehouseMigration } from "./types";

/**
 * The venues' own history of every market: Polymarket's price points and trades, Kalshi's
 * candles and trades, and where the history worker stands (`internal.history_state`).
 *
 * One point is stored once, so counts and sums are right without `FINAL`: the history
 * worker resumes every series after its newest stored point (`packages/ingest/src/history.ts`),
 * so a step repeated after a failure or a kill -9 fetches only what is not stored yet, and
 * no two workers write one venue. The tables are `ReplacingMergeTree` on the point's
 * identity as a backstop: a row that arrives twice anyway (written by hand, a venue
 * re-publishing a point) is folded by the next merge, and `FINAL` is exact before it.
 * Insert deduplication (`non_replicated_deduplication_window`) was tried and dropped: the
 * worker never re-sends a block, and the log would silently drop a refetch after a delete.
 *
 * Layout: ordered by the market, then time, so one market's history is one short range;
 * monthly partitions, so a "last week, every market" question reads one or two months.
 * Prices are 0–1 (dollars per contract on Kalshi); a Kalshi period without a trade has
 * NULL trade prices (not 0) and `price_previous`, the last trade before it.
 */
const history = (spec: Omit<TableSpec, "engine">): TableSpec => ({ ...spec, engine: { kind: "ReplacingMergeTree" } });

const dollars = (name: string) => `${name} Nullable(Float64) CODEC(ZSTD(1))`;

export const HISTORY_TABLES: readonly TableSpec[] = [
  history({
    database: "polymarket",
    name: "prices",
    columns: [
      "id String",
      "token_id String",
      "outcome LowCardinality(String)",
      "ts DateTime('UTC') CODEC(DoubleDelta, ZSTD(1))",
      "price Float64 CODEC(Gorilla, ZSTD(1))",
      "fidelity_minutes UInt16 CODEC(ZSTD(1))",
    ],
    partitionBy: "toYYYYMM(ts)",
    orderBy: "(id, token_id, ts)",
    shardBy: "cityHash64(id)",
  }),
  history({
    database: "polymarket",
    name: "trades",
    columns: [
      "id String",
      "condition_id String",
      "transaction_hash String",
      "trade_index UInt16",
      "token_id String",
      "outcome LowCardinality(String)",
      "outcome_index UInt8",
      "ts DateTime('UTC') CODEC(DoubleDelta, ZSTD(1))",
      "price Float64 CODEC(ZSTD(1))",
      "size Float64 CODEC(ZSTD(1))",
      "side LowCardinality(String)",
      "proxy_wallet String CODEC(ZSTD(1))",
    ],
    partitionBy: "toYYYYMM(ts)",
    orderBy: "(id, ts, transaction_hash, trade_index)",
    shardBy: "cityHash64(id)",
  }),
  history({
    database: "kalshi",
    name: "candles",
    columns: [
      "ticker String",
      "period_minutes UInt16",
      "end_period_ts DateTime('UTC') CODEC(DoubleDelta, ZSTD(1))",
      ...["open", "high", "low", "close"].map((part) => dollars(`yes_bid_${part}`)),
      ...["open", "high", "low", "close"].map((part) => dollars(`yes_ask_${part}`)),
      ...["open", "high", "low", "close", "mean", "previous"].map((part) => dollars(`price_${part}`)),
      dollars("volume"),
      dollars("open_interest"),
    ],
    partitionBy: "toYYYYMM(end_period_ts)",
    orderBy: "(ticker, period_minutes, end_period_ts)",
    shardBy: "cityHash64(ticker)",
  }),
  history({
    database: "kalshi",
    name: "trades",
    columns: [
      "trade_id String",
      "ticker String",
      "created_time DateTime64(6, 'UTC') CODEC(DoubleDelta, ZSTD(1))",
      "yes_price Float64 CODEC(ZSTD(1))",
      "no_price Float64 CODEC(ZSTD(1))",
      "count Float64 CODEC(ZSTD(1))",
      "taker_side LowCardinality(String)",
      "taker_outcome_side LowCardinality(String)",
      "taker_book_side LowCardinality(String)",
      "is_block_trade Nullable(Bool)",
    ],
    partitionBy: "toYYYYMM(created_time)",
    orderBy: "(ticker, created_time, trade_id)",
    shardBy: "cityHash64(ticker)",
  }),
];

export const historyTables: WarehouseMigration = {
  version: 7,
  name: "price, candle and trade history, and the history worker's state",
  statements: (ctx) => [
    ...HISTORY_TABLES.flatMap((spec) => createTable(ctx, spec)),
    // Where each market's history stands, one row per (source, market); the newest wins. The
    // stored series themselves say where each resumes (their newest point); this says which
    // markets are finished and when an open one was last brought up to date.
    ...createTable(ctx, {
      database: "internal",
      name: "history_state",
      columns: [
        "source LowCardinality(String)",
        "market String",
        // Up to when the market's history was fetched; `done` once a closed market's whole life is in.
        "covered_until DateTime('UTC')",
        "done Bool",
        // Points, candles and trades written for the market so far.
        "points UInt64",
        "updated_at DateTime64(3, 'UTC')",
      ],
      engine: { kind: "ReplacingMergeTree", version: "updated_at" },
      orderBy: "(source, market)",
    }),
  ],
};
