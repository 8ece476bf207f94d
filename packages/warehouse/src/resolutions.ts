/**
 * The resolutions ledger (issue 29): how every market settled, one row per market, on both
 * venues' one shape, derived from the snapshots the archive already keeps.
 *
 * `<venue>.resolutions` is a `ReplacingMergeTree(updated_at)` keyed by the market, so
 * `FINAL` is each market's current row. A row is derived, never edited: `resolutionsSql`
 * reads every snapshot of the market from before it stopped trading to now and writes the
 * whole row again, with every outcome it was ever seen settled at (`states`, earlier ones
 * kept) and the first time each venue status was seen (`status_history`). It runs
 *
 * - once over the whole archive when the table is created (the migration's backfill, and
 *   `rebuild` for an archive loaded by other means), and
 * - after each sync run, for the markets that run saw settled in a state the ledger does
 *   not hold yet (a new settlement, or a dispute that changed it). A market the run saw
 *   unchanged costs a key lookup.
 *
 * What "settled" means on each venue, and nothing else counts:
 * - Polymarket: the UMA status is `resolved` (or, before UMA, absent with the market
 *   `closed`; never `proposed` or `disputed`), and `outcomePrices` are payouts: each 0, 0.5
 *   or 1, summing to 1 (a resolved AMM-era market's pool prices, 0.9999990 for 1, within
 *   0.0001 of them). A market closed at prices like 0.99999996 with no resolution status
 *   is closed with a price, not resolved, and has no row.
 * - Kalshi: `result` is set (`yes`, `no`, `scalar` with `settlement_value_dollars`, `void`).
 *   A tied game settles `scalar` at 0.5 on a binary market.
 */
import { createTable, type DdlContext, onCluster, type TableSpec } from "./ddl";

export type ResolutionVenue = "polymarket" | "kalshi";

export const RESOLUTION_VENUES: readonly ResolutionVenue[] = ["polymarket", "kalshi"];

const ts = "DateTime64(3, 'UTC')";

/** The ledger's columns, in order; both venues share them and the view unions them. */
const COLUMNS = [
  "venue LowCardinality(String)",
  "market_id String",
  "event_id String",
  "question String CODEC(ZSTD(1))",
  "outcome_label String CODEC(ZSTD(1))",
  "outcomes Array(String)",
  "outcome_type LowCardinality(String)",
  "payouts Array(Float64)",
  "winning_index Nullable(UInt8)",
  "winning_outcome String",
  "scalar_value Nullable(Float64)",
  "expiration_value String CODEC(ZSTD(1))",
  `end_date Nullable(${ts})`,
  `closed_at Nullable(${ts})`,
  `resolved_at Nullable(${ts})`,
  "source LowCardinality(String)",
  "source_detail String CODEC(ZSTD(1))",
  "status LowCardinality(String)",
  "venue_statuses Array(String)",
  `status_history Array(Tuple(status String, seen_at ${ts}))`,
  `proposed_at Nullable(${ts})`,
  `disputed_at Nullable(${ts})`,
  "disputed Bool",
  "flipped Bool",
  `states Array(Tuple(seen_at ${ts}, outcome_type String, payouts Array(Float64)))`,
  "last_prices Array(Float64)",
  `last_price_at Nullable(${ts})`,
  "last_price_from LowCardinality(String)",
  "exclusive Nullable(Bool)",
  `updated_at ${ts}`,
];

export const RESOLUTION_COLUMN_NAMES: readonly string[] = COLUMNS.map((column) => column.split(" ")[0] as string);

export function resolutionsTable(venue: ResolutionVenue): TableSpec {
  return {
    database: venue,
    name: "resolutions",
    columns: COLUMNS,
    engine: { kind: "ReplacingMergeTree", version: "updated_at" },
    orderBy: "market_id",
    shardBy: "cityHash64(market_id)",
  };
}

/**
 * How one venue's snapshot row reads as a resolution. Every expression is over one row of
 * `<venue>.markets`; `after` picks the rows from the first sign of a resolution on (the
 * venue's resolution process or a close), where the outcome and its history live.
 */
interface Reading {
  key: string;
  /** The snapshot row's fields under the ledger's names. */
  fields: Record<string, string>;
  after: string;
  /** Still trading: the rows the last price before the close comes from. */
  trading: string;
  /** Each outcome's price on such a row, in the order of outcomes. */
  prices: string;
  /** The last captured price of each outcome from the venue's history tables, before `closed_at`. */
  history: string;
  /** `LEFT JOIN` to the venue's events, and the question and `exclusive` it gives. */
  eventJoin: string;
  question: string;
  exclusive: string;
  source: string;
  proposedAt: string;
  disputed: string;
}

