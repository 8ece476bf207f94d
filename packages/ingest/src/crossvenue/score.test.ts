import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { evaluatePairs, type LabelledPair } from "./evaluate";
import { actionsOf, featuresOf } from "./features";
import { comparePair } from "./score";

const labelled = JSON.parse(
  readFileSync(new URL("../../../../fixtures/crossvenue/labelled-pairs.json", import.meta.url), "utf8"),
) as LabelledPair[];

describe("features", () => {
  it("reads thresholds with their units, and leaves dates and years out of them", () => {
    expect(featuresOf("Will Bitcoin be above $120k on June 30, 2026?").quantities).toEqual([
      { value: 120_000, unit: "$" },
    ]);
    expect(featuresOf("CPI above 4.5% in March").quantities).toEqual([{ value: 4.5, unit: "%" }]);
    expect(featuresOf("Will Bitcoin be above $120k on June 30, 2026?").dates).toEqual(["2026-06-30"]);
    expect(featuresOf("Will Bitcoin be above $120k on June 30, 2026?").direction).toBe("above");
  });

  it("names what a question asks of its subject, and reads names without their accents", () => {
    expect(actionsOf("Will Spain qualify for FIFA World Cup Final?")).toEqual(new Set(["qualify", "stage"]));
    expect(actionsOf("Will Spain win the 2026 FIFA World Cup?")).toEqual(new Set(["win"]));
    expect(featuresOf("Will Curaçao win?").words).toEqual(featuresOf("Will Curacao win?").words);
  });
});

describe("comparePair", () => {
  const spain = labelled.find((pair) => pair.kalshi.ticker === "KXMENWORLDCUP-26-ES") as LabelledPair;

  it("says why a pair is the same contract", () => {
    const verdict = comparePair(spain.polymarket, spain.kalshi);
    expect(verdict).toMatchObject({ relation: "same_contract", orientation: "same", conflicts: [] });
    expect(verdict.reasons).toContain('same outcome: "Spain" / "Spain"');
  });

  it("never calls another threshold, act or outcome the same contract, and says what differs", () => {
    const otherAct = comparePair(spain.polymarket, {
      ...spain.kalshi,
      title: "Will Spain qualify for FIFA World Cup Final?",
    });
    expect(otherAct.relation).toBe("different");
    expect(otherAct.conflicts.join(" ")).toContain("asks something else: win (Polymarket) vs qualify, stage (Kalshi)");
    const strike = comparePair(
      { ...spain.polymarket, question: "Will CPI be above 4.5% in March?", groupItemTitle: null },
      { ...spain.kalshi, title: "Will CPI be above 4.75% in March?", yes_sub_title: null },
    );
    expect(strike.relation).not.toBe("same_contract");
    expect(strike.conflicts.join(" ")).toContain("numbers differ: 4.5% vs 4.75%");
  });

  it("counts a name as shared when the other side's text says it, even opening its sentence", () => {
    const khamenei = labelled.find(
      (pair) =>
        pair.polymarket.question === "Khamenei out as Supreme Leader of Iran by January 31?" &&
        pair.label === "related",
    ) as LabelledPair;
    const verdict = comparePair(khamenei.polymarket, khamenei.kalshi);
    expect(verdict.reasons.join("; ")).toContain("names on both: ");
    expect(verdict.reasons.join("; ")).toContain("khamenei");
    expect(verdict.conflicts).not.toContain("no name in common");
    // Still not the same contract: "by January 31" and "before 2026-02-01T15:00Z" are read as two dates.
    expect(verdict.relation).toBe("related");
  });
});

describe("the labelled set", () => {
  const evaluation = evaluatePairs(labelled);

  it("holds real pairs of every kind, each with where it came from", () => {
    const labels = new Set(labelled.map((pair) => pair.label));
    expect(labels).toEqual(new Set(["same_contract", "related", "different"]));
    expect(labelled.every((pair) => /^(fixture|public|constructed):/.test(pair.source))).toBe(true);
  });

  // Figures in docs/BENCHMARKS.md ("Cross-venue matching"); a wrong pair is worse than a missing one.
  it("is matched with precision of at least 0.9 and recall of at least 0.8, the right way round", () => {
    expect(evaluation.precision).toBeGreaterThanOrEqual(0.9);
    expect(evaluation.recall).toBeGreaterThanOrEqual(0.8);
    expect(evaluation.wrongOrientation).toBe(0);
  });
});
