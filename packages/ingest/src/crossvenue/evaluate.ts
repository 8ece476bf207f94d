/**
 * The matcher's precision and recall on a labelled set of pairs: of the pairs it calls
 * the same contract, how many are (precision: a wrong pair is worse than a missing one),
 * and of the pairs that are, how many it finds (recall), overall and per topic family.
 * Pure; the sets live in `fixtures/crossvenue/` with where each pair came from: the
 * development part and the test part, frozen before the matcher was changed against it
 * (`LABELLED_FILES`, `SPLIT.md`).
 */
import { type Adjudicator, applyJudgement, askAdjudicator, needsJudgement } from "./adjudication";
import { featuresOf } from "./features";
import { comparePair, type KalshiSide, type PairVerdict, type PolymarketSide, type Relation } from "./score";

/**
 * The labelled files in `fixtures/crossvenue/` by part: the development part, which the
 * matcher is shaped on, and the test part, frozen before it changed (`SPLIT.md`).
 */
export const LABELLED_FILES = {
  development: [
    "labelled-pairs.json",
    "pairs-dev.json",
    "pairs-dev-more.json",
    "pairs-dev-near-misses.json",
    /** June 2026: a test part once, measured as frozen, then made development (`SPLIT.md`). */
    "pairs-dev-2026-06.json",
    /** Later pages of the June capture, every field checked verbatim against it. */
    "pairs-dev-2026-06c.json",
    "pairs-dev-2026-06d.json",
    "pairs-dev-2026-06e.json",
    "pairs-dev-2026-06f.json",
  ],
  test: ["pairs-test.json"],
  /**
   * A second test part, from the June 2026 capture the development part's June pairs come
   * from, other pages of it, labelled and frozen before the matcher was shaped on June: the
   * matcher is not to be shaped on it.
   */
  testJune: ["pairs-test-2026-06b.json"],
  /** Whole captures of both venues, development side only: every market, paired or not. */
  pool: "pool-dev-2026-03.json.gz",
} as const;

export interface LabelledPair {
  polymarket: PolymarketSide;
  kalshi: KalshiSide;
  label: Relation;
  orientation: "same" | "inverse" | null;
  source: string;
  note: string;
  /** economics, crypto, politics, geopolitics, sports, culture or science-tech. */
  family?: string;
}

export interface Evaluation {
  pairs: number;
  /** Pairs labelled the same contract that the matcher called so. */
  truePositives: number;
  /** Pairs the matcher called the same contract that are not. */
  falsePositives: Array<{ pair: LabelledPair; verdict: PairVerdict }>;
  /** Pairs labelled the same contract that the matcher did not call so. */
  falseNegatives: Array<{ pair: LabelledPair; verdict: PairVerdict }>;
  precision: number;
  recall: number;
  /** Same-contract pairs found with the wrong orientation. */
  wrongOrientation: number;
  /** labelled → predicted → count. */
  confusion: Record<Relation, Record<Relation, number>>;
}

export function evaluatePairs(labelled: readonly LabelledPair[]): Evaluation {
  return evaluateVerdicts(labelled, (pair) => comparePair(pair.polymarket, pair.kalshi));
}

/**
 * The same figures with the adjudicator reading the pairs the rules leave to it (as the
 * matcher does: `needsJudgement`), its answer used when both quotes are in the rules.
 * One call per such pair, one at a time; a failed call leaves the rules' verdict.
 */
export async function evaluateWithAdjudicator(
  labelled: readonly LabelledPair[],
  adjudicator: Adjudicator,
  onProgress?: (done: number, asked: number) => void,
): Promise<Evaluation & { asked: number; used: number; failed: number }> {
  const verdicts = new Map<LabelledPair, PairVerdict>();
  let [asked, used, failed] = [0, 0, 0];
  for (const pair of labelled) {
    const verdict = comparePair(pair.polymarket, pair.kalshi);
    verdicts.set(pair, verdict);
    if (!needsJudgement(verdict)) continue;
    asked++;
    try {
      const answer = await askAdjudicator(adjudicator, { ...pair, verdict }, "", 120_000);
      if (!answer.accepted) continue;
      used++;
      verdicts.set(pair, applyJudgement(verdict, answer));
    } catch {
      failed++;
    }
    onProgress?.(verdicts.size, asked);
  }
  const evaluation = evaluateVerdicts(labelled, (pair) => verdicts.get(pair) as PairVerdict);
  return { ...evaluation, asked, used, failed };
}

