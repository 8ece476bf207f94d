/**
 * The cross-venue matcher: after a snapshot of either venue, pairs Polymarket markets with
 * the Kalshi markets asking the same question and writes `crossvenue.market_pairs` and
 * `crossvenue.event_pairs`.
 *
 * Two stages, so it stays fast at hundreds of thousands of markets and every decision can
 * be read:
 * 1. **Candidates, in the engine**: each market's meaningful words (stop words and the
 *    words in more than `maxTokenMarkets` Kalshi markets left out), joined on the word, so
 *    only markets sharing at least two rare words and closing within `windowDays` of each
 *    other meet, the best `perMarket` Kalshi markets per Polymarket market by words shared.
 * 2. **Scoring, here** (`score.ts`): shared words and names, close dates, numbers and
 *    thresholds, dates in the text, resolution sources; conflicts rule out "the same
 *    contract". A Polymarket market is the same contract as one Kalshi market at most (and
 *    the reverse): the best-scoring one keeps it, the others become `related`.
 *
 * An admin's decision (`confirmed`, `rejected`) is never overwritten, and a rejected pair
 * is never proposed again; a pair keeps the time it was first proposed. A pair of the
 * matcher's own that no longer matches when scored again is removed.
 *
 * After a snapshot only the markets created since the last run need pairing (`since`):
 * they meet every market of the other venue, and the join stays small. A full pass (every
 * market against every market) re-reads what changed in older markets' text or dates; the
 * scheduler makes one at start and then daily.
 */
import type { Warehouse } from "@epicenter/warehouse";
import { onCluster, storageTable, toDateTime64 } from "@epicenter/warehouse";
import type { Clock, Logger } from "../logger";
import { type Adjudicator, adjudicate, applyJudgement, needsJudgement, type StoredJudgement } from "./adjudication";
import { STOP_WORDS } from "./features";
import { comparePair, type KalshiSide, type PairVerdict, type PolymarketSide } from "./score";

export interface MatcherDeps {
  warehouse: Warehouse;
  logger?: Logger;
  clock?: Clock;
  /** Reads the pairs the rules cannot settle (`adjudication.ts`); the matcher works alone without it. */
  adjudicator?: Adjudicator;
}

export interface MatcherOptions {
  /** Also pair closed markets (once, for the history); open ones only by default. */
  includeClosed?: boolean;
  /** Markets closing further apart than this are never candidates. */
  windowDays?: number;
  /** Kalshi candidates scored per Polymarket market. */
  perMarket?: number;
  /** Words in more Kalshi markets than this are too common to block on. */
  maxTokenMarkets?: number;
  /**
   * Only markets created since then (on either venue) meet candidates, among all the
   * other venue's markets: the run after a snapshot, which brings a few new markets. A
   * full pass, every market against every market, when absent.
   */
  since?: Date;
  /**
   * Only Polymarket markets ending in `[from, to)`, against the Kalshi markets closing
   * within `windowDays` of it: one window of the pass over closed markets, which are too
   * many to pair at once.
   */
  closes?: { from: Date; to: Date };
}

export interface MatcherOutcome {
  candidates: number;
  sameContract: number;
  related: number;
  /** Pairs new or changed since the last run, the only ones written. */
  written: number;
  /** The matcher's own pairs that no longer match when scored again (a full pass scores them all), removed. */
  retired: number;
  /** Pairs an admin decided, left as they were. */
  reviewed: number;
  /** Of the duration, the candidates query in the engine. */
  candidatesMs: number;
  durationMs: number;
}

interface CandidateRow {
  polymarket_id: string;
  polymarket_event_id: string;
  question: string;
  groupItemTitle: string;
  outcomes: string[];
  endDate: string | null;
  description: string | null;
  polymarket_event_title: string | null;
  kalshi_ticker: string;
  kalshi_event_ticker: string;
  title: string;
  yes_sub_title: string;
  close_time: string | null;
  expected_expiration_time: string | null;
  rules_primary: string;
  rules_secondary: string;
  kalshi_event_title: string | null;
  floor_strike: number | null;
  cap_strike: number | null;
  shared: string;
}

