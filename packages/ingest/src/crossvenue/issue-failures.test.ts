import { describe, expect, it } from "vitest";
import { pairWithIds } from "./development-pairs.testing";
import { actionsOf, deadlineOf, featuresOf } from "./features";
import { comparePair, type KalshiSide, type PolymarketSide } from "./score";

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
    const pair = pairWithIds(polymarketId, ticker);
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
