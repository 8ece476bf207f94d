import { onCluster } from "../ddl";
import { BOOK_LOOKBACK_MINUTES, bookWindow, levels, param } from "./0018-books";
import type { WarehouseMigration } from "./types";

/**
 * `<venue>.book_asof(ts)` exact to the event where the live stream vouches for the book
 * (issue 46), the REST captures where it does not; `captured_by` says which on every row.
 *
 * The stream vouches for a market's book at `ts` when all of these hold:
 * - a `reset` of it in `<venue>.book_changes` at or before `ts`, within the look-back (the
 *   capture writes one at each subscription and checkpoints every followed book each
 *   `STREAM_CHECKPOINT_MINUTES`, so a healthy socket is never further back than that);
 * - that reset's connection was still open at `ts`: closed after it, or not closed and noted
 *   within `STREAM_SESSION_SLACK_SECONDS` of it (a connection notes itself each minute, so
 *   one whose process was killed stops vouching a little after it died);
 * - no gap of the market in `<venue>.stream_gaps` open at `ts`.
 * Its book is then the reset's levels and every change after it up to `ts`: each level's
 * last size, the levels of size 0 gone. `captured_at` is the last change at or before `ts`
 * (to the millisecond), `book_timestamp` the venue's time of it. Every other market reads
 * the REST captures as before: its last capture within `BOOK_LOOKBACK_MINUTES` (top 10 a
 * side), none when that was the `closed` row.
 */
export const STREAM_CHECKPOINT_MINUTES = 30;
export const STREAM_SESSION_SLACK_SECONDS = 90;

const VENUES = [
  { database: "polymarket", key: "id" },
  { database: "kalshi", key: "ticker" },
] as const;

const streamWindow = (column: string) =>
  `${column} <= ${param} AND ${column} > ${param} - INTERVAL ${BOOK_LOOKBACK_MINUTES} MINUTE`;

function bookAsOf(database: string, key: string, cluster: string): string {
  // The markets the stream vouches for at ts, and the reset their book starts from.
  const vouched = `SELECT r.${key} AS ${key}, r.reset_at AS reset_at
  FROM (
    SELECT ${key}, max(received_at) AS reset_at, argMax(session, received_at) AS session
    FROM ${database}.book_changes
    WHERE kind = 'reset' AND ${streamWindow("received_at")}
    GROUP BY ${key}
  ) AS r
  LEFT JOIN (
    SELECT session, argMax(closed_at, updated_at) AS closed_at, max(updated_at) AS noted_at
    FROM ${database}.stream_sessions
    GROUP BY session
  ) AS s ON r.session = s.session
  WHERE (s.closed_at > ${param}
      OR (s.closed_at IS NULL AND s.noted_at >= ${param} - INTERVAL ${STREAM_SESSION_SLACK_SECONDS} SECOND))
    AND r.${key} NOT IN (
      SELECT ${key} FROM (
        SELECT ${key}, from_ts, cause, argMax(to_ts, updated_at) AS to_ts
        FROM ${database}.stream_gaps
        WHERE from_ts <= ${param}
        GROUP BY ${key}, from_ts, cause
      )
      WHERE to_ts IS NULL OR to_ts > ${param}
    )`;
  const streamed = `SELECT ${key}, toDateTime64(max(changed_at) OVER (PARTITION BY ${key}), 3, 'UTC') AS captured_at,
    argMax(venue_at, changed_at) OVER (PARTITION BY ${key}) AS book_timestamp,
    side, price, size
  FROM (
    SELECT c.${key} AS ${key}, toString(c.side) AS side, c.price AS price,
           argMax(c.size, c.received_at) AS size, max(c.received_at) AS changed_at, argMax(c.at, c.received_at) AS venue_at
    FROM ${database}.book_changes AS c
    INNER JOIN vouched AS v ON c.${key} = v.${key}
    WHERE c.kind != 'reset' AND c.received_at >= v.reset_at AND ${streamWindow("c.received_at")}
    GROUP BY ${key}, side, price
  )`;
  return `CREATE OR REPLACE VIEW ${database}.book_asof${cluster} AS
WITH vouched AS (${vouched})
SELECT * FROM (
  SELECT ${key}, captured_at, book_timestamp, side,
         toUInt32(row_number() OVER (PARTITION BY ${key}, side ORDER BY if(side = 'bid', -price, price))) AS level,
         price, size, 'stream' AS captured_by
  FROM (${streamed})
  WHERE size > 0
  UNION ALL
  SELECT ${key}, captured_at, last.2 AS book_timestamp, l.1 AS side, l.2 AS level, l.3 AS price, l.4 AS size,
         'rest' AS captured_by
  FROM (
    SELECT ${key}, max(sync_timestamp) AS captured_at,
           argMax(tuple(state, book_timestamp, bid_price, bid_size, ask_price, ask_size), sync_timestamp) AS last
    FROM ${database}.books
    WHERE ${bookWindow} AND ${key} NOT IN (SELECT ${key} FROM vouched)
    GROUP BY ${key}
    HAVING last.1 != 'closed'
  )
  ARRAY JOIN ${levels(["last.3", "last.4"], ["last.5", "last.6"])} AS l
)
ORDER BY ${key}, side DESC, level`;
}

export const bookAsOfStream: WarehouseMigration = {
  version: 22,
  name: "book_asof reads the live stream's changes where it vouches for the book",
  statements: (ctx) => VENUES.map(({ database, key }) => bookAsOf(database, key, onCluster(ctx))),
};
