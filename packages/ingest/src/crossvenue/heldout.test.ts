/**
 * The matcher measured where it was not developed (issue 25): `fixtures/crossvenue/pairs-test.json`
 * was split off and frozen before the matcher was changed against it, and
 * `pairs-test-2026-06b.json`, from another capture three months later, before the matcher
 * was shaped on any pair of that capture (`SPLIT.md`); the bytes of both are checked so that
 * a change to them shows. The development part is every other labelled pair, the June pairs
 * first measured as a test part among them. Figures per topic family go to
 * docs/BENCHMARKS.md.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  type Evaluation,
  evaluateByFamily,
  evaluateVerdicts,
  LABELLED_FILES,
  type LabelledPair,
  type MarketPool,
  sameContractsInPool,
} from "./evaluate";
import { comparePair, type PairVerdict } from "./score";

const read = (name: string) => readFileSync(new URL(`../../../../fixtures/crossvenue/${name}`, import.meta.url));
const pairsOf = (name: string) => JSON.parse(read(name).toString("utf8")) as LabelledPair[];

/** The test part's SHA-256 when it was frozen (2026-11-27, before the matcher changed). */
const FROZEN_TEST_SHA256 = "4ec1931754871011efbc95c8d66fc2c5e3ebc5a56ed8af1db8e1b67c512490cf";
/**
 * The June 2026 test part's, frozen 2026-11-28 before the matcher was shaped on June's pairs
 * (`pairs-dev-2026-06.json`, frozen as a test part too until then, is development now).
 */
const FROZEN_JUNE_SHA256 = "21178735619c3e691a5ff8fb2f1913b38744a0025198e0960c88aea8697eec52";

const development = LABELLED_FILES.development.flatMap(pairsOf);
const test = LABELLED_FILES.test.flatMap(pairsOf);
const testJune = LABELLED_FILES.testJune.flatMap(pairsOf);
const seriesOf = (pair: LabelledPair) => pair.kalshi.ticker.split("-")[0];

function line(name: string, evaluation: Evaluation): string {
  const same = evaluation.confusion.same_contract;
  const positives = same.same_contract + same.related + same.different;
  return `${name.padEnd(12)} pairs ${String(evaluation.pairs).padStart(3)}  same_contract ${String(positives).padStart(2)}  precision ${evaluation.precision.toFixed(3)}  recall ${evaluation.recall.toFixed(3)}  orientation errors ${evaluation.wrongOrientation}`;
}

/** The part's figures, all and per family, each pair read once. */
function report(part: string, pairs: readonly LabelledPair[]): Evaluation {
  const verdicts = new Map(pairs.map((pair) => [pair, comparePair(pair.polymarket, pair.kalshi)]));
  const verdictOf = (pair: LabelledPair) => verdicts.get(pair) as PairVerdict;
  const overall = evaluateVerdicts(pairs, verdictOf);
  const families = evaluateByFamily(pairs, verdictOf).map((row) => line(row.family, row.evaluation));
  console.log([`${part}:`, line("all", overall), ...families].join("\n  "));
  return overall;
}