/** A pair as the table holds it (the event ids only when written). */
interface PairRow {
  polymarket_id: string;
  kalshi_ticker: string;
  relation: string;
  orientation: string;
  score: number;
  method: string;
  reasons: string[];
  matched_at: string;
  event?: { polymarket: string; kalshi: string };
}

const pairKey = (polymarketId: string, kalshiTicker: string) => `${polymarketId}\u0000${kalshiTicker}`;

function isSame(pair: PairRow, before: PairRow | undefined): boolean {
  return (
    before !== undefined &&
    before.method === pair.method &&
    before.relation === pair.relation &&
    before.orientation === pair.orientation &&
    Math.abs(Number(before.score) - pair.score) < 1e-6 &&
    before.reasons.join("\n") === pair.reasons.join("\n")
  );
}

const WORDS = (text: string) =>
  `arrayDistinct(arrayFilter(w -> length(w) >= 3 AND NOT has({stop:Array(String)}, w), splitByNonAlpha(lower(${text}))))`;

/** The Polymarket markets a run pairs: the open ones (or all), in the closed pass's window. */
const POLYMARKET_SCOPE = `({includeClosed:Bool} OR NOT ifNull(closed, false))
  AND (NOT {windowed:Bool} OR (endDate >= {closesFrom:DateTime64(3, 'UTC')} AND endDate < {closesTo:DateTime64(3, 'UTC')}))`;

/** The Kalshi markets a run pairs: the open ones (or all), closing near the closed pass's window. */
const KALSHI_SCOPE = `({includeClosed:Bool} OR status IN ('active', 'open', 'initialized', 'unopened'))
  AND (NOT {windowed:Bool} OR arrayExists(
    at -> at >= {closesFrom:DateTime64(3, 'UTC')} - toIntervalDay({windowDays:UInt16})
      AND at < {closesTo:DateTime64(3, 'UTC')} + toIntervalDay({windowDays:UInt16}),
    [close_time, expected_expiration_time]))`;

/*
 * Each side's markets are read once for their words (ClickHouse inlines a CTE wherever it
 * is named, so a CTE named twice is computed twice): Kalshi's words are grouped with the
 * markets that say them, the common ones left out, and each Polymarket word meets its
 * group in one join. Pairs are counted on the markets' 64-bit hashes and named again
 * before the best few per market are taken; texts are joined last, to those.
 */
