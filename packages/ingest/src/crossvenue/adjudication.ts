/**
 * The optional adjudicator: where a language model is configured (Seismo's endpoint), the
 * candidate pairs the rules alone cannot settle are read by it, with both markets' full
 * rules and a strict answer schema (relation, orientation, the part that differs, a quote
 * from each rule). An answer is used only when both quotes are found in the rules it was
 * given; it is stored in `internal.pair_judgements` so a pair is asked once per version
 * of its texts, and the pair is written with `method = 'model'`. An admin's decision is
 * never overridden: the matcher does not score a pair an admin confirmed or rejected.
 *
 * The model is reached through an `Adjudicator` the server builds (the transport); what is
 * asked, and how an answer is checked, is here.
 */
import { createHash } from "node:crypto";
import type { Warehouse } from "@epicenter/warehouse";
import { toDateTime64 } from "@epicenter/warehouse";
import { z } from "zod";
import type { Logger } from "../logger";
import { type KalshiSide, type PairVerdict, type PolymarketSide, SAME_CONTRACT_SCORE } from "./score";

export const ZJudgement = z
  .object({
    relation: z
      .enum(["same_contract", "related", "different"])
      .describe(
        "same_contract: every part agrees (subject, act, threshold and unit, window, resolution source, settlement clauses); related: the same subject and act with a part that differs; different: another question",
      ),
    orientation: z
      .enum(["same", "inverse"])
      .nullable()
      .describe("same: Polymarket's first outcome is Kalshi's Yes; inverse: it is Kalshi's No; null when different"),
    differing_part: z
      .string()
      .nullable()
      .describe("The part that differs, in a few words (for example 'who grants the pardon'); null when none"),
    polymarket_quote: z
      .string()
      .min(1)
      .describe("Words copied exactly from the Polymarket rules that decide the answer"),
    kalshi_quote: z.string().min(1).describe("Words copied exactly from the Kalshi rules that decide the answer"),
  })
  .describe("The answer about one pair of markets");
export type Judgement = z.infer<typeof ZJudgement>;

/** A pair put to the adjudicator. */
export interface JudgementRequest {
  polymarket: PolymarketSide;
  kalshi: KalshiSide;
  verdict: PairVerdict;
}

/** The transport to a model; the server builds it from Seismo's configuration. */
export interface Adjudicator {
  /** The model's name, stored with each answer. */
  readonly model: string;
  /** Asks the model; rejects on a failed call or an answer outside `ZJudgement`. */
  judge(prompt: { system: string; prompt: string }, signal: AbortSignal): Promise<Judgement>;
}

export const ADJUDICATOR_SYSTEM = [
  "You compare two prediction markets, one on Polymarket and one on Kalshi, and say whether they are the same contract.",
  "Read each market's question and its full rules. Compare, part by part: the subject (who or what), the act or measure asked (wins, is named, reaches, leaves office, becomes law), the threshold with its unit, the window (start, deadline, time zone), the resolution source and statistic, and the settlement clauses (joint winners, death, announcements against the act itself, ties, cancellations, definitions).",
  "Answer same_contract only when every part agrees, so that both markets must settle the same way in every case; related when the subject and act agree and some part differs; different when they ask different questions.",
  "Give the orientation: same when Polymarket's first outcome pays exactly when Kalshi's Yes pays, inverse when it pays when Kalshi's No pays.",
  "Quote, copied exactly, the words of each market's rules that decide your answer.",
].join("\n");