/**
 * Polymarket's payouts: `outcomePrices` once resolved. The oracle's resolved markets of the
 * AMM era report the pool's last prices (0.9999990 for 1), which are read as the payout they
 * are within 0.0001 of; a market with no oracle status counts only at exact payouts.
 */
const NEAR_PAYOUTS = "arrayAll(p -> abs(p - round(p * 2) / 2) < 0.0001, outcomePrices)";
const POLYMARKET_PAYOUTS = `if(umaResolutionStatus = 'resolved' AND ${NEAR_PAYOUTS}, arrayMap(p -> round(p * 2) / 2, outcomePrices), outcomePrices)`;
/** Payouts: each 0, ½ or 1 and one whole share in all. */
const PAYOUTS = `length(outcomePrices) >= 2 AND arraySum(${POLYMARKET_PAYOUTS}) = 1 AND arrayAll(p -> p IN (0, 0.5, 1), ${POLYMARKET_PAYOUTS})`;
const UMA_STATUS = "if(umaResolutionStatus != '', umaResolutionStatus, if(ifNull(closed, false), 'closed', 'open'))";
const KALSHI_AFTER_TRADING = "('closed', 'determined', 'disputed', 'amended', 'finalized', 'settled')";

/** When the derivation first saw the market in venue status `status`. */
const firstSeen = (status: string) =>
  `if(mapContains(a.seen, '${status}'), fromUnixTimestamp64Milli(a.seen['${status}'], 'UTC'), NULL)`;

