/**
 * One word on one side that makes the contest another, or asks it the other way round:
 * each real development pair stays the same contract, and the same pair with Kalshi asking
 * of another office, round, measure, half or competition in its title and rules does not;
 * asked in the negative, it is the same contract inverted. These were found by writing such
 * words into every development pair and keeping those still called the same.
 */
import { describe, expect, it } from "vitest";
import { pairOf, pairWithTicker, verdictOf, withKalshi } from "./development-pairs.testing";
import type { LabelledPair } from "./evaluate";
import { comparePair } from "./score";

/** The pair's verdict with Kalshi's title and rule each saying `to` where they say `from`. */
function withKalshiSaying(pair: LabelledPair, from: string | RegExp, to: string) {
  const { title, rules_primary: rules } = pair.kalshi;
  return withKalshi(pair, {
    title: (title ?? "").replace(from, to),
    rules_primary: (rules ?? "").replace(from, to),
  });
}

describe("a word that makes the contest another", () => {
  it("reads an office under another as another office, however it is written", () => {
    const hamawy = pairWithTicker("KXNJPRIMARY-12D26-AHAM");
    expect(verdictOf(hamawy).relation).toBe("same_contract");
    const running = withKalshiSaying(hamawy, "Democratic nominee", "Democratic vice-presidential nominee");
    expect(running.relation).toBe("different");
    expect(running.conflicts.join("; ")).toContain("only Kalshi asks of a vice president");
    const mace = pairWithTicker("KXGOVSCNOMR-26-NMAC");
    expect(verdictOf(mace).relation).toBe("same_contract");
    expect(withKalshiSaying(mace, /Governor(ship)?/, "Lt. Governor").relation).toBe("different");
    // Both sides naming it, in their own words, ask the same.
    const vp = comparePair(
      { ...hamawy.polymarket, question: "Will Adam Hamawy be the Democratic Vice-Presidential nominee for NJ-12?" },
      { ...hamawy.kalshi, title: "Will Adam Hamawy be the Democratic VP nominee for NJ-12?" },
    );
    expect(vp.conflicts.join("; ")).not.toContain("vice president");
  });

  it("reads the first round and the second as two questions", () => {
    const freitas = pairWithTicker("KXBRPRES1R-26OCT04-TFRE");
    expect(verdictOf(freitas).relation).toBe("same_contract");
    const second = withKalshiSaying(freitas, "first round", "second round");
    expect(second.relation).toBe("different");
    expect(second.conflicts.join("; ")).toContain("another round: round 1 (Polymarket) vs round 2 (Kalshi)");
    expect(withKalshiSaying(freitas, "first round", "1st round").relation).toBe("same_contract");
  });

  it("reads winning the popular vote as a term that differs from winning", () => {
    const bolivar = pairWithTicker("KXCOLOMBIAPRES-26-GBOL");
    expect(verdictOf(bolivar).relation).toBe("same_contract");
    const popular = withKalshiSaying(bolivar, /\bwin(?:ner of)?\b/, "win the popular vote in");
    expect(popular.relation).not.toBe("same_contract");
    expect(popular.conflicts).toContain("only Kalshi asks of the popular vote");
  });

  it("reads a women's, club or under-21 competition as another than the one asked", () => {
    const netherlands = pairWithTicker("KXMENWORLDCUP-26-NL");
    expect(verdictOf(netherlands).relation).toBe("same_contract");
    for (const other of ["Women's World Cup", "Club World Cup", "U21 World Cup"]) {
      const verdict = withKalshiSaying(netherlands, "Men's World Cup", other);
      expect(verdict.relation, other).toBe("different");
      expect(verdict.conflicts.join("; "), other).toMatch(/Kalshi asks of a (women|club|u21) competition/);
    }
  });

  it("reads the Eastern and the Western Conference, the American and the National League, the regular season and the playoffs as two", () => {
    const murray = pairWithTicker("KXNBAWFINMVP-26-JMUR");
    expect(verdictOf(murray).relation).toBe("same_contract");
    const east = withKalshi(murray, {
      ticker: "KXNBAEFINMVP-26-JMUR",
      title: "Who will win Eastern Conference Finals MVP?",
      rules_primary: (murray.kalshi.rules_primary ?? "").replace("Western", "Eastern"),
    });
    expect(east.relation).toBe("different");
    expect(east.conflicts).toContain("another half: west (Polymarket) vs east (Kalshi)");
    const marte = pairWithTicker("KXMLBNLHAARON-26-KMAR");
    expect(verdictOf(marte).relation).toBe("same_contract");
    const american = withKalshi(marte, {
      ticker: "KXMLBALHAARON-26-KMAR",
      title: "Will Ketel Marte win AL Hank Aaron Award?",
      rules_primary: (marte.kalshi.rules_primary ?? "").replace("National", "American"),
    });
    expect(american.relation).toBe("different");
    const soto = pairWithTicker("KXLEADERMLBDOUBLES-26-JSOT");
    expect(verdictOf(soto).relation).toBe("same_contract");
    expect(withKalshiSaying(soto, /(?:the )?\d{4}(?: regular)? season/, "the 2026 playoffs").relation).toBe(
      "different",
    );
  });

  it("reads losing, a place behind the winner and pulling out as other acts than winning", () => {
    const netherlands = pairWithTicker("KXMENWORLDCUP-26-NL");
    for (const act of ["loses the final of", "finishes runner-up in", "finishes in the top 4 of", "withdraws from"]) {
      const verdict = withKalshiSaying(netherlands, /\bwins?\b/, act);
      expect(verdict.relation, act).toBe("different");
    }
  });
});

