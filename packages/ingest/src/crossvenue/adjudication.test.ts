import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type Adjudicator, judgementPrompt, needsJudgement, quoteProblem } from "./adjudication";
import { evaluatePairs, evaluateWithAdjudicator, type LabelledPair } from "./evaluate";
import { comparePair } from "./score";

/** Development pairs only: the test part is never read to shape the matcher. */
const development = JSON.parse(
  readFileSync(new URL("../../../../fixtures/crossvenue/labelled-pairs.json", import.meta.url), "utf8"),
) as LabelledPair[];

/** A model that answers every pair the same way, quoting the first words of each rule. */
function answering(relation: "same_contract" | "related" | "different", quote: (rules: string) => string): Adjudicator {
  return {
    model: "scripted",
    async judge({ prompt }) {
      const rules = [...prompt.matchAll(/^(?:Rules|Further rules): (.*)$/gm)].map((match) => match[1] ?? "");
      return {
        relation,
        orientation: relation === "different" ? null : "same",
        differing_part: relation === "same_contract" ? null : "the rules",
        polymarket_quote: quote(rules[0] ?? ""),
        kalshi_quote: quote(rules[1] ?? ""),
      };
    },
  };
}

describe("the adjudicator's part", () => {
  const pair = development.find((candidate) => candidate.label === "same_contract" && candidate.kalshi.rules_primary);
  if (!pair) throw new Error("no same-contract development pair with rules");
  const verdict = comparePair(pair.polymarket, pair.kalshi);

  it("asks about pairs with nothing differing, and gives the model both questions and both rules whole", () => {
    expect(needsJudgement(verdict)).toBe(true);
    expect(needsJudgement({ ...verdict, conflicts: ["numbers differ"] })).toBe(false);
    const prompt = judgementPrompt({ ...pair, verdict });
    expect(prompt).toContain(`Question: ${pair.polymarket.question}`);
    expect(prompt).toContain(`Rules: ${pair.polymarket.description}`);
    expect(prompt).toContain(`Rules: ${pair.kalshi.rules_primary}`);
  });

  it("uses an answer only when each quote stands in its own side's rules", () => {
    const answer = {
      relation: "related" as const,
      orientation: "same" as const,
      differing_part: "the source",
      polymarket_quote: (pair.polymarket.description ?? "").slice(0, 40).toUpperCase(),
      kalshi_quote: (pair.kalshi.rules_primary ?? "").slice(0, 40),
    };
    // Case and spacing aside, both are in the rules.
    expect(quoteProblem(answer, pair.polymarket, pair.kalshi)).toBeUndefined();
    expect(quoteProblem({ ...answer, kalshi_quote: "words no rule says" }, pair.polymarket, pair.kalshi)).toBe(
      "the Kalshi quote is not in its rules",
    );
    expect(quoteProblem({ ...answer, polymarket_quote: answer.kalshi_quote }, pair.polymarket, pair.kalshi)).toBe(
      "the Polymarket quote is not in its rules",
    );
  });

  it("is measured on the labelled pairs: its used answers change the figures, its unusable ones do not", async () => {
    const alone = evaluatePairs(development);
    const refusing = await evaluateWithAdjudicator(
      development,
      answering("different", (rules) => rules.slice(0, 30)),
    );
    expect(refusing.asked).toBeGreaterThan(0);
    expect(refusing.used).toBe(refusing.asked);
    // Every pair it was asked about is now "different": no same contract is left to find.
    expect(refusing.truePositives).toBe(0);
    expect(refusing.falsePositives).toEqual([]);
    const misquoting = await evaluateWithAdjudicator(
      development,
      answering("different", () => "a quote in no rule"),
    );
    expect(misquoting.used).toBe(0);
    expect([misquoting.precision, misquoting.recall]).toEqual([alone.precision, alone.recall]);
  });
});