const READINGS: Record<ResolutionVenue, Reading> = {
  polymarket: {
    key: "id",
    fields: {
      event_id: "event_id",
      question: "question",
      outcome_label: "groupItemTitle",
      outcomes: "CAST(outcomes, 'Array(String)')",
      payouts: POLYMARKET_PAYOUTS,
      outcome_type: `multiIf(indexOf(${POLYMARKET_PAYOUTS}, 1) = 1, 'yes', has(${POLYMARKET_PAYOUTS}, 1), 'no', 'split')`,
      status: UMA_STATUS,
      closed: "ifNull(closed, false)",
      // Resolved by the oracle, or closed at payouts with no oracle status (before UMA).
      settled: `(umaResolutionStatus = 'resolved' OR (umaResolutionStatus = '' AND ifNull(closed, false))) AND ${PAYOUTS}`,
      closed_time: "closedTime",
      // Gamma sets umaEndDate when the oracle's answer is final; it is not a column of the snapshots.
      resolved_time:
        "coalesce(parseDateTime64BestEffortOrNull(JSONExtractString(raw, 'umaEndDate'), 3, 'UTC'), closedTime)",
      end_date: "endDate",
      venue_statuses: "CAST(umaResolutionStatuses, 'Array(String)')",
      scalar_value: "CAST(NULL, 'Nullable(Float64)')",
      expiration_value: "''",
      source_detail: "JSONExtractString(raw, 'resolutionSource')",
      exclusive: "negRisk",
      uma: "umaResolutionStatus != '' OR notEmpty(umaResolutionStatuses)",
    },
    after: "ifNull(closed, false) OR umaResolutionStatus != ''",
    prices: "outcomePrices",
    trading: `NOT ifNull(closed, false) AND umaResolutionStatus != 'resolved' AND notEmpty(outcomePrices)
      AND (closedTime IS NULL OR sync_timestamp < closedTime)`,
    // The last point of each outcome's series before the close, in the market's outcome order.
    history: `SELECT p.id AS market_id, max(p.last_ts) AS at, CAST((groupArray(p.outcome), groupArray(p.price)), 'Map(String, Float64)') AS by_outcome
  FROM (
    SELECT id, outcome, argMax(price, ts) AS price, max(ts) AS last_ts
    FROM polymarket.prices INNER JOIN (SELECT market_id, closed_at FROM settled) AS c ON c.market_id = polymarket.prices.id
    WHERE {keys:id} AND ts < c.closed_at
    GROUP BY id, outcome
  ) AS p
  GROUP BY p.id`,
    eventJoin: "",
    question: "a.question",
    exclusive: "a.exclusive",
    source: "if(a.uma, 'UMA', 'Polymarket')",
    proposedAt: firstSeen("proposed"),
    disputed: "has(a.venue_statuses, 'disputed') OR mapContains(a.seen, 'disputed')",
  },
  kalshi: {
    key: "ticker",
    fields: {
      event_id: "event_ticker",
      question: "title",
      outcome_label: "yes_sub_title",
      outcomes: "['Yes', 'No']",
      payouts: `multiIf(result = 'yes', [1., 0.], result = 'no', [0., 1.],
        result = 'scalar' AND settlement_value_dollars IS NOT NULL,
        [assumeNotNull(settlement_value_dollars), round(1 - assumeNotNull(settlement_value_dollars), 6)],
        CAST([], 'Array(Float64)'))`,
      outcome_type: "if(result IN ('yes', 'no', 'scalar'), result, 'void')",
      status: "status",
      closed: `status IN ${KALSHI_AFTER_TRADING}`,
      settled: "result != ''",
      closed_time: "close_time",
      // Without settlement_ts, the earlier of the close and the last update (the market page's rule).
      resolved_time: `coalesce(settlement_ts, least(coalesce(close_time, updated_time, sync_timestamp),
        coalesce(updated_time, sync_timestamp)))`,
      end_date: "expected_expiration_time",
      venue_statuses: "CAST([], 'Array(String)')",
      scalar_value: "if(result = 'scalar', settlement_value_dollars, NULL)",
      expiration_value: "expiration_value",
      source_detail: "''",
      exclusive: "CAST(NULL, 'Nullable(Bool)')",
      uma: "false",
    },
    after: `status IN ${KALSHI_AFTER_TRADING} OR result != ''`,
    prices: "[assumeNotNull(last_price_dollars), round(1 - assumeNotNull(last_price_dollars), 6)]",
    trading: `status NOT IN ${KALSHI_AFTER_TRADING} AND last_price_dollars IS NOT NULL`,
    // The last candle with a trade before the close (a candle that ends after the close holds
    // only trades before it); its time is the earlier of its end and the close.
    history: `SELECT k.ticker AS market_id, least(max(k.end_period_ts), any(c.closed_at)) AS at,
    map('Yes', argMax(k.price_close, k.end_period_ts)) AS by_outcome
  FROM kalshi.candles AS k INNER JOIN (SELECT market_id, closed_at FROM settled) AS c ON c.market_id = k.ticker
  WHERE {keys:k.ticker} AND k.price_close IS NOT NULL
    AND k.end_period_ts - toIntervalMinute(k.period_minutes) < c.closed_at
  GROUP BY k.ticker`,
    eventJoin: `LEFT JOIN (
  SELECT event_ticker, title, mutually_exclusive FROM kalshi.events_latest FINAL WHERE event_ticker IN (SELECT event_id FROM settled)
) AS e ON e.event_ticker = a.event_id`,
    question:
      "if(a.question != '', a.question, concat(e.title, if(a.outcome_label != '', concat(': ', a.outcome_label), '')))",
    exclusive: "e.mutually_exclusive",
    source: "'Kalshi'",
    proposedAt: "CAST(NULL, 'Nullable(DateTime64(3, \\'UTC\\'))')",
    disputed: "mapContains(a.seen, 'disputed')",
  },
};

/**
 * Which markets a derivation reads: every one; those a snapshot run saw settled anew; or
 * those in the ledger whose price history a history step stored (its coverage rows from
 * the step's start on), whose last price before the close may now come from it. The last
 * two take the run's sync timestamp (the step's start) as the query parameter `run`.
 */
export type ResolutionScope = "all" | "run" | "history";

const settledOf = (reading: Reading) => reading.fields.settled as string;

/**
 * The keys a run saw settled in a state the ledger does not hold: a new settlement, a
 * changed outcome, or a changed venue status (a dispute after a resolution).
 */
function runKeys(venue: ResolutionVenue): string {
  const reading = READINGS[venue];
  const { key, fields } = reading;
  return `SELECT ${key} FROM ${venue}.markets
  WHERE sync_timestamp = {run:DateTime64(3, 'UTC')} AND ${settledOf(reading)}
    AND (${key}, ${fields.payouts}, ${fields.status}) NOT IN (
      SELECT market_id, payouts, status FROM ${venue}.resolutions FINAL
      WHERE market_id IN (SELECT ${key} FROM ${venue}.markets WHERE sync_timestamp = {run:DateTime64(3, 'UTC')})
    )`;
}