const CANDIDATES = `
WITH
  p AS (
    SELECT cityHash64(id) AS key, endDate, ${WORDS("concat(question, ' ', groupItemTitle)")} AS words,
      NOT {incremental:Bool} OR ifNull(coalesce(createdAt, startDate) >= {since:DateTime64(3, 'UTC')}, false) AS fresh
    FROM polymarket.markets_latest FINAL
    WHERE ${POLYMARKET_SCOPE}
  ),
  k AS (
    SELECT cityHash64(ticker) AS key, close_time, expected_expiration_time,
      -- A nested market without a title of its own asks its event's question (issue 25, #5).
      ${WORDS("concat(if(title = '', event_title_if_untitled, title), ' ', yes_sub_title)")} AS words,
      -- Kalshi's nested events send created_time as year 1 (stored as NULL): its opening then.
      NOT {incremental:Bool} OR ifNull(coalesce(created_time, open_time) >= {since:DateTime64(3, 'UTC')}, false) AS fresh
    FROM (
      SELECT m.*, ifNull(e.title, '') AS event_title_if_untitled
      FROM (
        SELECT ticker, event_ticker, title, yes_sub_title, status, close_time, expected_expiration_time,
          created_time, open_time
        FROM kalshi.markets_latest FINAL
      ) AS m
      LEFT JOIN (
        SELECT event_ticker, title FROM kalshi.events_latest FINAL
        WHERE event_ticker IN (SELECT event_ticker FROM kalshi.markets_latest FINAL WHERE title = '')
      ) AS e ON e.event_ticker = m.event_ticker
    )
    WHERE ${KALSHI_SCOPE}
  ),
  k_rare AS (
    SELECT word, groupArray((key, close_time, expected_expiration_time, fresh)) AS markets, max(fresh) AS anyFresh
    FROM (SELECT key, close_time, expected_expiration_time, fresh, arrayJoin(words) AS word FROM k)
    GROUP BY word
    HAVING count() <= {maxTokenMarkets:UInt32}
  ),
  -- Pairs sharing two rare words, within the window, counted on the markets' hashes (tens of
  -- millions of word meetings on busy days: numbers group faster than strings). A run after a
  -- snapshot pairs its fresh markets with every market and the rest with fresh ones only (a
  -- full pass: every market is fresh).
  shared AS (
    SELECT polymarket, market.1 AS kalshi, count() AS shared
    FROM (
      SELECT polymarket, endDate, arrayJoin(if(fresh, markets, arrayFilter(market -> market.4, markets))) AS market
      FROM (
        SELECT pw.key AS polymarket, pw.endDate AS endDate, pw.fresh AS fresh, kw.markets AS markets
        FROM (SELECT key, endDate, fresh, arrayJoin(words) AS word FROM p) AS pw
        INNER JOIN k_rare AS kw ON pw.word = kw.word
        WHERE pw.fresh OR kw.anyFresh
      )
    )
    -- Kalshi's close_time can be a far backstop (the World Cup's: 2028); its expected settlement counts too.
    WHERE endDate IS NULL OR market.2 IS NULL
      OR least(abs(dateDiff('hour', endDate, market.2)),
               abs(dateDiff('hour', endDate, ifNull(market.3, market.2)))) <= 24 * {windowDays:UInt16}
    GROUP BY polymarket, kalshi
    HAVING shared >= 2
  ),
  -- The best few per market, named again.
  near AS (
    SELECT pk.id AS id, kk.ticker AS ticker, shared.shared AS shared
    FROM shared
    INNER JOIN (SELECT cityHash64(id) AS key, id FROM polymarket.markets_latest FINAL WHERE ${POLYMARKET_SCOPE}) AS pk
      ON pk.key = shared.polymarket
    INNER JOIN (SELECT cityHash64(ticker) AS key, ticker FROM kalshi.markets_latest FINAL WHERE ${KALSHI_SCOPE}) AS kk
      ON kk.key = shared.kalshi
    ORDER BY id, shared DESC, ticker
    LIMIT {perMarket:UInt16} BY id
  ),
  -- A full pass scores the matcher's own pairs again whatever their words or dates now say,
  -- so one that no longer matches is found and retired (both markets still in scope: the
  -- text joins below keep the markets in scope only).
  kept AS (
    SELECT polymarket_id AS id, kalshi_ticker AS ticker, toUInt64(0) AS shared
    FROM crossvenue.market_pairs FINAL
    WHERE NOT {incremental:Bool} AND method = 'auto'
  )
SELECT
  pm.id AS polymarket_id, pm.event_id AS polymarket_event_id, pm.question AS question,
  pm.groupItemTitle AS groupItemTitle, pm.outcomes AS outcomes, pm.endDate AS endDate,
  pe.description AS description, pe.title AS polymarket_event_title,
  km.ticker AS kalshi_ticker, km.event_ticker AS kalshi_event_ticker, km.title AS title,
  km.yes_sub_title AS yes_sub_title, km.close_time AS close_time,
  km.expected_expiration_time AS expected_expiration_time, km.rules_primary AS rules_primary,
  km.rules_secondary AS rules_secondary,
  ke.title AS kalshi_event_title, km.floor_strike AS floor_strike, km.cap_strike AS cap_strike,
  near.shared AS shared
FROM (
  SELECT id, ticker, max(shared) AS shared
  FROM (SELECT id, ticker, shared FROM near UNION ALL SELECT id, ticker, shared FROM kept)
  GROUP BY id, ticker
) AS near
INNER JOIN (
  SELECT id, event_id, question, groupItemTitle, outcomes, endDate FROM polymarket.markets_latest FINAL
  WHERE ${POLYMARKET_SCOPE}
) AS pm ON pm.id = near.id
INNER JOIN (
  SELECT ticker, event_ticker, title, yes_sub_title, close_time, expected_expiration_time, rules_primary, rules_secondary,
    floor_strike, cap_strike
  FROM kalshi.markets_latest FINAL
  WHERE ${KALSHI_SCOPE}
) AS km ON km.ticker = near.ticker
LEFT JOIN (SELECT id, title, description FROM polymarket.events_latest FINAL) AS pe ON pe.id = pm.event_id
LEFT JOIN (SELECT event_ticker, title FROM kalshi.events_latest FINAL) AS ke ON ke.event_ticker = km.event_ticker
ORDER BY polymarket_id, shared DESC, kalshi_ticker`;