describe("the labelled pairs: a development part and two frozen test parts", () => {
  it("keeps both test parts frozen: their bytes are those they were frozen with", () => {
    expect(createHash("sha256").update(read("pairs-test.json")).digest("hex")).toBe(FROZEN_TEST_SHA256);
    expect(createHash("sha256").update(read("pairs-test-2026-06b.json")).digest("hex")).toBe(FROZEN_JUNE_SHA256);
  });

  it("keeps every pair in one part only, each labelled, placed in a family and sourced", () => {
    const key = (pair: LabelledPair) => `${pair.polymarket.id}|${pair.kalshi.ticker}`;
    const inDevelopment = new Set(development.map(key));
    expect(inDevelopment.size, "a development pair labelled twice").toBe(development.length);
    expect(test.filter((pair) => inDevelopment.has(key(pair)))).toEqual([]);
    expect(testJune.filter((pair) => inDevelopment.has(key(pair)))).toEqual([]);
    expect(new Set(testJune.map(key)).size, "a June pair labelled twice").toBe(testJune.length);
    for (const pair of [...development, ...test, ...testJune]) {
      expect(["same_contract", "related", "different"]).toContain(pair.label);
      expect(pair.family, key(pair)).toBeTruthy();
      expect(pair.source).toMatch(/^(fixture|public):/);
    }
    // A series (a Kalshi event family) never straddles the split, so no pair's siblings leak.
    // (The June part came later from another capture: its pairs of series the development part
    // holds are measured apart below.)
    const testSeries = new Set(test.map(seriesOf));
    expect(development.filter((pair) => testSeries.has(seriesOf(pair)))).toEqual([]);
  });

  it("calls nothing the same contract across whole development captures that is not labelled so", () => {
    const pool = JSON.parse(gunzipSync(read(LABELLED_FILES.pool)).toString("utf8")) as MarketPool;
    const testSeries = new Set(test.map((pair) => pair.kalshi.ticker.split("-")[0]));
    expect(pool.kalshi.filter((market) => testSeries.has(market.ticker.split("-")[0]))).toEqual([]);
    const { compared, called } = sameContractsInPool(pool, development);
    expect(compared).toBeGreaterThan(5_000);
    const wrong = called.filter((pair) => pair.label !== "same_contract");
    expect(
      wrong.map((pair) => `${pair.polymarket.question} / ${pair.kalshi.title}: ${pair.label ?? "unlabelled"}`),
    ).toEqual([]);
    expect(called.length).toBeGreaterThan(20);
  }, 60_000);

  // One part a test: each is a second of matching on a quiet machine, and together they
  // passed Vitest's 5 s beside a benchmark.
  it("measures the matcher on the development part, per family (figures in docs/BENCHMARKS.md)", () => {
    expect(report("development", development).wrongOrientation).toBe(0);
  });

  it("measures the matcher on the frozen test part, per family, at least as well as at the freeze", () => {
    const held = report("test (frozen)", test);
    // The figures at the freeze are a floor: a change that makes the frozen part worse fails here.
    expect(held.precision).toBeGreaterThanOrEqual(FLOOR.precision);
    expect(held.recall).toBeGreaterThanOrEqual(FLOOR.recall);
    expect(held.wrongOrientation).toBeLessThanOrEqual(FLOOR.wrongOrientation);
  });

  it("measures the matcher on the June 2026 test part, per family, at its floor or above", () => {
    const june = report("test, June 2026", testJune);
    const developedSeries = new Set(development.map(seriesOf));
    report(
      "test, June 2026, series new to development",
      testJune.filter((pair) => !developedSeries.has(seriesOf(pair))),
    );
    expect(june.precision).toBeGreaterThanOrEqual(JUNE_FLOOR.precision);
    expect(june.recall).toBeGreaterThanOrEqual(JUNE_FLOOR.recall);
    expect(june.wrongOrientation).toBeLessThanOrEqual(JUNE_FLOOR.wrongOrientation);
  });
});

/**
 * The scorer's figures on the test part: 0.075 and 0.15 at the freeze; 0.72 and 0.90 after
 * the first change; 0.81 (17 of 21) and 0.85 once the same contract needed every part settled
 * (2026-11-27: precision bought with recall, as the issue ranks them). Issue 25 asks for
 * precision 0.95 with recall 0.8.
 */
const FLOOR = { precision: 0.8, recall: 0.85, wrongOrientation: 0 };

/**
 * The June 2026 part: 0 of 48 same-contract pairs found when first measured (2026-11-28,
 * nothing changed for it; its sibling part, now development, found 1 of 49 then). After the
 * matcher was shaped on that sibling part (Kalshi's backstop close, its generic league names,
 * nominee and nomination, …): 32 of 48 found, 1 of 33 called wrongly (precision 0.970, recall
 * 0.667), no orientation wrong; on its 33 pairs of series new to development, precision 0.933
 * (14 of 15) and recall 0.538. After the matcher was shaped on three more development parts of
 * the capture (seasons, Kalshi's event-ticker years, titles, leagues' and parties' initials,
 * 2026-11-29): 35 of 48 found, 2 of 37 called wrongly (precision 0.946, recall 0.729): recall
 * up, precision one pair under the issue's bar; the new error was not read. After the matcher
 * was shaped on the development misses of those parts and a fourth (06f: rules' conditions said
 * the same, won finals, initials, district codes, padded ends, 2026-11-29): 39 of 48 found, 2 of
 * 41 called wrongly (precision 0.951, recall 0.813), no orientation wrong: the issue's bar, just;
 * its errors unread. The floor is the bar, so a change that falls under it fails here.
 */
const JUNE_FLOOR = { precision: 0.95, recall: 0.8, wrongOrientation: 0 };