/** The ledger's markets whose history a step stored since `{run}` (the step's start). */
function historyKeys(venue: ResolutionVenue): string {
  const { key } = READINGS[venue];
  return `SELECT ${key} FROM ${venue}.coverage
  WHERE updated_at >= {run:DateTime64(3, 'UTC')} AND ${key} IN (SELECT market_id FROM ${venue}.resolutions)`;
}

/**
 * `INSERT … SELECT` writing the ledger rows of `venue` for `scope`. A run's or a history
 * step's scope takes the query parameter `run` (the run's sync timestamp, the step's start)
 * and reads the snapshots from a day before the earliest close among its markets, which
 * holds their last trading capture and everything since.
 */
export function resolutionsSql(venue: ResolutionVenue, scope: ResolutionScope): string {
  const reading = READINGS[venue];
  const { key, fields } = reading;
  const keys = scope === "run" ? runKeys(venue) : scope === "history" ? historyKeys(venue) : "";
  const since =
    scope === "run"
      ? `sync_timestamp >= (SELECT min(coalesce(${fields.closed_time}, sync_timestamp)) - INTERVAL 1 DAY
           FROM ${venue}.markets WHERE sync_timestamp = {run:DateTime64(3, 'UTC')} AND ${key} IN (${keys}))`
      : scope === "history"
        ? `sync_timestamp >= (SELECT min(closed_at) - INTERVAL 1 DAY FROM ${venue}.resolutions FINAL WHERE market_id IN (${keys}))`
        : "";
  const scoped = (column: string) => (scope === "all" ? "1" : `${column} IN (${keys})`);
  const where = (...conditions: string[]) => conditions.filter(Boolean).join(" AND ");
  const row = Object.entries(fields)
    .map(([name, expression]) => `${expression} AS s_${name}`)
    .join(",\n      ");
  const history = reading.history.replace(/\{keys:([\w.]+)\}/g, (_match, column: string) => scoped(column));

  return `INSERT INTO ${venue}.resolutions (${RESOLUTION_COLUMN_NAMES.join(", ")})
WITH settled AS (
  SELECT market_id,
    argMax(s_event_id, seen_at) AS event_id,
    argMax(s_question, seen_at) AS question,
    argMax(s_outcome_label, seen_at) AS outcome_label,
    argMax(s_outcomes, seen_at) AS outcomes,
    argMaxIf(s_payouts, seen_at, s_settled) AS payouts,
    argMaxIf(s_outcome_type, seen_at, s_settled) AS outcome_type,
    argMax(s_status, seen_at) AS status,
    -- The venue's close, else the first capture that showed the market closed, or settled.
    coalesce(argMax(s_closed_time, seen_at), minIf(seen_at, s_closed), minIf(seen_at, s_settled)) AS closed_at,
    coalesce(argMaxIf(s_resolved_time, seen_at, s_settled), minIf(seen_at, s_settled)) AS resolved_at,
    argMax(s_end_date, seen_at) AS end_date,
    argMax(s_venue_statuses, seen_at) AS venue_statuses,
    argMaxIf(s_scalar_value, seen_at, s_settled) AS scalar_value,
    argMaxIf(s_expiration_value, seen_at, s_settled) AS expiration_value,
    argMax(s_source_detail, seen_at) AS source_detail,
    argMax(s_exclusive, seen_at) AS exclusive,
    max(s_uma) AS uma,
    minMap(map(toString(s_status), toUnixTimestamp64Milli(seen_at))) AS seen,
    minMapIf(map(concat(s_outcome_type, '|', toString(s_payouts)), toUnixTimestamp64Milli(seen_at)), s_settled) AS states_seen
  FROM (
    SELECT ${key} AS market_id, sync_timestamp AS seen_at,
      ${row}
    FROM ${venue}.markets
    PREWHERE ${where(`(${reading.after})`, scoped(key), since)}
  )
  GROUP BY market_id
  HAVING countIf(s_settled) > 0
),
captured AS (
  SELECT ${key} AS market_id, max(sync_timestamp) AS at, argMax(${reading.prices}, sync_timestamp) AS prices
  FROM ${venue}.markets
  PREWHERE ${where(`(${reading.trading})`, scoped(key), since)}
  GROUP BY ${key}
),
archived AS (
  ${history}
)
SELECT ${RESOLUTION_COLUMN_NAMES.join(", ")} FROM (
  SELECT '${venue}' AS venue, a.market_id AS market_id, a.event_id AS event_id, ${reading.question} AS question,
    a.outcome_label AS outcome_label, a.outcomes AS outcomes, a.outcome_type AS outcome_type, a.payouts AS payouts,
    if(has(a.payouts, 1), toUInt8(indexOf(a.payouts, 1) - 1), NULL) AS winning_index,
    if(has(a.payouts, 1), a.outcomes[indexOf(a.payouts, 1)], '') AS winning_outcome,
    a.scalar_value AS scalar_value, a.expiration_value AS expiration_value, a.end_date AS end_date,
    a.closed_at AS closed_at, a.resolved_at AS resolved_at,
    ${reading.source} AS source, a.source_detail AS source_detail, a.status AS status, a.venue_statuses AS venue_statuses,
    arraySort(s -> s.2, arrayMap((k, v) -> (k, fromUnixTimestamp64Milli(v, 'UTC')), mapKeys(a.seen), mapValues(a.seen))) AS status_history,
    ${reading.proposedAt} AS proposed_at,
    ${firstSeen("disputed")} AS disputed_at,
    ${reading.disputed} AS disputed,
    length(a.states_seen) > 1 AS flipped,
    arraySort(s -> s.1, arrayMap((k, v) -> (fromUnixTimestamp64Milli(v, 'UTC'), splitByChar('|', k)[1],
      JSONExtract(splitByChar('|', k)[2], 'Array(Float64)')), mapKeys(a.states_seen), mapValues(a.states_seen))) AS states,
    c.at IS NOT NULL AND c.at < a.closed_at AS from_snapshot,
    h.at IS NOT NULL AND (NOT from_snapshot OR h.at > c.at) AS from_history,
    multiIf(from_history, 'history', from_snapshot, 'snapshot', '') AS last_price_from,
    arrayMap(o -> if(mapContains(h.by_outcome, o), h.by_outcome[o], nan), a.outcomes) AS archived_prices,
    multiIf(
      from_history AND length(archived_prices) = 2 AND isNaN(archived_prices[2]),
      [archived_prices[1], round(1 - archived_prices[1], 6)],
      from_history, archived_prices,
      from_snapshot, c.prices,
      CAST([], 'Array(Float64)')) AS last_prices,
    multiIf(from_history, toDateTime64(h.at, 3, 'UTC'), from_snapshot, c.at, NULL) AS last_price_at,
    ${reading.exclusive} AS exclusive,
    now64(3, 'UTC') AS updated_at
  FROM settled AS a
  LEFT JOIN captured AS c ON c.market_id = a.market_id
  LEFT JOIN archived AS h ON h.market_id = a.market_id
  ${reading.eventJoin}
)
SETTINGS join_use_nulls = 1`;
}

