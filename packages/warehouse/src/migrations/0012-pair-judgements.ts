import { createTable, type TableSpec } from "../ddl";
import type { WarehouseMigration } from "./types";

/**
 * `internal.pair_judgements`: what the optional adjudicator (a language model, where
 * Seismo's endpoint is configured) answered about a candidate pair the rules could not
 * settle, one row per pair and version of both markets' texts (`texts_hash`). The matcher
 * reads an answer back instead of asking again; a new text asks again. `accepted` is false
 * when the answer was not used (its quotes are not in the rules: `error`), and the pair
 * then stays the matcher's own. A call that failed is not stored: it is asked again.
 */
export const PAIR_JUDGEMENTS_TABLE: TableSpec = {
  database: "internal",
  name: "pair_judgements",
  columns: [
    "polymarket_id String",
    "kalshi_ticker String",
    "texts_hash String",
    "model String",
    "relation LowCardinality(String)",
    "orientation LowCardinality(String)",
    "differing_part String",
    "polymarket_quote String",
    "kalshi_quote String",
    "accepted Bool",
    "error String",
    "judged_at DateTime64(3, 'UTC')",
  ],
  engine: { kind: "ReplacingMergeTree", version: "judged_at" },
  orderBy: "(polymarket_id, kalshi_ticker, texts_hash)",
};

export const pairJudgements: WarehouseMigration = {
  version: 12,
  name: "the adjudicator's answers on cross-venue pairs",
  statements: (ctx) => createTable(ctx, PAIR_JUDGEMENTS_TABLE),
};
