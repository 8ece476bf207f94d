import { createTable, type TableSpec } from "../ddl";
import type { WarehouseMigration } from "./types";

/**
 * The venues' live feeds, captured tick by tick (issue 46), and the ledger of what the
 * capture saw and missed.
 *
 * `<venue>.book_changes`: every change of a followed market's yes book as the stream told
 * it, one row per level. `kind` says what the row is:
 * - `reset`: the stream sent the whole book (a first subscription, a reconnect, a
 *   resubscription after a gap), or the capture wrote the book it keeps whole again (its
 *   checkpoint, migration 22): every level known before is gone; the book's levels
 *   follow as `snapshot` rows with the same `received_at` (none: the book was empty);
 * - `change`: one level's new resting size (0: the level is gone).
 * A book as of a moment is its last `reset` at or before it, with each level's last row
 * since. Prices are the yes book's, exact to 1/10,000 dollar as in `<venue>.books`; `at` is
 * the venue's time where it sent one, `received_at` the capture's clock (microseconds), and
 * `session` the connection it came by (`stream_sessions`). Ordered by market and time, so
 * one market's changes are one key range and the sizes and times compress to little;
 * daily partitions, so retention (`ALTER TABLE … MODIFY TTL`) drops whole days.
 *
 * `<venue>.stream_sessions`: one row per connection when it ends (and while it lives, a
 * row each minute with `closed_at` NULL; the newest row of a session wins): when it opened
 * and closed, why it closed, the markets it followed and the messages it read.
 *
 * `<venue>.stream_gaps`: one row per market per time the capture could not vouch for its
 * book: from the last moment it was known to be current (`from_ts`) to when a fresh book
 * arrived (`to_ts`; NULL while still open), why (`cause`: `sequence` for a lost message,
 * `silence` for a stall, `disconnect`, `stopped` for a capture that was not running) and
 * how it was healed (`healed_by`: `resubscribe`, or empty while open). A market observed
 * continuously from t1 to t2 is one with no gap overlapping (t1, t2) and a reset before t1.
 */
const time = (precision: 3 | 6) => `DateTime64(${precision}, 'UTC')`;

const bookChanges = (database: string, key: string): TableSpec => ({
  database,
  name: "book_changes",
  columns: [
    `${key} String CODEC(ZSTD(1))`,
    `received_at ${time(6)} CODEC(DoubleDelta, ZSTD(1))`,
    `at Nullable(${time(3)}) CODEC(ZSTD(1))`,
    "kind Enum8('change' = 1, 'reset' = 2, 'snapshot' = 3)",
    "side Enum8('bid' = 1, 'ask' = 2)",
    "price Decimal(9, 4) CODEC(ZSTD(1))",
    "size Float64 CODEC(Gorilla, ZSTD(1))",
    "session UInt64 CODEC(ZSTD(1))",
  ],
  engine: { kind: "MergeTree" },
  partitionBy: "toDate(received_at)",
  orderBy: `(${key}, received_at)`,
  shardBy: `cityHash64(${key})`,
});

const streamSessions = (database: string): TableSpec => ({
  database,
  name: "stream_sessions",
  columns: [
    "session UInt64",
    `opened_at ${time(6)}`,
    `closed_at Nullable(${time(6)})`,
    "why LowCardinality(String)",
    "markets UInt32",
    "messages UInt64",
    "changes UInt64",
    "trades UInt64",
    `updated_at ${time(6)}`,
  ],
  engine: { kind: "ReplacingMergeTree", version: "updated_at" },
  orderBy: "session",
});

const streamGaps = (database: string, key: string): TableSpec => ({
  database,
  name: "stream_gaps",
  columns: [
    `${key} String`,
    `from_ts ${time(6)}`,
    `to_ts Nullable(${time(6)})`,
    "cause LowCardinality(String)",
    "healed_by LowCardinality(String)",
    "session UInt64",
    `updated_at ${time(6)}`,
  ],
  engine: { kind: "ReplacingMergeTree", version: "updated_at" },
  orderBy: `(${key}, from_ts, cause)`,
  shardBy: `cityHash64(${key})`,
});

const VENUES = [
  { database: "polymarket", key: "id" },
  { database: "kalshi", key: "ticker" },
] as const;

export const LIVE_TABLES: readonly TableSpec[] = VENUES.flatMap(({ database, key }) => [
  bookChanges(database, key),
  streamSessions(database),
  streamGaps(database, key),
]);

export const liveFeeds: WarehouseMigration = {
  version: 20,
  name: "the live feeds: book changes tick by tick, the stream's sessions and its gaps",
  statements: (ctx) => LIVE_TABLES.flatMap((spec) => createTable(ctx, spec)),
};
