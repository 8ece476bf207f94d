import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { clausesOf } from "./clauses";
import { evaluatePairs, LABELLED_FILES, type LabelledPair } from "./evaluate";
import { actionsOf, comparatorsOf, deadlineOf, featuresOf } from "./features";
import { comparePair, type KalshiSide, type PolymarketSide } from "./score";

const read = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`../../../../fixtures/crossvenue/${name}`, import.meta.url), "utf8"),
  ) as LabelledPair[];
const labelled = read("labelled-pairs.json");
/** Development pairs only: the test part is never read to shape the matcher. */
const development = LABELLED_FILES.development.flatMap(read);
const pairOf = (question: string, kalshiTitle: string) => {
  const pair = development.find(
    (candidate) => candidate.polymarket.question === question && candidate.kalshi.title === kalshiTitle,
  );
  if (!pair) throw new Error(`no development pair ${question} / ${kalshiTitle}`);
  return pair;
};

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

describe("what each market asks, read in parts (issue 25, on real objects of the development part)", () => {
  it("reads whether a threshold's own value counts, however it is said", () => {
    expect(comparatorsOf("Will the DHS shutdown last 60 days or more?").get(60)).toBe(">=");
    expect(comparatorsOf("shut down for at least 70 days").get(70)).toBe(">=");
    expect(comparatorsOf("a 7-day moving average equal to or above 60 for any date").get(60)).toBe(">=");
    expect(comparatorsOf("is above 60 before May 1, 2026").get(60)).toBe(">");
    expect(comparatorsOf("approval rating be less than 40.0 on March 27").get(40)).toBe("<");
    expect(comparatorsOf("Will FISA Section 702 reauthorization become law").has(702)).toBe(false);
  });

  it("keeps a threshold that counts its edge apart from one that does not (IMF PortWatch, Hormuz)", () => {
    const hormuz = development.find(
      (pair) => pair.polymarket.id === "1540766" && pair.kalshi.ticker === "KXHORMUZNORM-26MAR17-B260501",
    ) as LabelledPair;
    const verdict = comparePair(hormuz.polymarket, hormuz.kalshi);
    expect(verdict.conflicts).toContain("the edge differs: >= 60 (Polymarket) vs > 60 (Kalshi)");
    expect(verdict.relation).toBe("related");
    // Said the same way on both sides, the edge is no difference.
    const alike = comparePair(hormuz.polymarket, {
      ...hormuz.kalshi,
      rules_primary: (hormuz.kalshi.rules_primary ?? "").replace("is above 60", "is equal to or above 60"),
    });
    expect(alike.conflicts.join("; ")).not.toContain("the edge differs");
  });

  it("reads a deadline however it is said, and a year in it as a deadline, not the year asked about", () => {
    expect(deadlineOf("Will Trump meet with Xi Jinping in 2026?").end).toBe("2027-01-01");
    expect(deadlineOf("Will Donald Trump meet in person Xi Jinping before Jan 1, 2027?").end).toBe("2027-01-01");
    expect(deadlineOf("Will JD Vance enter Iran by June 30?", 2026).end).toBe("2026-07-01");
    expect(deadlineOf("US congress stock trading ban before 2027?").end).toBe("2027-01-01");
    expect(deadlineOf("Resolves Yes if it happens on or before June 30, 2026.").end).toBe("2026-07-01");
    // "before Jan 1" with the year asked about named elsewhere: the end of that year.
    expect(deadlineOf("Will it happen before Jan 1?", 2026).end).toBe("2027-01-01");
    const sameYear = pairOf(
      "Will Trump meet with Xi Jinping in 2026?",
      "Will Donald Trump meet in person Xi Jinping before Jan 1, 2027?",
    );
    const verdict = comparePair(sameYear.polymarket, sameYear.kalshi);
    expect(verdict.relation).toBe("same_contract");
    expect(verdict.reasons).toContain("same deadline: before 2027-01-01");
  });

  it("compares the act asked of a shared name (failure 1)", () => {
    const pair = pairOf("Elon Musk trillionaire before 2027?", "Will Elon Musk win Musk v. Altman et al?");
    const verdict = comparePair(pair.polymarket, pair.kalshi);
    expect(verdict.relation).toBe("different");
    expect(verdict.conflicts.join("; ")).toContain("asks something else: wealth (Polymarket) vs win (Kalshi)");
  });

  it("sees a party one question names and the other never does, however alike their words", () => {
    const pair = pairOf(
      "Israel and Saudi Arabia normalize relations before 2027?",
      "Will Israel and Lebanon normalize relations before Jan 1, 2027?",
    );
    const verdict = comparePair(pair.polymarket, pair.kalshi);
    expect(verdict.relation).not.toBe("same_contract");
    expect(verdict.conflicts).toContain("only Kalshi names lebanon");
  });

  it("reads settlement clauses in both rules, Kalshi's rules_secondary included (failure 3)", () => {
    // Kalshi settles a death at the last traded price; Polymarket counts any way out.
    const khamenei = pairOf(
      "Khamenei out as Supreme Leader of Iran by January 31?",
      "Will Ali Khamenei leave office before 2026-02-01T15:00:00.000Z?",
    );
    const death = comparePair(khamenei.polymarket, khamenei.kalshi);
    expect(death.relation).toBe("related");
    expect(death.conflicts.join("; ")).toContain(
      "whether leaving by death counts: counts (Polymarket) vs does not count (Kalshi)",
    );
    // Kalshi counts a phone call as a meeting; Polymarket asks for one in person.
    const meeting = pairOf(
      "Will Trump meet with Xi Jinping in March 2026?",
      "Donald Trump and Xi Jinping meet before Apr 1, 2026?",
    );
    const call = comparePair(meeting.polymarket, meeting.kalshi);
    expect(call.relation).toBe("related");
    expect(call.conflicts.join("; ")).toContain(
      "what counts as a meeting: in person (Polymarket) vs remote counts (Kalshi)",
    );
    expect(clausesOf("If Donald Trump and Xi Jinping meet (including phone calls) before Apr 1, 2026").meeting).toBe(
      "remote counts",
    );
  });

  it("turns the orientation for a question asked the other way round, and keeps it once turned twice", () => {
    const putin = pairOf(
      "Will Putin remain President of Russia through June?",
      "Will Vladimir Putin leave President of Russia before Jan 1, 2027?",
    );
    const verdict = comparePair(putin.polymarket, putin.kalshi);
    expect(verdict.orientation).toBe("inverse");
    expect(verdict.reasons.join("; ")).toContain("asks the opposite: remain (Polymarket) vs leave (Kalshi)");
    // Another deadline: related, never the same contract.
    expect(verdict.relation).toBe("related");
    // A market whose first outcome is No, asking the other way round: turned twice, the same side.
    const flipped = comparePair({ ...putin.polymarket, outcomes: ["No", "Yes"] }, putin.kalshi);
    expect(flipped.orientation).toBe("same");
  });

  it("takes the market's own rule over the series' general terms", () => {
    const general =
      "A qualifying meeting must satisfy the following: both persons must be present (physically or virtually, as specified).";
    expect(clausesOf("If Donald Trump and Xi Jinping meet in person after Issuance", general).meeting).toBe(
      "in person",
    );
  });

  it("counts a clause that widens yes on one side only as a difference: the other side's silence is the narrower reading", () => {
    // Kalshi pays on a member who "announces they will leave"; Polymarket's rule says nothing
    // of announcements, so only a departure counts there.
    const cabinet = pairOf(
      "Will no one leave the Trump Cabinet before 2027?",
      "Will any member of Trump's Cabinet leave before Jan 2027?",
    );
    const verdict = comparePair(cabinet.polymarket, cabinet.kalshi);
    expect(verdict.conflicts).toContain("whether an announcement is enough: not said (Polymarket) vs enough (Kalshi)");
    expect(verdict.relation).not.toBe("same_contract");
    // Silence on both sides is no difference.
    const silent = comparePair(cabinet.polymarket, { ...cabinet.kalshi, rules_primary: "", rules_secondary: "" });
    expect(silent.conflicts.join("; ")).not.toContain("whether an announcement is enough");
  });
});