describe("a term one side alone asks", () => {
  it("reads a threshold the other side never states as a term that differs", () => {
    const bolivar = pairWithTicker("KXCOLOMBIAPRES-26-GBOL");
    const margin = withKalshiSaying(bolivar, /\bwin(?:ner of)?\b/, "win by more than 10 points");
    expect(margin.relation).toBe("related");
    expect(margin.conflicts).toContain("only Kalshi asks a threshold: 10");
    const share = withKalshiSaying(bolivar, /\bwin(?:ner of)?\b/, "receive more than 40% of the vote in");
    expect(share.relation).not.toBe("same_contract");
    // A threshold both state is the same term ("Above 4.0%" / "more than 4%").
    const inflation = pairWithTicker("KXHIGHINFLATION-26DEC-T4.0");
    expect(verdictOf(inflation).conflicts.join("; ")).not.toContain("threshold");
  });

  it("reads a chamber's majority leader as another term than its control, and running as no win", () => {
    const control = pairWithTicker("CONTROLS-2026-R");
    expect(verdictOf(control).relation).toBe("same_contract");
    const leader = withKalshi(control, {
      title: "Will a Republican be the Senate Majority Leader after the 2026 midterms?",
      rules_primary:
        "If a member of the Republican Party is the Senate Majority Leader on Jan 3, 2027, then the market resolves to Yes.",
    });
    // Polymarket's rules fall back on who the Majority Leader is: related, not another question.
    expect(leader.relation).toBe("related");
    const elSayed = pairWithTicker("KXSENATEMID-26-AELS");
    expect(verdictOf(elSayed).relation).toBe("same_contract");
    const runs = withKalshi(elSayed, {
      title: "Will Abdul El-Sayed run for the Senate in Michigan?",
      rules_primary:
        "If Abdul El-Sayed files to run for the 2026 Class II Michigan Senate seat, then the market resolves to Yes.",
    });
    expect(runs.relation).toBe("different");
    const whip = withKalshi(elSayed, {
      title: "Will Abdul El-Sayed be the Senate Majority Whip?",
      rules_primary: "If Abdul El-Sayed is the Senate Majority Whip on Jan 3, 2027, then the market resolves to Yes.",
    });
    expect(whip.relation).toBe("different");
    expect(whip.conflicts).toContain("only Kalshi asks of a majority whip");
  });
});

describe("a question asked in the negative", () => {
  it("is the same contract the other way round, however the negative is written", () => {
    const kasky = pairWithTicker("KXNY12D-26-CKAS");
    const asked = verdictOf(kasky);
    expect([asked.relation, asked.orientation]).toEqual(["same_contract", "same"]);
    for (const title of [
      "Will Cameron Kasky not be the Democratic nominee for NY-12?",
      "Will Cameron Kasky fail to win the Democratic nomination for NY-12?",
      "Cameron Kasky won't be the Democratic nominee for NY-12?",
    ]) {
      const verdict = withKalshi(kasky, {
        title,
        rules_primary: (kasky.kalshi.rules_primary ?? "").replace("wins", "does not win"),
      });
      expect([verdict.relation, verdict.orientation], title).toEqual(["same_contract", "inverse"]);
      expect(verdict.reasons, title).toContain("asks the opposite: Kalshi asks in the negative");
    }
  });

  it("reads a “not” of what is asked about, or of a clause inside the question, as no negative", () => {
    // "any territory not under its sovereignty": labelled related, the same way round.
    const territory = pairWithTicker("KXUSAEXPANDTERRITORY-27JAN01");
    expect(verdictOf(territory).orientation).toBe("same");
    const kasky = pairWithTicker("KXNY12D-26-CKAS");
    const clause = withKalshi(kasky, {
      title: "Will Cameron Kasky, who is not the incumbent, be the Democratic nominee for NY-12?",
    });
    expect(clause.orientation).toBe("same");
  });
});

describe("a month's window", () => {
  it("asks less than a window open until the month's end, unless Kalshi's ticker names the month", () => {
    const talk = pairOf(
      "Will Trump talk to Pope Leo XIV in March?",
      "Donald Trump and Pope Leo XIV meet before Apr 1, 2026?",
    );
    // "KXTRUMPMEET-26MAR": the series asks of March, though its text says "before Apr 1, 2026".
    expect(verdictOf(talk).relation).toBe("same_contract");
    const open = withKalshi(talk, {
      ticker: "KXTRUMPMEET-26-PLEO",
    });
    expect(open.relation).toBe("related");
    expect(open.conflicts).toContain(
      "windows differ: from 2026-03-01 (Polymarket) vs until then (Kalshi), both before 2026-04-01",
    );
    // A year's window against a month of it.
    const maxwell = pairWithTicker("KXTRUMPPARDON-27JAN01-GMAX");
    expect(verdictOf(maxwell).relation).toBe("same_contract");
    expect(withKalshiSaying(maxwell, "before Jan 1, 2027", "in December 2026").relation).toBe("related");
  });
});
