import { createTable, onCluster, type TableSpec } from "../ddl";
import { SNAPSHOT_TABLES } from "./0002-snapshot-tables";
import type { WarehouseMigration } from "./types";

/**
 * Order-book depth and "as of" SQL (issue 28).
 *
 * `<venue>.books`: one row per market per capture, the top `BOOK_DEPTH` levels of the yes
 * book's two sides as parallel arrays, best level first (bids descending, asks ascending),
 * written with each snapshot under the snapshot's `sync_timestamp`. One row per capture
 * rather than one per level: the key and the two timestamps are stored once for twenty
 * levels, and a market's consecutive captures sit side by side, so arrays that barely
 * moved compress to almost nothing. `<venue>.book_levels` shows it one row per level.
 *
 * Both venues on one shape, the yes outcome's book:
 * - Polymarket: the CLOB book of the market's first token (`clobTokenIds[1]`, the "Yes"
 *   of a binary market). The second token's book is the same orders seen from the other
 *   side (a bid for No at p is an ask for Yes at 1 − p), so it is not fetched twice.
 * - Kalshi: yes bids as bids; no bids turned into yes asks (a no bid at p for q contracts
 *   is a yes ask at 1 − p for q).
 *
 * `state` says why the row is there: `active` (traded in the last day, captured every
 * snapshot), `hourly` (quiet, captured once an hour) or `closed` (the market left the
 * open catalog: an empty row that ends its book, so "as of" a later time shows none).
 *
 * Layout: `ORDER BY (toStartOfHour(sync_timestamp), key, sync_timestamp)`. Every market at
 * one time reads that hour's granules (the minmax index prunes by the bare column, which
 * the primary key's expression does not); one market over time is one short key range
 * per hour. Weekly partitions, so retention is set per table and drops whole parts:
 * `ALTER TABLE kalshi.books MODIFY TTL toDateTime(sync_timestamp) + INTERVAL 90 DAY`.
 *
 * `<venue>.book_coverage`: the ledger of each capture — markets open, due by tier,
 * captured, left out for the budget, failed.
 *
 * `<venue>.markets_asof(ts = …)` and `<venue>.book_asof(ts = …)`: parameterised views
 * (user SQL may also write `markets_asof(now() - INTERVAL 1 HOUR)`; the sandbox names the
 * argument). Every market's row as last captured at or before `ts`, with `captured_at`.
 * - `book_asof` looks back `BOOK_LOOKBACK_MINUTES` (a quiet market's hour plus a
 *   snapshot's slack): a market with no book captured in that window had none to show
 *   (not listed yet, closed, or the archive was not running), and a market whose last row
 *   is `closed` has none either.
 * - `markets_asof` reads the snapshots of the `MARKETS_LOOKBACK_HOURS` before `ts`, where
 *   every market still tracked is; a market not captured in them and never since
 *   (closed and past its pending window) comes from the latest table, its final state.
 *   A market captured before that window and again after `ts` but not in it (an archive
 *   outage longer than the window) is left out.
 */
export const BOOK_DEPTH = 10;
export const BOOK_LOOKBACK_MINUTES = 70;
export const MARKETS_LOOKBACK_HOURS = 24;

const VENUES = [
  { database: "polymarket", key: "id" },
  { database: "kalshi", key: "ticker" },
] as const;

const ts = "DateTime64(3, 'UTC')";

const books = (database: string, key: string): TableSpec => ({
  database,
  name: "books",
  columns: [
    `sync_timestamp ${ts} CODEC(DoubleDelta, ZSTD(1))`,
    `${key} String CODEC(ZSTD(1))`,
    `book_timestamp Nullable(${ts}) CODEC(ZSTD(1))`,
    "state LowCardinality(String)",
    "bid_price Array(Decimal(9, 4)) CODEC(ZSTD(3))",
    "bid_size Array(Float64) CODEC(ZSTD(3))",
    "ask_price Array(Decimal(9, 4)) CODEC(ZSTD(3))",
    "ask_size Array(Float64) CODEC(ZSTD(3))",
  ],
  engine: { kind: "MergeTree" },
  partitionBy: "toMonday(sync_timestamp)",
  orderBy: `(toStartOfHour(sync_timestamp), ${key}, sync_timestamp)`,
  extras: ["INDEX sync_timestamp_minmax sync_timestamp TYPE minmax GRANULARITY 1"],
  shardBy: `cityHash64(${key})`,
});