/**
 * The six failures issue 25 saw, on markets as it quotes them (titles, subtitles and the
 * gist of each rule; the 2024 objects themselves are not in any public dump found).
 */
describe("the failures issue 25 names, each on the markets it quotes", () => {
  const polymarket = (question: string, description: string, extra: Partial<PolymarketSide> = {}): PolymarketSide => ({
    id: "pm",
    question,
    groupItemTitle: null,
    outcomes: ["Yes", "No"],
    endDate: "2024-12-31T12:00:00Z",
    description,
    eventTitle: question,
    ...extra,
  });
  const kalshi = (title: string, rules: string, extra: Partial<KalshiSide> = {}): KalshiSide => ({
    ticker: "KX-1",
    title,
    yes_sub_title: null,
    close_time: "2024-12-31T15:00:00Z",
    rules_primary: rules,
    rules_secondary: "",
    eventTitle: title,
    ...extra,
  });

  it("1. a shared name and close date are not the same contract: the act asked is compared", () => {
    const cases: Array<[PolymarketSide, KalshiSide, string]> = [
      [
        polymarket(
          "Taylor Swift pregnant in 2024?",
          'This market will resolve to "Yes" if Taylor Swift is confirmed to be pregnant by December 31, 2024, 11:59 PM ET.',
        ),
        kalshi("", "If Taylor Swift is named TIME Person of the Year for 2024, then the market resolves to Yes.", {
          yes_sub_title: "Taylor Swift",
          eventTitle: "Who will be TIME's Person of the Year in 2024?",
        }),
        "asks something else: pregnant (Polymarket) vs honour (Kalshi)",
      ],
      [
        polymarket(
          "Zuckerberg out as Meta CEO in 2024?",
          'This market will resolve to "Yes" if Mark Zuckerberg ceases to be the CEO of Meta by December 31, 2024, 11:59 PM ET.',
        ),
        kalshi(
          "Richest person on Dec 31: Mark Zuckerberg",
          "If Mark Zuckerberg is the richest person in the world on Dec 31, 2024 according to Bloomberg Billionaires Index, then the market resolves to Yes.",
        ),
        "asks something else: leave (Polymarket) vs wealth (Kalshi)",
      ],
      [
        polymarket(
          "Adam Neumann buys back WeWork?",
          'This market will resolve to "Yes" if Adam Neumann acquires WeWork by December 31, 2024, 11:59 PM ET.',
        ),
        kalshi(
          "Neumann announced as WeWork CEO",
          "If Adam Neumann is announced as CEO of WeWork before Jan 1, 2025, then the market resolves to Yes.",
        ),
        "asks something else: acquire (Polymarket) vs announce (Kalshi)",
      ],
    ];
    for (const [p, k, conflict] of cases) {
      const verdict = comparePair(p, k);
      expect(verdict.relation, p.question).toBe("different");
      expect(verdict.conflicts).toContain(conflict);
    }
  });

  it("2. a threshold resolved from another source is related, never the same contract", () => {
    const verdict = comparePair(
      polymarket(
        "Bitcoin reach $100k in December?",
        'This market will resolve to "Yes" if any Binance 1 minute candle for BTC/USDT between December 2, 2024 and December 31, 2024, 11:59 PM ET has a final "High" price of $100,000 or higher.',
      ),
      kalshi(
        "BTC above $100k in 2024",
        "If the CF Benchmarks Bitcoin Real-Time Index (BRTI) is above 100000 on any day before Jan 1, 2025, then the market resolves to Yes.",
        { floor_strike: 100_000 },
      ),
    );
    expect(verdict.relation).toBe("related");
    expect(verdict.reasons).toContain("same number: $100,000");
    expect(verdict.conflicts).toContain("resolution sources differ: Binance vs CF Benchmarks");
  });

  it("3. settlement clauses in rules_secondary: joint winners and what a ban is", () => {
    const joint = comparePair(
      polymarket(
        "Will Donald Trump be named TIME Person of the Year 2024?",
        'This market will resolve to "Yes" if Donald Trump is named TIME Person of the Year for 2024. If multiple people are named, the first listed person will be used.',
        { groupItemTitle: "Donald Trump" },
      ),
      kalshi(
        "TIME Person of the Year: Donald Trump",
        "If Donald Trump is named TIME Person of the Year for 2024, then the market resolves to Yes.",
        {
          yes_sub_title: "Donald Trump",
          rules_secondary:
            "If multiple people are named jointly as Person of the Year, the market resolves to Yes for all named people.",
        },
      ),
    );
    expect(joint.relation).toBe("related");
    expect(joint.conflicts).toContain("how joint winners count: first listed (Polymarket) vs all count (Kalshi)");
    const ban = comparePair(
      polymarket(
        "TikTok banned in the US before May 2025?",
        'This market will resolve to "Yes" if TikTok is banned in the US by April 30, 2025, 11:59 PM ET.',
        { endDate: "2025-04-30T12:00:00Z" },
      ),
      kalshi(
        "Will TikTok be banned before May 1, 2025?",
        "If TikTok is banned in the United States before May 1, 2025, then the market resolves to Yes.",
        {
          close_time: "2025-04-30T14:00:00Z",
          rules_secondary: "A ban means TikTok is removed from the Apple App Store and Google Play Store in the US.",
        },
      ),
    );
    expect(ban.relation).toBe("related");
    expect(ban.reasons).toContain("same deadline: before 2025-05-01");
    expect(ban.conflicts).toContain(
      "what counts as a ban: not defined (Polymarket) vs removed from app stores (Kalshi)",
    );
  });

  it("4. text: a title is not a stage, a year after 'before' is a deadline, a name after 'Will' is a name", () => {
    expect(actionsOf("Will Final Fantasy 7 Rebirth win Game of the Year?")).toEqual(new Set(["win"]));
    expect(actionsOf("Will Spain reach the World Cup Final?")).toContain("stage");
    expect(deadlineOf("TikTok banned in the US before May 2025?").end).toBe("2025-05-01");
    expect(deadlineOf("Will it happen before 2025?").end).toBe("2025-01-01");
    expect([...featuresOf("Will Israel reopen its embassy in Iran in 2026?").entities]).toContain("israel");
    // A single-word outcome against a whole question: the outcome is the subject.
    const oppenheimer = comparePair(
      polymarket(
        "Will Oppenheimer win Best Picture?",
        'This market will resolve to "Yes" if Oppenheimer wins Best Picture at the 96th Academy Awards.',
        {
          groupItemTitle: "Oppenheimer",
          endDate: "2024-03-10T12:00:00Z",
        },
      ),
      kalshi("", "If Oppenheimer wins Best Picture at the 2024 Oscars, then the market resolves to Yes.", {
        yes_sub_title: "Oppenheimer",
        eventTitle: "Oscar for Best Picture?",
        // 6. Kalshi's close is a backstop 342 days on; the expected settlement is the night of the awards.
        close_time: "2025-02-14T15:00:00Z",
        expected_expiration_time: "2024-03-11T04:00:00Z",
      }),
    );
    expect(oppenheimer.relation).toBe("same_contract");
    expect(oppenheimer.reasons).toContain('same outcome: "Oppenheimer" / "Oppenheimer"');
    expect(oppenheimer.reasons).toContain("they close the same day");
  });

  it("5. a nested Kalshi market without a title asks its event's question", () => {
    const verdict = comparePair(
      polymarket(
        "Will Oppenheimer win Best Picture?",
        "Resolves Yes if Oppenheimer wins Best Picture at the 2024 Oscars.",
        {
          groupItemTitle: "Oppenheimer",
          endDate: "2024-03-10T12:00:00Z",
        },
      ),
      kalshi("", "If Barbie wins Best Picture at the 2024 Oscars, then the market resolves to Yes.", {
        yes_sub_title: "Barbie",
        eventTitle: "Oscar for Best Picture?",
        expected_expiration_time: "2024-03-11T04:00:00Z",
      }),
    );
    expect(verdict.relation).toBe("different");
    expect(verdict.conflicts).toContain('outcomes differ: "Oppenheimer" vs "Barbie"');
  });

  it("never calls a pair the same contract while a part is unsettled, and says which", () => {
    const verdict = comparePair(
      polymarket("Will the ceasefire hold?", "Resolves Yes if the ceasefire holds.", { endDate: null }),
      kalshi("Will the ceasefire hold?", "If the ceasefire holds, then the market resolves to Yes.", {
        close_time: null,
      }),
    );
    expect(verdict.conflicts).toEqual([]);
    expect(verdict.relation).toBe("related");
    expect(verdict.unsettled).toEqual(["the window: no deadline or close date read on both sides"]);
  });
});

