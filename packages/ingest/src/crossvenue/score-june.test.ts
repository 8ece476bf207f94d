/**
 * How the venues word one question apart, on real pairs of the June 2026 capture's
 * development pages (`fixtures/crossvenue/SPLIT.md`): each reading beside a counter-case
 * it must keep apart.
 */
import { describe, expect, it } from "vitest";
import { clausesOf } from "./clauses";
import { development, pairWithTicker, verdictOf, withKalshi } from "./development-pairs.testing";
import type { LabelledPair } from "./evaluate";
import { actionsOf, featuresOf } from "./features";
import { comparePair } from "./score";

const june = pairWithTicker;
/** The pair's verdict with Kalshi's rule saying `to` where it says `from`. */
const withKalshiRule = (pair: LabelledPair, from: string, to: string) =>
  withKalshi(pair, { rules_primary: (pair.kalshi.rules_primary ?? "").replace(from, to) });

describe("how the venues name seasons, titles and leagues (June 2026 capture, later development pages)", () => {
  it("names a season by the year it ends in", () => {
    expect(featuresOf("in the 2025-26 season").years).toEqual(new Set([2026]));
    expect(featuresOf("the 2025-2026 PFA Players' Player of the Year").years).toEqual(new Set([2026]));
    // A date is no season.
    expect(featuresOf("Will Saint-Etienne win on 2026-05-29?").years).toEqual(new Set([2026]));
    const fernandes = june("KXPFAPOY-2526-BFER");
    expect(verdictOf(fernandes).relation).toBe("same_contract");
    // The season before is another award.
    expect(withKalshiRule(fernandes, "2025-2026", "2024-2025").relation).not.toBe("same_contract");
  });

  it("dates a Kalshi text that names no year by its event ticker", () => {
    const cadillac = june("KXF1CONSTRUCTORS-26-CAD");
    const verdict = verdictOf(cadillac);
    expect(verdict.relation).toBe("same_contract");
    expect(verdict.reasons).toContain("same year: 2026");
    // "F1" is a name, not the letter F.
    const names = featuresOf("Will Cadillac be the 2026 F1 Constructors' Champion?").entities;
    expect(names).toContain("f1 constructors' champion");
    expect(names).not.toContain("f");
    // Next year's championship is another question.
    const next = comparePair(cadillac.polymarket, { ...cadillac.kalshi, ticker: "KXF1CONSTRUCTORS-27-CAD" });
    expect(next.relation).not.toBe("same_contract");
  });

  it("dates “the next election” by the year its rules expect it, not by their fallback", () => {
    const kiselova = june("KXBULGARIAPRES-26NOV15-NKIS");
    const verdict = verdictOf(kiselova);
    expect(verdict.relation).toBe("same_contract");
    expect(verdict.reasons).toContain("same year: 2026");
    const later = comparePair(
      {
        ...kiselova.polymarket,
        description: (kiselova.polymarket.description ?? "").replace("Fall of 2026", "Fall of 2027"),
      },
      kiselova.kalshi,
    );
    expect(later.relation).not.toBe("same_contract");
  });

  it("reads a division's title holder as its champion", () => {
    const rodriguez = june("KXUFCFEATHERWEIGHTTITLE-26-YROD");
    expect(verdictOf(rodriguez).relation).toBe("same_contract");
    const lighter = withKalshi(rodriguez, {
      title: "Who will be the Lightweight Title Holder on Dec 31, 2026?",
      rules_primary:
        "If Yair Rodriguez is the UFC Lightweight Title Holder on Dec 31, 2026 at 12:00 PM ET, then the market resolves to Yes.",
    });
    expect(lighter.relation).not.toBe("same_contract");
  });

  it("reads a game by its teams and day, whatever competition Kalshi's template names", () => {
    const nice = june("KXLIGUE1GAME-26MAY29NICSTE-STE");
    expect(verdictOf(nice).relation).toBe("same_contract");
    expect(withKalshiRule(nice, "May 29, 2026", "May 30, 2026").relation).not.toBe("same_contract");
  });

  it("reads an award without its word Award, a club without its FC, a party without its initials", () => {
    for (const ticker of ["KXMLBALMVP-26-RWIT", "KXMLSCUP-26-NYC", "KXMN2D-26-KBER"]) {
      expect(verdictOf(june(ticker)).relation, ticker).toBe("same_contract");
    }
    const witt = june("KXMLBALMVP-26-RWIT");
    const national = withKalshi(witt, {
      title: "Will Bobby Witt Jr. win NL MVP?",
      rules_primary:
        "If Bobby Witt Jr. wins the Pro Baseball National League MVP in the 2026 season, then the market resolves to Yes.",
    });
    expect(national.relation).not.toBe("same_contract");
  });

  it("reads a team written as its city and initial as the team, and no other", () => {
    const mets = june("KXMLBNLEAST-26-NYM");
    const verdict = verdictOf(mets);
    expect(verdict.conflicts.join("; ")).not.toContain("different subjects");
    expect(verdict.relation).not.toBe("different");
    const yankees = withKalshi(mets, {
      title: "Will New York Y be the 2026 NL East Division Winner",
      yes_sub_title: "New York Y",
      rules_primary: (mets.kalshi.rules_primary ?? "").replaceAll("New York M", "New York Y"),
    });
    expect(yankees.relation).toBe("different");
  });

  it("reads a country's people as the country, and a league's initials as its name", () => {
    const malta = june("KXMALTAPARLI-26MAY30-NAT");
    expect(verdictOf(malta).relation).toBe("same_contract");
    const cyprus = withKalshi(malta, {
      title: "Will Nationalist Party win the 2026 Cyprus House of Representatives election?",
      rules_primary:
        "If the Nationalist Party wins the 2026 Cyprus House of Representatives election, then the market resolves to Yes.",
    });
    expect(cyprus.relation).not.toBe("same_contract");
    // "Major League Baseball" in Polymarket's rule; "Pro Baseball" (MLB) in Kalshi's.
    const soto = june("KXLEADERMLBDOUBLES-26-JSOT");
    expect(verdictOf(soto).relation).toBe("same_contract");
  });

  it("reads who holds an office on a day as taking it, and an interim governor left out as no widening", () => {
    expect(
      clausesOf("If Marco Rubio officially holds the position of the head of state of Venezuela on Dec 31, 2026")
        .office,
    ).toBe("taking office");
    const azevedo = june("KXMINASGOV-26OCT04-GAZE");
    expect(clausesOf(azevedo.polymarket.description ?? "").sharedRole).toBe("does not count");
    expect(verdictOf(azevedo).relation).toBe("same_contract");
  });
});