const bookCoverage = (database: string): TableSpec => ({
  database,
  name: "book_coverage",
  columns: [
    `sync_timestamp ${ts}`,
    "markets_open UInt32",
    "active_due UInt32",
    "hourly_due UInt32",
    "captured UInt32",
    "left_out UInt32",
    "failed UInt32",
    "empty UInt32",
    "closed UInt32",
    "requests UInt32",
    "budget UInt32",
    "duration_ms UInt32",
    "error String",
  ],
  engine: { kind: "MergeTree" },
  orderBy: "sync_timestamp",
});

/** The snapshot table's columns but `raw`, in order: what the latest table and the as-of view share. */
function marketColumns(database: string): string[] {
  const table = SNAPSHOT_TABLES.find((spec) => spec.database === database && spec.name === "markets");
  if (!table) throw new Error(`no snapshot table ${database}.markets`);
  return table.columns.map((column) => column.split(" ")[0] as string).filter((name) => name !== "raw");
}

export const param = `{ts:${ts}}`;

/** The levels of one side as `(level, price, size)` tuples. */
const side = (name: string, prices: string, sizes: string) =>
  `arrayMap((p, s, i) -> ('${name}', i, p, s), ${prices}, ${sizes}, arrayEnumerate(${prices}))`;

export const levels = (bids: [string, string], asks: [string, string]) =>
  `arrayConcat(${side("bid", ...bids)}, ${side("ask", ...asks)})`;

/** The REST captures `book_asof` reads: those of the look-back before `ts`, by the hour key first. */
export const bookWindow = `sync_timestamp <= ${param}
    AND sync_timestamp > ${param} - INTERVAL ${BOOK_LOOKBACK_MINUTES} MINUTE
    AND toStartOfHour(sync_timestamp) >= toStartOfHour(${param} - INTERVAL ${BOOK_LOOKBACK_MINUTES} MINUTE)
    AND toStartOfHour(sync_timestamp) <= toStartOfHour(${param})`;

function bookViews(database: string, key: string, cluster: string): string[] {
  const window = bookWindow;
  const columns = marketColumns(database);
  const marketsWindow = `sync_timestamp <= ${param}
    AND sync_timestamp > ${param} - INTERVAL ${MARKETS_LOOKBACK_HOURS} HOUR
    AND toDate(sync_timestamp) >= toDate(${param} - INTERVAL ${MARKETS_LOOKBACK_HOURS} HOUR)
    AND toDate(sync_timestamp) <= toDate(${param})`;
  return [
    `CREATE OR REPLACE VIEW ${database}.book_levels${cluster} AS
SELECT sync_timestamp, ${key}, book_timestamp, state, l.1 AS side, l.2 AS level, l.3 AS price, l.4 AS size
FROM ${database}.books
ARRAY JOIN ${levels(["bid_price", "bid_size"], ["ask_price", "ask_size"])} AS l`,
    `CREATE OR REPLACE VIEW ${database}.book_asof${cluster} AS
SELECT ${key}, captured_at, last.2 AS book_timestamp, l.1 AS side, l.2 AS level, l.3 AS price, l.4 AS size
FROM (
  SELECT ${key}, max(sync_timestamp) AS captured_at,
         argMax(tuple(state, book_timestamp, bid_price, bid_size, ask_price, ask_size), sync_timestamp) AS last
  FROM ${database}.books
  WHERE ${window}
  GROUP BY ${key}
  HAVING last.1 != 'closed'
)
ARRAY JOIN ${levels(["last.3", "last.4"], ["last.5", "last.6"])} AS l
ORDER BY ${key}, side DESC, level`,
    `CREATE OR REPLACE VIEW ${database}.markets_asof${cluster} AS
SELECT sync_timestamp AS captured_at, ${columns.join(", ")}
FROM ${database}.markets
WHERE ${marketsWindow}
ORDER BY ${key}, sync_timestamp DESC
LIMIT 1 BY ${key}
UNION ALL
SELECT sync_timestamp AS captured_at, ${columns.join(", ")}
FROM ${database}.markets_latest FINAL
WHERE sync_timestamp <= ${param} - INTERVAL ${MARKETS_LOOKBACK_HOURS} HOUR`,
  ];
}

export const BOOK_TABLES = VENUES.flatMap(({ database, key }) => [books(database, key), bookCoverage(database)]);

export const orderBooks: WarehouseMigration = {
  version: 18,
  name: "order-book depth, its capture ledger, and the as-of views",
  statements: (ctx) => [
    ...BOOK_TABLES.flatMap((spec) => createTable(ctx, spec)),
    ...VENUES.flatMap(({ database, key }) => bookViews(database, key, onCluster(ctx))),
  ],
};
