/**
 * An admin's decisions on cross-venue pairs: confirm or reject a pair the matcher
 * proposed, or pair two markets by hand. Each decision is a new row of the pair in
 * `crossvenue.market_pairs` (a ReplacingMergeTree on the pair, so `FINAL` reads the
 * decision) with `method` confirmed or rejected and the admin's user id, keeping when the
 * pair was first proposed and the matcher's score and reasons; the event pairs are then
 * rewritten. The matcher skips every pair whose method is not `auto` (`runMatcher` in
 * `packages/ingest`), so a decision holds across its runs and a rejected pair is never
 * proposed again.
 *
 * Every change is also appended to `internal.pair_reviews`, before the pair is written: a
 * failure between the two leaves a logged change that did not happen, which the admin
 * sees and repeats, never a change without its record.
 *
 * A matcher run that started before a decision cannot undo it: its rows carry the run's
 * start time, older than the decision's, and the newest row of a pair wins.
 */
import type {
  CrossVenuePair,
  ManualPairRequest,
  PairOrientation,
  PairRelation,
  PairReviewAction,
} from "@epicenter/contracts";
import {
  comparePair,
  type KalshiMarketText,
  kalshiSide,
  type PolymarketMarketText,
  polymarketSide,
  writeEventPairs,
} from "@epicenter/ingest";
import { fromDateTime64, toDateTime64 } from "@epicenter/warehouse";
import { conflict, notFound } from "../errors";
import { JOIN_USE_NULLS, type PairReadDeps, type PairRow, readPair } from "./pairs";

export interface PairReviewDeps extends PairReadDeps {
  clock: () => Date;
  /**
   * Told once a decision is written. The server moves user SQL's snapshot of the warehouse
   * on (otherwise taken after each sync run), so the arbitrage monitor prices a pair as
   * soon as an admin confirms it.
   */
  decided?: () => void;
}

interface PairKey {
  polymarketId: string;
  kalshiTicker: string;
}

/** The matcher's words for a same-contract candidate that another pair holds the place of. */
const TAKEN = "differs: another market of the other venue matches it better";

const PAIR_COLUMNS = `polymarket_id, kalshi_ticker, polymarket_event_id, kalshi_event_ticker, relation, orientation,
  score, method, reasons, matched_at, reviewed_by, updated_at`;

/** Confirms (optionally as another relation or orientation) or rejects a pair in the table. */
export async function decidePair(
  deps: PairReviewDeps,
  key: PairKey,
  decision: {
    action: "confirm" | "reject";
    relation?: PairRelation | undefined;
    orientation?: PairOrientation | undefined;
  },
  reviewerId: string,
): Promise<CrossVenuePair> {
  const [current] = await deps.warehouse.query<PairRow>(
    `SELECT ${PAIR_COLUMNS} FROM crossvenue.market_pairs FINAL
     WHERE polymarket_id = {polymarketId:String} AND kalshi_ticker = {kalshiTicker:String}`,
    { params: { ...key } },
  );
  if (!current) {
    throw notFound(`No pair of Polymarket market ${key.polymarketId} and Kalshi market ${key.kalshiTicker}.`);
  }
  const isConfirm = decision.action === "confirm";
  return record(deps, {
    row: {
      ...current,
      relation: (isConfirm ? decision.relation : undefined) ?? current.relation,
      orientation: (isConfirm ? decision.orientation : undefined) ?? current.orientation,
      method: isConfirm ? "confirmed" : "rejected",
    },
    action: decision.action,
    reviewerId,
    previousUpdatedAt: current.updated_at,
  });
}

/** The market with its event id, which the pair's row keeps. */
type PolymarketMarketRow = PolymarketMarketText & { event_id: string };
type KalshiMarketRow = KalshiMarketText & { event_ticker: string };

/**
 * Pairs two markets of the latest snapshots as confirmed, with the relation and
 * orientation given. A new pair gets the matcher's own score and reasons for the two, so
 * the admin reads what the matcher would say about it; a pair the table holds keeps its own.
 */