describe("how the venues word one act and one party apart (June 2026 capture, development pages)", () => {
  it("settles the act where both rules state one condition, and not where a question's own word differs", () => {
    const rubio = june("KXVENEZUELALEADER-26DEC31-MRUB");
    const verdict = verdictOf(rubio);
    expect(verdict.relation).toBe("same_contract");
    expect(verdict.reasons.some((reason) => reason.startsWith("the rules' conditions say the same"))).toBe(true);
    const government = withKalshi(rubio, {
      title: "Will Marco Rubio be the head of government of Venezuela on Dec 31, 2026?",
      rules_primary:
        "If Marco Rubio officially holds the position of the head of government of Venezuela on Dec 31, 2026 at 10:00 AM ET, then the market resolves to Yes.",
    });
    expect(government.relation).not.toBe("same_contract");
  });

  it("reads a word past its ending, and “this year” as the window", () => {
    for (const ticker of ["KXNBADRAFT1-26-CBOO", "KXNBADRAFTPICK-26-4-CWIL", "KXTOPARTIST-26B-KEN"]) {
      expect(verdictOf(june(ticker)).relation, ticker).toBe("same_contract");
    }
    const wilson = june("KXNBADRAFTPICK-26-4-CWIL");
    const fifth = withKalshi(wilson, {
      title: "Will Caleb Wilson be picked 5th in the Pro Basketball Draft?",
      rules_primary:
        "If Caleb Wilson is selected as the 5th overall pick in the 2026 Pro Basketball Draft, then the market resolves to Yes.",
    });
    expect(fifth.relation).not.toBe("same_contract");
  });

  it("reads appearing, performing and being featured as one act, and mentioning as another", () => {
    const gcr = june("KXUPONLY-01-GCR");
    expect(verdictOf(gcr).relation).toBe("same_contract");
    const mention = withKalshi(gcr, {
      title: "Will GCR be mentioned on UpOnly Podcast before Jan 2027?",
      rules_primary: "If GCR is mentioned on the UpOnly Podcast before Jan 1, 2027, then the market resolves to Yes.",
    });
    expect(mention.relation).not.toBe("same_contract");
  });

  it("reads finals won as the title they decide, and a series' league from Kalshi's ticker", () => {
    const montreal = june("KXNHLEAST-26-MTL");
    expect(verdictOf(montreal).relation).toBe("same_contract");
    const reach = withKalshi(montreal, {
      title: "Will Montreal Canadiens reach the Eastern Conference Finals?",
      rules_primary: "If Montreal Canadiens reach the Eastern Conference Finals, then the market resolves to Yes.",
    });
    expect(reach.relation).not.toBe("same_contract");
    const semifinal = withKalshi(montreal, {
      title: "Eastern Conference Semifinals Winner?",
      rules_primary: "If Montreal Canadiens wins the Eastern Conference Semifinals, then the market resolves to Yes.",
    });
    expect(semifinal.relation).not.toBe("same_contract");
    // The same words in a basketball series are another league's conference.
    expect(withKalshi(montreal, { ticker: "KXNBAEAST-26-MTL" }).relation).not.toBe("same_contract");
    // A law's "Title VII" is no title won.
    expect(actionsOf("legislation that reauthorizes FISA Title VII")).not.toContain("win");
    const reds = june("KXMLBNL-26-CIN");
    expect(verdictOf(reds).relation).toBe("same_contract");
    const american = withKalshi(reds, {
      title: "Will Cincinnati win the 2026 Pro Baseball American League Championship?",
      rules_primary:
        "If Cincinnati win the 2026 Pro Baseball American League Championship, then the market resolves to Yes.",
    });
    expect(american.relation).not.toBe("same_contract");
  });

  it("reads the NFL's championship by any of its names, and a team by its city and initial alone", () => {
    const rams = june("KXSB-27-LAR");
    expect(verdictOf(rams).relation).toBe("same_contract");
    const chargers = withKalshi(rams, {
      ticker: "KXSB-27-LAC",
      title: "Will Los Angeles C win the 2027 Pro Football Championship?",
      yes_sub_title: "Los Angeles C",
      rules_primary: "If Los Angeles C wins the 2027 Pro Football Championship, then the market resolves to Yes.",
    });
    expect(chargers.relation).toBe("different");
  });

  it("reads announcing an act as the act where the other rule takes an announcement as enough", () => {
    const cursor = june("KXACQANNOUNCESPACEX-27JAN01");
    expect(verdictOf(cursor).relation).toBe("same_contract");
    const completed = comparePair(
      {
        ...cursor.polymarket,
        description:
          'This market will resolve to "Yes" if SpaceX completes its acquisition of Cursor by December 31, 2026, 11:59 PM ET. Announcements alone will not qualify. Otherwise, this market will resolve to "No".',
      },
      cursor.kalshi,
    );
    expect(completed.relation).not.toBe("same_contract");
  });

  it("reads who de facto holds an office's powers on a day as holding it", () => {
    expect(
      clausesOf("the individual who de facto holds and exercises the powers of the head of state of Venezuela").office,
    ).toBe("taking office");
    const cabello = june("KXVENEZDEFACTO-27JAN01-DCAB");
    expect(verdictOf(cabello).relation).toBe("same_contract");
  });

  it("settles an award's window by its year where neither text names a deadline, and reads a letter alone as no name", () => {
    // Polymarket ends 11 days after Kalshi closes; both name the 2026 award and no deadline.
    const painter = june("KXMLBNLROTY-26-APAI");
    expect(verdictOf(painter).relation).toBe("same_contract");
    const nextSeason = withKalshi(painter, {
      rules_primary: (painter.kalshi.rules_primary ?? "").replace("2026 season", "2027 season"),
    });
    expect(nextSeason.relation).not.toBe("same_contract");
    // Winning the cup is not finishing first in a group, whenever each closes: "Group G" is
    // not said by the "e.g." of Polymarket's rule.
    const belgium = development.find(
      (pair) => pair.kalshi.ticker === "KXWCGROUPWIN-26G-BEL" && pair.polymarket.question.includes("World Cup?"),
    ) as LabelledPair;
    const sameClose = withKalshi(belgium, { close_time: belgium.polymarket.endDate, expected_expiration_time: null });
    expect(sameClose.relation).not.toBe("same_contract");
    expect(sameClose.conflicts.join("; ")).toContain("group g");
  });

  it("reads qualifying from a group as advancing to the knockout stage, and winning it as another question", () => {
    const jordan = june("KXWCGROUPQUAL-26J-JOR");
    expect(verdictOf(jordan).relation).toBe("same_contract");
    const first = withKalshi(jordan, {
      ticker: "KXWCGROUPWIN-26J-JOR",
      title: "Will Jordan finish first in World Cup Group J?",
      rules_primary: "If Jordan finish first in Group J in the 2026 FIFA World Cup, then the market resolves to Yes.",
    });
    expect(first.relation).not.toBe("same_contract");
  });

  it("reads a district's code as its state, and a primary as its election", () => {
    const jones = june("KXCA04PRIMARY-26-EJON");
    expect(verdictOf(jones).relation).toBe("same_contract");
    const newYork = withKalshi(jones, {
      ticker: "KXNY04PRIMARY-26-EJON",
      title: "Who will advance from the 2026 NY-04 primary?",
      rules_primary: (jones.kalshi.rules_primary ?? "").replace("CA-04", "NY-04"),
    });
    expect(newYork.relation).not.toBe("same_contract");
  });

  it("reads the midterms as the election their year dates, not as a subject", () => {
    const senate = june("CONTROLS-2026-R");
    expect(verdictOf(senate).relation).toBe("same_contract");
    const house = withKalshi(senate, {
      ticker: "CONTROLH-2026-R",
      title: "Will Republicans win the U.S. House in 2026?",
      rules_primary: (senate.kalshi.rules_primary ?? "").replaceAll("Senate", "House"),
    });
    expect(house.relation).not.toBe("same_contract");
  });

  it("reads a party by the initials the other side writes, and no other party", () => {
    const caq = june("KXQUEBECASSEMBLY-26OCT05-CAQ");
    expect(verdictOf(caq).relation).toBe("same_contract");
    const pq = withKalshi(caq, {
      ticker: "KXQUEBECASSEMBLY-26OCT05-PQ",
      title: "Will PQ win the 2026 Quebec National Assembly election?",
      rules_primary: "If the PQ wins the 2026 Quebec National Assembly election, then the market resolves to Yes.",
    });
    expect(pq.relation).not.toBe("same_contract");
    expect(pq.conflicts.join("; ")).toContain("pq");
    // A name glossed by its initials ("the Ecologist Green Party of Mexico (PVEM)") is the
    // party Kalshi names by them, and "Mexico" the country of "the Mexican Chamber".
    const pvem = june("KXMEXICODEPUTIES-27-PVEM");
    expect(verdictOf(pvem).conflicts).toEqual([]);
    const pan = withKalshi(pvem, {
      ticker: "KXMEXICODEPUTIES-27-PAN",
      yes_sub_title: "PAN",
      rules_primary: (pvem.kalshi.rules_primary ?? "").replaceAll("PVEM", "PAN"),
    });
    expect(pan.relation).not.toBe("same_contract");
    expect(pan.conflicts.join("; ")).toContain("pan");
  });

  it("reads a name from another alphabet in either spelling, and another candidate as another", () => {
    const iotova = june("KXBULGARIAPRES-26NOV15-IYOT");
    expect(verdictOf(iotova).relation).toBe("same_contract");
    const kiselova = june("KXBULGARIAPRES-26NOV15-NKIS");
    const other = comparePair(iotova.polymarket, kiselova.kalshi);
    expect(other.relation).toBe("different");
    expect(other.conflicts.join("; ")).toContain("about different subjects");
    // One letter more is another name, not another spelling.
    const liliana = withKalshi(iotova, {
      title: "Will Iliana Lotova win the 2026 Bulgarian presidential election?",
      yes_sub_title: "Iliana Lotova",
      rules_primary: "If Iliana Lotova wins the 2026 Bulgarian presidential election, then the market resolves to Yes.",
    });
    expect(liliana.relation).not.toBe("same_contract");
  });
});