export async function runMatcher(deps: MatcherDeps, options: MatcherOptions = {}): Promise<MatcherOutcome> {
  const started = performance.now();
  const now = (deps.clock ?? (() => new Date()))();
  const candidates = await deps.warehouse.query<CandidateRow>(CANDIDATES, {
    params: {
      stop: [...STOP_WORDS],
      includeClosed: options.includeClosed ?? false,
      windowDays: options.windowDays ?? 7,
      perMarket: options.perMarket ?? 8,
      maxTokenMarkets: options.maxTokenMarkets ?? 2_000,
      incremental: options.since !== undefined,
      since: toDateTime64((options.since ?? new Date(0)).getTime()),
      windowed: options.closes !== undefined,
      closesFrom: toDateTime64((options.closes?.from ?? new Date(0)).getTime()),
      closesTo: toDateTime64((options.closes?.to ?? new Date(0)).getTime()),
    },
  });
  const candidatesMs = Math.round(performance.now() - started);
  const existing = await deps.warehouse.query<PairRow>(
    `SELECT polymarket_id, kalshi_ticker, relation, orientation, score, method, reasons,
       toString(matched_at) AS matched_at
     FROM crossvenue.market_pairs FINAL`,
  );
  const known = new Map(existing.map((row) => [pairKey(row.polymarket_id, row.kalshi_ticker), row]));
  // One same contract per market on each side: an admin's confirmed pair holds it first,
  // then the best-scoring pair.
  // A run that sees only some markets (the new ones, a window of close dates) also keeps
  // the matcher's own same-contract pairs it does not score again: a market it sees does
  // not take the place of a pair it does not.
  const isPartial = options.since !== undefined || options.closes !== undefined;
  const taken = new Set<string>();
  const scoredAgain = new Set(candidates.map((row) => pairKey(row.polymarket_id, row.kalshi_ticker)));
  for (const row of existing) {
    const holds =
      row.method === "confirmed" ||
      (isPartial && isOwn(row.method) && !scoredAgain.has(pairKey(row.polymarket_id, row.kalshi_ticker)));
    if (holds && row.relation === "same_contract") taken.add(`p:${row.polymarket_id}`).add(`k:${row.kalshi_ticker}`);
  }

  const verdicts = await judged(
    deps,
    candidates
      .filter((row) => !isDecided(known.get(pairKey(row.polymarket_id, row.kalshi_ticker))))
      .map((row) => ({ row, verdict: comparePair(polymarketSide(row), kalshiSide(row)), method: "auto" as const })),
    now,
  );
  // The matcher's own pairs that no longer match (a date moved, a title changed): retired.
  const retired = verdicts
    .filter(({ verdict }) => verdict.relation === "different")
    .map(({ row }) => known.get(pairKey(row.polymarket_id, row.kalshi_ticker)))
    .filter((before): before is PairRow => before !== undefined && isOwn(before.method));
  const scored = verdicts
    .filter(({ verdict }) => verdict.relation !== "different")
    .sort((a, b) => b.verdict.score - a.verdict.score);
  // Pairs an admin decided are left as they are, however they would score now.
  const reviewed = candidates.length - verdicts.length;
  const found: PairRow[] = [];
  for (const { row, verdict, method } of scored) {
    const before = known.get(pairKey(row.polymarket_id, row.kalshi_ticker));
    const final = onePerMarket(verdict, row, taken);
    found.push({
      polymarket_id: row.polymarket_id,
      kalshi_ticker: row.kalshi_ticker,
      relation: final.relation,
      orientation: final.orientation,
      score: final.score,
      method,
      reasons: [...final.reasons, ...final.conflicts.map((conflict) => `differs: ${conflict}`)],
      matched_at: before?.matched_at ?? toDateTime64(now.getTime()),
      event: { polymarket: row.polymarket_event_id, kalshi: row.kalshi_event_ticker },
    });
  }
  // A pair the matcher already holds as it is now is not written again (runs come every snapshot).
  const changed = found.filter((pair) => !isSame(pair, known.get(pairKey(pair.polymarket_id, pair.kalshi_ticker))));
  if (changed.length > 0) {
    await deps.warehouse.insert(
      "crossvenue.market_pairs",
      changed.map(({ event, ...pair }) => ({
        ...pair,
        polymarket_event_id: event?.polymarket ?? "",
        kalshi_event_ticker: event?.kalshi ?? "",
        reviewed_by: null,
        updated_at: toDateTime64(now.getTime()),
      })),
    );
  }
  if (retired.length > 0) await retirePairs(deps.warehouse, retired);
  if (changed.length > 0 || retired.length > 0) await writeEventPairs(deps.warehouse, now);
  const outcome: MatcherOutcome = {
    candidates: candidates.length,
    sameContract: found.filter((pair) => pair.relation === "same_contract").length,
    related: found.filter((pair) => pair.relation === "related").length,
    written: changed.length,
    retired: retired.length,
    reviewed,
    candidatesMs,
    durationMs: Math.round(performance.now() - started),
  };
  deps.logger?.info({ ...outcome }, "cross-venue pairs matched");
  return outcome;
}