/** The figures of verdicts already read (`verdictOf`), for a caller that reads each pair once. */
export function evaluateVerdicts(
  labelled: readonly LabelledPair[],
  verdictOf: (pair: LabelledPair) => PairVerdict,
): Evaluation {
  const relations: Relation[] = ["same_contract", "related", "different"];
  const confusion = Object.fromEntries(
    relations.map((label) => [label, Object.fromEntries(relations.map((predicted) => [predicted, 0]))]),
  ) as Evaluation["confusion"];
  let truePositives = 0;
  let wrongOrientation = 0;
  const falsePositives: Evaluation["falsePositives"] = [];
  const falseNegatives: Evaluation["falseNegatives"] = [];
  for (const pair of labelled) {
    const verdict = verdictOf(pair);
    confusion[pair.label][verdict.relation]++;
    const isPredicted = verdict.relation === "same_contract";
    const isActual = pair.label === "same_contract";
    if (isPredicted && isActual) {
      truePositives++;
      if (pair.orientation && verdict.orientation !== pair.orientation) wrongOrientation++;
    } else if (isPredicted) falsePositives.push({ pair, verdict });
    else if (isActual) falseNegatives.push({ pair, verdict });
  }
  const predicted = truePositives + falsePositives.length;
  const actual = truePositives + falseNegatives.length;
  return {
    pairs: labelled.length,
    truePositives,
    falsePositives,
    falseNegatives,
    precision: predicted === 0 ? 1 : truePositives / predicted,
    recall: actual === 0 ? 1 : truePositives / actual,
    wrongOrientation,
    confusion,
  };
}

export const FAMILIES = [
  "economics",
  "crypto",
  "politics",
  "geopolitics",
  "sports",
  "culture",
  "science-tech",
] as const;

/** The evaluation of each topic family's pairs, families in `FAMILIES`' order, then any other. */
export function evaluateByFamily(
  labelled: readonly LabelledPair[],
  verdictOf?: (pair: LabelledPair) => PairVerdict,
): Array<{ family: string; evaluation: Evaluation }> {
  const families = [...new Set(labelled.map((pair) => pair.family ?? "unknown"))].sort(
    (a, b) => rank(a) - rank(b) || a.localeCompare(b),
  );
  return families.map((family) => ({
    family,
    evaluation: ((pairs) => (verdictOf ? evaluateVerdicts(pairs, verdictOf) : evaluatePairs(pairs)))(
      labelled.filter((pair) => (pair.family ?? "unknown") === family),
    ),
  }));
}

const rank = (family: string) => {
  const at = (FAMILIES as readonly string[]).indexOf(family);
  return at === -1 ? FAMILIES.length : at;
};

/** Every market of both venues in one capture, unpaired (`LABELLED_FILES.pool`). */
export interface MarketPool {
  polymarket: PolymarketSide[];
  kalshi: KalshiSide[];
}

/** A pair of a pool the matcher called the same contract, with its label if it has one. */
export interface PoolCall {
  polymarket: PolymarketSide;
  kalshi: KalshiSide;
  label: Relation | undefined;
}

/**
 * The matcher's precision where it meets every market of a capture, not pairs picked for a
 * label: the pairs it calls the same contract among all those whose titles share two words
 * (more than its candidate stage sends it), each looked up in the labelled pairs.
 */
export function sameContractsInPool(
  pool: MarketPool,
  labelled: readonly LabelledPair[],
): { compared: number; called: PoolCall[] } {
  const labels = new Map(labelled.map((pair) => [`${pair.polymarket.id}|${pair.kalshi.ticker}`, pair.label]));
  const kalshiWords = pool.kalshi.map((market) => featuresOf(`${market.eventTitle ?? ""} ${market.title}`).words);
  let compared = 0;
  const called: PoolCall[] = [];
  for (const polymarket of pool.polymarket) {
    const words = featuresOf(
      `${polymarket.eventTitle ?? ""} ${polymarket.question} ${polymarket.groupItemTitle ?? ""}`,
    ).words;
    pool.kalshi.forEach((kalshi, index) => {
      let shared = 0;
      for (const word of words) if (kalshiWords[index]?.has(word)) shared++;
      if (shared < 2) return;
      compared++;
      if (comparePair(polymarket, kalshi).relation !== "same_contract") return;
      called.push({ polymarket, kalshi, label: labels.get(`${polymarket.id}|${kalshi.ticker}`) });
    });
  }
  return { compared, called };
}