/** What the adjudicator is asked about one pair: both questions and both rules, whole. */
export function judgementPrompt({ polymarket, kalshi, verdict }: JudgementRequest): string {
  const lines = (pairs: Array<[string, string | null | undefined]>) =>
    pairs.filter(([, value]) => value).map(([name, value]) => `${name}: ${value}`);
  return [
    "Polymarket market",
    ...lines([
      ["Event", polymarket.eventTitle],
      ["Question", polymarket.question],
      ["Outcome label", polymarket.groupItemTitle],
      ["Outcomes, first to last", polymarket.outcomes.join(", ")],
      ["End date", polymarket.endDate],
      ["Rules", polymarket.description],
    ]),
    "",
    "Kalshi market",
    ...lines([
      ["Event", kalshi.eventTitle],
      ["Title", kalshi.title],
      ["Yes subtitle", kalshi.yes_sub_title],
      ["Close time", kalshi.close_time],
      ["Expected expiration", kalshi.expected_expiration_time],
      ["Rules", kalshi.rules_primary],
      ["Further rules", kalshi.rules_secondary],
    ]),
    "",
    `The text matcher found: ${verdict.reasons.join("; ") || "nothing in common"}.`,
    verdict.unsettled.length > 0 ? `It could not settle: ${verdict.unsettled.join("; ")}.` : "",
  ]
    .filter((line, at, all) => line !== "" || all[at - 1] !== "")
    .join("\n");
}

/**
 * The pairs the rules leave to the adjudicator: nothing differs and the texts are alike
 * enough for the same contract, whether every part was shown to agree (a second reading
 * guards precision) or some part is unsettled.
 */
export function needsJudgement(verdict: PairVerdict): boolean {
  return verdict.conflicts.length === 0 && verdict.score >= SAME_CONTRACT_SCORE;
}

/** Why an answer cannot be used, or undefined: each quote must stand in its side's texts. */
export function quoteProblem(judgement: Judgement, polymarket: PolymarketSide, kalshi: KalshiSide): string | undefined {
  const said = (quote: string, texts: ReadonlyArray<string | null | undefined>) =>
    texts.some((text) => text && normalised(text).includes(normalised(quote)));
  if (!said(judgement.polymarket_quote, [polymarket.description, polymarket.question, polymarket.groupItemTitle])) {
    return "the Polymarket quote is not in its rules";
  }
  if (
    !said(judgement.kalshi_quote, [kalshi.rules_primary, kalshi.rules_secondary, kalshi.title, kalshi.yes_sub_title])
  ) {
    return "the Kalshi quote is not in its rules";
  }
  if (judgement.relation !== "different" && judgement.orientation === null) return "no orientation for a pair";
  return undefined;
}

const normalised = (text: string) =>
  text.normalize("NFKC").replace(/[‘’]/g, "'").replace(/[“”]/g, '"').replace(/\s+/g, " ").trim().toLowerCase();

/** The version of both markets' texts an answer was given on. */
export function textsHash(polymarket: PolymarketSide, kalshi: KalshiSide): string {
  return createHash("sha256")
    .update(JSON.stringify([polymarket, kalshi]))
    .digest("hex")
    .slice(0, 32);
}

/** An answer as stored, and whether it is used. */
export interface StoredJudgement {
  polymarket_id: string;
  kalshi_ticker: string;
  texts_hash: string;
  model: string;
  relation: string;
  orientation: string;
  differing_part: string;
  polymarket_quote: string;
  kalshi_quote: string;
  accepted: boolean;
  error: string;
}

export interface AdjudicationDeps {
  warehouse: Warehouse;
  adjudicator: Adjudicator;
  logger?: Logger;
  /** Pairs asked per run at most; the rest wait for the next run. */
  perRun?: number;
  /** How long one answer may take. */
  timeoutMs?: number;
}

const pairKey = (polymarketId: string, kalshiTicker: string) => `${polymarketId}\u0000${kalshiTicker}`;

/**
 * The adjudicator's answers on `requests`: those stored for the texts as they are now,
 * and new ones for up to `perRun` pairs not asked yet (one at a time, the best-scoring
 * first), each stored whatever it was. Keyed by pair.
 */