/** Written by an admin: the matcher never scores it again. */
const isDecided = (pair: PairRow | undefined) => pair?.method === "confirmed" || pair?.method === "rejected";
/** The matcher's own (its reading of the texts, or the adjudicator's answer): scored again each run. */
const isOwn = (method: string) => method === "auto" || method === "model";

interface Scored {
  row: CandidateRow;
  verdict: PairVerdict;
  method: "auto" | "model";
}

/** The verdicts with the adjudicator's used answers applied, where one is configured. */
async function judged(deps: MatcherDeps, verdicts: Scored[], now: Date): Promise<Scored[]> {
  if (!deps.adjudicator) return verdicts;
  const answers: Map<string, StoredJudgement> = await adjudicate(
    { warehouse: deps.warehouse, adjudicator: deps.adjudicator, ...(deps.logger ? { logger: deps.logger } : {}) },
    verdicts
      .filter(({ verdict }) => needsJudgement(verdict))
      .map(({ row, verdict }) => ({ polymarket: polymarketSide(row), kalshi: kalshiSide(row), verdict })),
    now,
  );
  return verdicts.map((scored) => {
    const answer = answers.get(pairKey(scored.row.polymarket_id, scored.row.kalshi_ticker));
    if (!answer?.accepted || !needsJudgement(scored.verdict)) return scored;
    return { ...scored, verdict: applyJudgement(scored.verdict, answer), method: "model" };
  });
}

function onePerMarket(verdict: PairVerdict, row: CandidateRow, taken: Set<string>): PairVerdict {
  if (verdict.relation !== "same_contract") return verdict;
  const [p, k] = [`p:${row.polymarket_id}`, `k:${row.kalshi_ticker}`];
  if (taken.has(p) || taken.has(k)) {
    return {
      ...verdict,
      relation: "related",
      conflicts: [...verdict.conflicts, "another market of the other venue matches it better"],
    };
  }
  taken.add(p).add(k);
  return verdict;
}

/**
 * Removes pairs the matcher proposed that no longer match. Only `auto` rows go: an admin's
 * decision made meanwhile stays. A mutation, but a rare one (a full pass, daily) on a
 * small table.
 */