/** The two tables and the view over both. */
export function resolutionsDdl(ctx: DdlContext): string[] {
  return [
    ...RESOLUTION_VENUES.flatMap((venue) => createTable(ctx, resolutionsTable(venue))),
    resolutionsView(onCluster(ctx)),
  ];
}

/**
 * An event's winner over its ledger rows: the label (else the question) of its one market
 * that settled yes; empty when none or several did. The view and the market page share it.
 */
export const EVENT_WINNER =
  "if(countIf(outcome_type = 'yes') = 1, anyIf(if(outcome_label != '', outcome_label, question), outcome_type = 'yes'), '')";

const both = (columns: string) =>
  RESOLUTION_VENUES.map((venue) => `SELECT ${columns} FROM ${venue}.resolutions FINAL`).join("\n  UNION ALL\n  ");

/**
 * `crossvenue.resolutions`: both venues' ledgers as one, with each event's winner (the one
 * market of the event that settled yes, by its label) and how many of its markets settled.
 */
function resolutionsView(cluster: string): string {
  const columns = RESOLUTION_COLUMN_NAMES.filter((name) => name !== "updated_at");
  return `CREATE OR REPLACE VIEW crossvenue.resolutions${cluster} AS
SELECT ${columns.map((name) => `r.${name} AS ${name}`).join(", ")}, w.event_winner AS event_winner, w.event_markets AS event_markets
FROM (
  ${both(columns.join(", "))}
) AS r
LEFT JOIN (
  SELECT venue, event_id, count() AS event_markets,
    ${EVENT_WINNER} AS event_winner
  FROM (
  ${both("venue, event_id, outcome_type, outcome_label, question")}
  )
  GROUP BY venue, event_id
) AS w ON w.venue = r.venue AND w.event_id = r.event_id`;
}