export async function adjudicate(
  deps: AdjudicationDeps,
  requests: readonly JudgementRequest[],
  now: Date,
): Promise<Map<string, StoredJudgement>> {
  const answers = new Map<string, StoredJudgement>();
  if (requests.length === 0) return answers;
  const stored = await deps.warehouse.query<StoredJudgement>(
    `SELECT polymarket_id, kalshi_ticker, texts_hash, model, relation, orientation, differing_part,
       polymarket_quote, kalshi_quote, accepted, error
     FROM internal.pair_judgements FINAL`,
  );
  const byVersion = new Map(
    stored.map((row) => [`${pairKey(row.polymarket_id, row.kalshi_ticker)}\u0000${row.texts_hash}`, row]),
  );
  const toAsk: Array<{ request: JudgementRequest; hash: string }> = [];
  for (const request of requests) {
    const key = pairKey(request.polymarket.id, request.kalshi.ticker);
    const hash = textsHash(request.polymarket, request.kalshi);
    const known = byVersion.get(`${key}\u0000${hash}`);
    if (known) answers.set(key, known);
    else toAsk.push({ request, hash });
  }
  const asked = toAsk.sort((a, b) => b.request.verdict.score - a.request.verdict.score).slice(0, deps.perRun ?? 20);
  const written: StoredJudgement[] = [];
  for (const { request, hash } of asked) {
    const row = await askOne(deps, request, hash);
    if (!row) continue;
    written.push(row);
    answers.set(pairKey(row.polymarket_id, row.kalshi_ticker), row);
  }
  if (written.length > 0) {
    await deps.warehouse.insert(
      "internal.pair_judgements",
      written.map((row) => ({ ...row, judged_at: toDateTime64(now.getTime()) })),
    );
    deps.logger?.info(
      {
        asked: written.length,
        accepted: written.filter((row) => row.accepted).length,
        waiting: toAsk.length - asked.length,
      },
      "cross-venue pairs adjudicated",
    );
  }
  return answers;
}

/**
 * One pair put to the adjudicator, its answer checked against both rules, as stored:
 * `accepted` false (and why, in `error`) when a quote is not in its rules. Rejects when
 * the call fails.
 */
export async function askAdjudicator(
  adjudicator: Adjudicator,
  request: JudgementRequest,
  textsHash: string,
  timeoutMs: number,
): Promise<StoredJudgement> {
  const judgement = await adjudicator.judge(
    { system: ADJUDICATOR_SYSTEM, prompt: judgementPrompt(request) },
    AbortSignal.timeout(timeoutMs),
  );
  const problem = quoteProblem(judgement, request.polymarket, request.kalshi);
  return {
    polymarket_id: request.polymarket.id,
    kalshi_ticker: request.kalshi.ticker,
    texts_hash: textsHash,
    model: adjudicator.model,
    relation: judgement.relation,
    orientation: judgement.orientation ?? "",
    differing_part: judgement.differing_part ?? "",
    polymarket_quote: judgement.polymarket_quote,
    kalshi_quote: judgement.kalshi_quote,
    accepted: problem === undefined,
    error: problem ?? "",
  };
}

/** The answer, usable or not; undefined when the call failed (asked again next run). */
async function askOne(
  deps: AdjudicationDeps,
  request: JudgementRequest,
  hash: string,
): Promise<StoredJudgement | undefined> {
  const pair = { polymarket_id: request.polymarket.id, kalshi_ticker: request.kalshi.ticker };
  try {
    const row = await askAdjudicator(deps.adjudicator, request, hash, deps.timeoutMs ?? 60_000);
    if (!row.accepted) deps.logger?.warn({ ...pair, problem: row.error }, "adjudicator answer not used");
    return row;
  } catch (error) {
    deps.logger?.warn({ ...pair, error: String(error) }, "adjudicator call failed");
    return undefined;
  }
}

/** The verdict once the adjudicator's used answer is applied, with its reasons. */
export function applyJudgement(verdict: PairVerdict, judgement: StoredJudgement): PairVerdict {
  const relation = judgement.relation as PairVerdict["relation"];
  const reasons = [
    ...verdict.reasons,
    `model (${judgement.model}): ${relation.replace("_", " ")}${judgement.differing_part ? `, differs in ${judgement.differing_part}` : ""}`,
    `Polymarket's rules: "${judgement.polymarket_quote}"`,
    `Kalshi's rules: "${judgement.kalshi_quote}"`,
  ];
  return {
    ...verdict,
    relation,
    orientation: judgement.orientation === "inverse" ? "inverse" : "same",
    reasons,
    // The model read what the text matcher could not: nothing is left unsettled.
    conflicts: relation === "same_contract" ? [] : verdict.conflicts,
    unsettled: [],
  };
}
