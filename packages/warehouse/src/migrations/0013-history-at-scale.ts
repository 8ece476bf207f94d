import { createTable, onCluster, storageTable } from "../ddl";
import type { WarehouseMigration } from "./types";

/**
 * The history worker at the venues' scale.
 *
 * `internal.history_state` learns a market's failures: the last error of a market whose
 * requests keep failing (a delisted ticker's 404, a 400, a 5xx after retries), how many
 * steps in a row failed, and when it is tried again. Such a market is one market's
 * problem: the step records it and goes on with the others. And its newest trade, which
 * sets how often an open market is refreshed (`packages/ingest/src/history.ts`).
 *
 * `internal.feed_state` is where an exchange-wide feed stands (Kalshi's trade tape): the
 * span `[window_from, window_to]` the current walk covers, the cursor of its next page
 * (empty before the first), and `reached`, up to when the feed is complete. A walk goes
 * newest first inside its span, so the span is complete only when the walk ends; the
 * next span starts after it. The row is written after each page's trades are in, so a
 * kill resumes at the page after the last stored one (or repeats that one, whose trades
 * are then found stored and left out).
 */
export const historyAtScale: WarehouseMigration = {
  version: 13,
  name: "the history worker's failed markets and the exchange-wide feeds' positions",
  statements: (ctx) => {
    const add = [
      "ADD COLUMN IF NOT EXISTS error String DEFAULT ''",
      "ADD COLUMN IF NOT EXISTS failures UInt16 DEFAULT 0",
      "ADD COLUMN IF NOT EXISTS retry_at DateTime('UTC') DEFAULT 0",
      // The newest trade stored for the market when its step ended: how active it is.
      "ADD COLUMN IF NOT EXISTS last_trade DateTime('UTC') DEFAULT 0",
    ].join(", ");
    return [
      `ALTER TABLE ${storageTable(ctx, "internal", "history_state")}${onCluster(ctx)} ${add}`,
      ...(ctx.cluster ? [`ALTER TABLE internal.history_state${onCluster(ctx)} ${add}`] : []),
      ...createTable(ctx, {
        database: "internal",
        name: "feed_state",
        columns: [
          "source LowCardinality(String)",
          "feed LowCardinality(String)",
          // Unix seconds, both inclusive: the span the current walk covers.
          "window_from UInt32",
          "window_to UInt32",
          // The next page of the walk; '' before its first page.
          "cursor String",
          // Up to when (Unix seconds) the feed is complete: the end of the last finished walk.
          "reached UInt32",
          // The first second the feed covers: before it, trades come market by market.
          "started UInt32",
          "pages UInt64",
          "rows UInt64",
          "updated_at DateTime64(3, 'UTC')",
        ],
        engine: { kind: "ReplacingMergeTree", version: "updated_at" },
        orderBy: "(source, feed)",
      }),
    ];
  },
};