/** The same failures where the development part holds public objects of the kind (SPLIT.md). */
describe("the failures issue 25 names, again on public objects", () => {
  const pairWith = (polymarketId: string, ticker: string) => {
    const pair = development.find(
      (candidate) => candidate.polymarket.id === polymarketId && candidate.kalshi.ticker === ticker,
    );
    if (!pair) throw new Error(`no development pair ${polymarketId} / ${ticker}`);
    return { pair, verdict: comparePair(pair.polymarket, pair.kalshi) };
  };

  it("1. one person, the same window, another act: recognised as Iran's leader, visiting Iran, meeting Trump", () => {
    for (const [ticker, conflict] of [
      ["KXPAHLAVIVISITA-27JAN01", "asks something else: recognise (Polymarket) vs travel (Kalshi)"],
      ["KXTRUMPMEETING-27JAN01-DJTRPAH", "asks something else: recognise (Polymarket) vs meet (Kalshi)"],
    ] as const) {
      const { pair, verdict } = pairWith("1115288", ticker);
      expect(pair.label).toBe("different");
      expect(verdict.relation, ticker).toBe("different");
      expect(verdict.conflicts).toContain(conflict);
    }
  });

  it("3. settlement clauses: Kalshi's death carve-out in rules_secondary keeps Xi's departure related", () => {
    const { pair, verdict } = pairWith("559651", "KXLEADERSOUT-27JAN01-XJINCHI");
    expect(pair.kalshi.rules_secondary).toMatch(/death/i);
    expect(verdict.relation).toBe("related");
    expect(verdict.conflicts).toContain(
      "whether leaving by death counts: counts (Polymarket) vs does not count (Kalshi)",
    );
  });

  it("6. a backstop close two years after the final is read by the expected settlement: the World Cup", () => {
    const { pair, verdict } = pairWith("558934", "KXMENWORLDCUP-26-ES");
    expect(pair.kalshi.close_time?.slice(0, 4)).toBe("2028");
    expect(verdict.relation).toBe("same_contract");
    expect(verdict.reasons).toContain("they close the same day");
  });
});

describe("the scorer's remembered readings", () => {
  it("scores every development pair the same when its texts are read a second time", () => {
    // A pass meets each market with up to eight candidates: a reading one comparison
    // changed would change the next one's verdict.
    const score = () => development.map((pair) => comparePair(pair.polymarket, pair.kalshi));
    const first = score();
    expect(score()).toEqual(first);
    expect(first.filter((verdict) => verdict.relation === "same_contract").length).toBeGreaterThan(10);
  });
});