export async function pairByHand(
  deps: PairReviewDeps,
  request: ManualPairRequest,
  reviewerId: string,
): Promise<CrossVenuePair> {
  const key = { polymarketId: request.polymarket_id, kalshiTicker: request.kalshi_ticker };
  const [[polymarket], [kalshi], [existing]] = await Promise.all([
    deps.warehouse.query<PolymarketMarketRow>(
      `SELECT m.id AS polymarket_id, m.event_id AS event_id, m.question AS question, m.groupItemTitle AS groupItemTitle,
         m.outcomes AS outcomes, m.endDate AS endDate, e.title AS polymarket_event_title, e.description AS description
       FROM (SELECT * FROM polymarket.markets_latest FINAL WHERE id = {polymarketId:String}) AS m
       LEFT JOIN (SELECT id, title, description FROM polymarket.events_latest FINAL) AS e ON e.id = m.event_id${JOIN_USE_NULLS}`,
      { params: key },
    ),
    deps.warehouse.query<KalshiMarketRow>(
      `SELECT m.ticker AS kalshi_ticker, m.event_ticker AS event_ticker, m.title AS title,
         m.yes_sub_title AS yes_sub_title, m.close_time AS close_time,
         m.expected_expiration_time AS expected_expiration_time, m.rules_primary AS rules_primary,
         m.rules_secondary AS rules_secondary,
         m.floor_strike AS floor_strike, m.cap_strike AS cap_strike, e.title AS kalshi_event_title
       FROM (SELECT * FROM kalshi.markets_latest FINAL WHERE ticker = {kalshiTicker:String}) AS m
       LEFT JOIN (SELECT event_ticker, title FROM kalshi.events_latest FINAL) AS e ON e.event_ticker = m.event_ticker${JOIN_USE_NULLS}`,
      { params: key },
    ),
    deps.warehouse.query<PairRow>(
      `SELECT ${PAIR_COLUMNS} FROM crossvenue.market_pairs FINAL
       WHERE polymarket_id = {polymarketId:String} AND kalshi_ticker = {kalshiTicker:String}`,
      { params: key },
    ),
  ]);
  if (!polymarket || !kalshi) {
    const missing = [
      polymarket ? "" : `no Polymarket market ${key.polymarketId}`,
      kalshi ? "" : `no Kalshi market ${key.kalshiTicker}`,
    ].filter(Boolean);
    const sentence = missing.join(" and ");
    throw notFound(`There is ${sentence} in the latest snapshot.`);
  }
  const verdict = comparePair(polymarketSide(polymarket), kalshiSide(kalshi));
  const now = toDateTime64(deps.clock());
  const base: PairRow = existing ?? {
    polymarket_id: polymarket.polymarket_id,
    kalshi_ticker: kalshi.kalshi_ticker,
    polymarket_event_id: polymarket.event_id,
    kalshi_event_ticker: kalshi.event_ticker,
    relation: request.relation,
    orientation: request.orientation,
    score: verdict.score,
    method: "confirmed",
    reasons: [...verdict.reasons, ...verdict.conflicts.map((conflict) => `differs: ${conflict}`)],
    matched_at: now,
    reviewed_by: null,
    updated_at: now,
  };
  return record(deps, {
    row: { ...base, relation: request.relation, orientation: request.orientation, method: "confirmed" },
    action: "manual",
    reviewerId,
    previousUpdatedAt: existing?.updated_at,
  });
}

/**
 * Writes a decision: the log entry, the pair's new row, the matcher's same-contract pairs
 * of either market turned related when this one takes their place, and the event pairs.
 */
async function record(
  deps: PairReviewDeps,
  decision: { row: PairRow; action: PairReviewAction; reviewerId: string; previousUpdatedAt: string | undefined },
): Promise<CrossVenuePair> {
  const { row, reviewerId } = decision;
  const key = { polymarketId: row.polymarket_id, kalshiTicker: row.kalshi_ticker };
  const displaced =
    row.method === "confirmed" && row.relation === "same_contract" ? await sameContractRivals(deps, key) : [];
  // The newest row of a pair wins: a decision must be newer than the row it replaces, whatever the clock says.
  const previous = decision.previousUpdatedAt ? fromDateTime64(decision.previousUpdatedAt).getTime() + 1 : 0;
  const at = new Date(Math.max(deps.clock().getTime(), previous));
  const updatedAt = toDateTime64(at);

  await deps.warehouse.insert("internal.pair_reviews", [
    {
      polymarket_id: row.polymarket_id,
      kalshi_ticker: row.kalshi_ticker,
      action: decision.action,
      relation: row.relation,
      orientation: row.orientation,
      reviewed_by: reviewerId,
      reviewed_at: updatedAt,
    },
  ]);
  await deps.warehouse.insert("crossvenue.market_pairs", [
    { ...row, reviewed_by: reviewerId, updated_at: updatedAt },
    ...displaced.map((rival) => ({
      ...rival,
      relation: "related",
      reasons: [...rival.reasons, TAKEN],
      updated_at: toDateTime64(Math.max(at.getTime(), fromDateTime64(rival.updated_at).getTime() + 1)),
    })),
  ]);
  await writeEventPairs(deps.warehouse, at);
  deps.decided?.();
  const pair = await readPair(deps, key);
  if (!pair) throw new Error(`the pair ${key.polymarketId} / ${key.kalshiTicker} was written but cannot be read`);
  return pair;
}

/**
 * The other same-contract pairs of either market. A market is the same contract as one
 * market of the other venue at most: the matcher's own such pairs give way (as its next
 * run would do), another admin's confirmed one is a conflict the admin resolves first.
 */
async function sameContractRivals(deps: PairReviewDeps, key: PairKey): Promise<PairRow[]> {
  const rivals = await deps.warehouse.query<PairRow>(
    `SELECT ${PAIR_COLUMNS} FROM crossvenue.market_pairs FINAL
     WHERE relation = 'same_contract' AND method IN ('auto', 'model', 'confirmed')
       AND (polymarket_id = {polymarketId:String} OR kalshi_ticker = {kalshiTicker:String})
       AND NOT (polymarket_id = {polymarketId:String} AND kalshi_ticker = {kalshiTicker:String})`,
    { params: { ...key } },
  );
  const confirmed = rivals.find((rival) => rival.method === "confirmed");
  if (confirmed) {
    throw conflict(
      `Polymarket market ${confirmed.polymarket_id} and Kalshi market ${confirmed.kalshi_ticker} are already confirmed as the same contract. Reject that pair first, or confirm this one as related.`,
    );
  }
  return rivals;
}