async function retirePairs(warehouse: Warehouse, pairs: readonly PairRow[]): Promise<void> {
  const ctx = { cluster: warehouse.cluster };
  await warehouse.command(
    `ALTER TABLE ${storageTable(ctx, "crossvenue", "market_pairs")}${onCluster(ctx)}
     DELETE WHERE method IN ('auto', 'model')
       AND has(arrayZip({polymarket:Array(String)}, {kalshi:Array(String)}), (polymarket_id, kalshi_ticker))
     SETTINGS mutations_sync = 2`,
    {
      params: {
        polymarket: pairs.map((pair) => pair.polymarket_id),
        kalshi: pairs.map((pair) => pair.kalshi_ticker),
      },
    },
  );
}

/**
 * The events that hold paired markets, from the pairs as they stand (rejected ones left
 * out). An event pair that no longer holds any (its pairs rejected or retired) is written
 * as holding none, so `FINAL` never shows a count that is gone.
 */
export async function writeEventPairs(warehouse: Warehouse, now: Date): Promise<void> {
  await warehouse.command(
    `INSERT INTO crossvenue.event_pairs
     SELECT polymarket_event_id, kalshi_event_ticker, 0, 0, 0, matched_at,
       greatest({now:DateTime64(3, 'UTC')}, updated_at + toIntervalMillisecond(1))
     FROM crossvenue.event_pairs FINAL
     WHERE market_pairs > 0
       AND (polymarket_event_id, kalshi_event_ticker) NOT IN (
         SELECT polymarket_event_id, kalshi_event_ticker FROM crossvenue.market_pairs FINAL WHERE method != 'rejected')`,
    { params: { now: toDateTime64(now.getTime()) } },
  );
  await warehouse.command(
    `INSERT INTO crossvenue.event_pairs
     SELECT polymarket_event_id, kalshi_event_ticker, count() AS market_pairs,
       countIf(relation = 'same_contract') AS same_contract_pairs, max(score) AS score,
       min(matched_at) AS matched_at, {now:DateTime64(3, 'UTC')} AS updated_at
     FROM crossvenue.market_pairs FINAL
     WHERE method != 'rejected' AND polymarket_event_id != '' AND kalshi_event_ticker != ''
     GROUP BY polymarket_event_id, kalshi_event_ticker`,
    { params: { now: toDateTime64(now.getTime()) } },
  );
}

/** A Polymarket market as the engine reads it for the matcher (and for an admin's pair by hand). */
export type PolymarketMarketText = Pick<
  CandidateRow,
  "polymarket_id" | "question" | "groupItemTitle" | "outcomes" | "endDate" | "description" | "polymarket_event_title"
>;

/** A Kalshi market as the engine reads it for the matcher. */
export type KalshiMarketText = Pick<
  CandidateRow,
  | "kalshi_ticker"
  | "title"
  | "yes_sub_title"
  | "close_time"
  | "expected_expiration_time"
  | "rules_primary"
  | "rules_secondary"
  | "kalshi_event_title"
  | "floor_strike"
  | "cap_strike"
>;

export function polymarketSide(row: PolymarketMarketText): PolymarketSide {
  return {
    id: row.polymarket_id,
    question: row.question,
    groupItemTitle: row.groupItemTitle || null,
    outcomes: row.outcomes,
    endDate: row.endDate,
    description: row.description || null,
    eventTitle: row.polymarket_event_title || null,
  };
}

export function kalshiSide(row: KalshiMarketText): KalshiSide {
  return {
    ticker: row.kalshi_ticker,
    title: row.title,
    yes_sub_title: row.yes_sub_title || null,
    close_time: row.close_time,
    expected_expiration_time: row.expected_expiration_time,
    rules_primary: row.rules_primary || null,
    rules_secondary: row.rules_secondary || null,
    eventTitle: row.kalshi_event_title || null,
    floor_strike: row.floor_strike === null ? null : Number(row.floor_strike),
    cap_strike: row.cap_strike === null ? null : Number(row.cap_strike),
  };
}
