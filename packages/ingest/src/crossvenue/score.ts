/**
 * Whether a Polymarket market and a Kalshi market are the same contract, in an answer a
 * person can check: a score from 0 to 1 built from named parts (shared words, shared
 * names, close dates, numbers), the reasons in words, and the conflicts that rule out
 * "the same contract" whatever the score — a threshold, a date, a year or a resolution
 * source that differs. Title similarity alone is known to pair markets that are not the
 * same contract (the same question at another strike or date), so a conflict makes the
 * pair `related` at best: a wrong pair is worse than a missing one.
 *
 * Pure: the labelled set in `fixtures/crossvenue/` measures it without an engine.
 */

import { type Clauses, clausesOf } from "./clauses";
import { compareOffices, comparePopularVote, compareRounds, compareSides, compareThresholds } from "./compare-contest";
import {
  type Conflicts,
  compareClauses,
  compareConditions,
  compareSubjects,
  compareWording,
  conditionOf,
  initialsAsSaidIn,
  otherQuestion,
  sameCondition,
} from "./compare-parts";
import {
  actionsOf,
  type Comparator,
  comparatorsOf,
  featuresOf,
  isNegated,
  type Quantity,
  remembered,
  sourcesOf,
  type TextFeatures,
} from "./features";
import { statesOfDistricts } from "./places";
import {
  closeGap,
  compareDates,
  compareDeadlines,
  datesAsked,
  deadlineOfSide,
  monthOfTicker,
  settleWindow,
} from "./window";

export interface PolymarketSide {
  id: string;
  question: string;
  groupItemTitle: string | null;
  outcomes: readonly string[];
  endDate: string | null;
  /** The resolution text (the event's description). */
  description: string | null;
  eventTitle: string | null;
}

export interface KalshiSide {
  ticker: string;
  title: string;
  yes_sub_title: string | null;
  close_time: string | null;
  /** When Kalshi expects the market to settle; `close_time` can be a far backstop (World Cup: 2028). */
  expected_expiration_time?: string | null;
  rules_primary: string | null;
  /** Settlement clauses (joint winners, death, what counts as a ban); not read by the scorer yet. */
  rules_secondary?: string | null;
  eventTitle: string | null;
  floor_strike?: number | null;
  cap_strike?: number | null;
}

export type Relation = "same_contract" | "related" | "different";

export interface PairVerdict {
  relation: Relation;
  /** `same` when Polymarket's first outcome means Kalshi's yes. */
  orientation: "same" | "inverse";
  score: number;
  /** What matched, in words. */
  reasons: string[];
  /** What differs, in words; any one keeps the pair from being the same contract. */
  conflicts: string[];
  /**
   * Parts the texts leave unsettled (the window, the act, the subject): none differs, but
   * none is shown to agree either, so the pair is related until someone (an admin, the
   * adjudicator) reads the rules.
   */
  unsettled: string[];
}

/** The score from which a pair without conflicts is the same contract, and from which one is related. */
export const SAME_CONTRACT_SCORE = 0.6;
export const RELATED_SCORE = 0.42;

export function comparePair(polymarket: PolymarketSide, asListed: KalshiSide): PairVerdict {
  const kalshi = withLeagueNames(asListed);
  // A party's initials after a candidate ("Gustavo Bolívar (HC)", "the Democratic (DFL)
  // nominee") qualify the name, not the question.
  const [pAsked, kAsked] = [
    [polymarket.question, polymarket.groupItemTitle].filter(Boolean).join(" — "),
    // A nested market without a title of its own asks its event's question ("Who will…?" + "Name").
    [kalshi.title || kalshi.eventTitle, kalshi.yes_sub_title].filter(Boolean).join(" — "),
  ];
  const [pText, kText] = [
    initialsAsSaidIn(pAsked, kAsked).replace(/\s*\([A-Z]{1,5}\)/g, ""),
    initialsAsSaidIn(kAsked, pAsked).replace(/\s*\([A-Z]{1,5}\)/g, ""),
  ];
  const p = featuresOf(pText);
  const k = featuresOf(kText);
  // The event's title names what a market's own text may leave out ("Above 4.5%").
  const pContext = featuresOf(`${polymarket.eventTitle ?? ""} ${pText}`);
  const kContext = featuresOf(`${kalshi.eventTitle ?? ""} ${kText}`);
  const reasons: string[] = [];
  const conflicts: Conflicts = [];

  const sharedWords = intersection(pContext.words, kContext.words);
  const words = dice(pContext.words, kContext.words);
  if (sharedWords.length > 0) reasons.push(`shared words: ${sharedWords.slice(0, 8).join(", ")}`);

  // A name one side gives is in common when the other's text says it, read as a name there
  // or not: "Khamenei out as Supreme Leader…" opens its sentence, where one word alone is not
  // taken for a name.
  const [pSaid, kSaid] = [`${polymarket.eventTitle ?? ""} ${pText}`, `${kalshi.eventTitle ?? ""} ${kText}`];
  // Everything each side says: event, question, outcome and rules.
  // A district's code says its state ("CA-04": California).
  const pAll = [pSaid, polymarket.description ?? "", statesOfDistricts(pSaid)].join(" ");
  const kAll = [
    kSaid,
    kalshi.rules_primary ?? "",
    kalshi.rules_secondary ?? "",
    leagueOfTicker(kalshi.ticker),
    statesOfDistricts(kSaid),
  ].join(" ");
  const sharedNames = [
    ...new Set([
      ...intersection(pContext.entities, kContext.entities),
      ...namesSaidIn(kContext.entities, pSaid),
      ...namesSaidIn(pContext.entities, kSaid),
    ]),
  ];
  const names =
    pContext.entities.size > 0 && kContext.entities.size > 0
      ? Math.min(1, sharedNames.length / Math.min(pContext.entities.size, kContext.entities.size))
      : words;
  if (sharedNames.length > 0) reasons.push(`names on both: ${sharedNames.slice(0, 5).join(", ")}`);
  else if (pContext.entities.size > 0 && kContext.entities.size > 0) otherQuestion(conflicts, "no name in common");

  const close = closeGap(polymarket.endDate, [kalshi.close_time, kalshi.expected_expiration_time ?? null]);
  const closes = close?.days;
  // Kalshi closing well after Polymarket's end is its backstop (a year after an election, two
  // after a World Series): it says nothing of the window, which the texts must settle. So is
  // Polymarket's end well after Kalshi's close where neither text names a deadline ("the 2026
  // NL Rookie of the Year", Polymarket ending 11 days after Kalshi closes): the texts name the
  // occasion, and settle the window by its year.
  const isUndated = (question: string, rules: string | null, event: string | null | undefined) =>
    deadlineOfSide(question, rules, [event ?? null]).end === undefined;
  const isBackstop =
    close !== undefined &&
    close.days > 3 &&
    (close.isKalshiLater ||
      (isUndated(pText, polymarket.description, polymarket.eventTitle) &&
        isUndated(kText, kalshi.rules_primary, kalshi.eventTitle)));
  let dates = 0.5;
  if (closes !== undefined && !isBackstop) {
    dates = closes <= 1 ? 1 : closes <= 3 ? 0.6 : closes <= 7 ? 0.25 : 0;
    if (closes <= 1) reasons.push("they close the same day");
    else if (closes <= 3) reasons.push(`they close ${Math.round(closes)} days apart`);
    else conflicts.push(`they close ${Math.round(closes)} days apart`);
  } else if (closes !== undefined) {
    reasons.push(
      close?.isKalshiLater
        ? `Kalshi closes ${Math.round(closes)} days after Polymarket's end: a backstop, not the window`
        : `Polymarket ends ${Math.round(closes)} days after Kalshi closes, and neither text names a deadline: the window is the texts'`,
    );
  }

  const numbers = compareNumbers(p, k, kalshi, reasons, conflicts);
  compareEdges(
    [polymarket.description ?? "", pText],
    [kalshi.rules_primary ?? "", kText],
    [...p.quantities, ...k.quantities],
    conflicts,
  );
  // The deadline each asks by, however it is said ("in 2026" is "before Jan 1, 2027"); the
  // dates and years left in the texts are compared after it, not read twice.
  const pDeadline = deadlineOfSide(pText, polymarket.description, [polymarket.eventTitle, polymarket.endDate]);
  // A backstop's year is not the year asked about ("this year", closing next April).
  const kDeadline = deadlineOfSide(kText, kalshi.rules_primary, [
    kalshi.eventTitle,
    kalshi.expected_expiration_time ?? null,
    isBackstop ? null : kalshi.close_time,
  ]);
  const kFrom = kDeadline.from ?? monthOfTicker(kalshi.ticker, kDeadline.end);
  const isSameDeadline = compareDeadlines(pDeadline, { ...kDeadline, from: kFrom }, reasons, conflicts);
  const isWindowSettled =
    isSameDeadline ||
    settleWindow(polymarket, kalshi, { p: pDeadline.end, k: kDeadline.end }, isBackstop ? undefined : closes, reasons);
  compareDates(
    datesAsked(pDeadline.rest, polymarket.description),
    datesAsked(kDeadline.rest, kalshi.rules_primary),
    reasons,
    conflicts,
  );
  compareSources(polymarket.description, kalshi.rules_primary, reasons, conflicts);
  compareLabels(polymarket, kalshi, reasons, conflicts);
  // A question that asks an announcement ("announce acquisition of Cursor") settles on it:
  // the other side's rule that takes an announcement as enough asks the same.
  const [pClauses, kClauses] = [
    announcedIn(pText, clausesOf(polymarket.description ?? "")),
    announcedIn(kText, clausesOf(kalshi.rules_primary ?? "", kalshi.rules_secondary)),
  ];
  // A question that names no act ("US congress stock trading ban before 2027?") asks its
  // rule's: "… is signed into law".
  const isOppositeAct = compareActions(
    actionsOf(pText).size > 0 ? pText : conditionOf(polymarket.description ?? ""),
    actionsOf(kText).size > 0 ? kText : conditionOf(kalshi.rules_primary ?? ""),
    { p: pClauses.announcement === "enough", k: kClauses.announcement === "enough" },
    reasons,
    conflicts,
  );
  compareSubjects(
    { asked: p.entities, said: pAll, outcome: polymarket.groupItemTitle },
    { asked: k.entities, said: kAll, outcome: kalshi.yes_sub_title },
    conflicts,
  );
  compareConditions(polymarket.description, kalshi.rules_primary, pAll, kAll, conflicts);
  compareOffices({ asked: pSaid, said: pAll }, { asked: kSaid, said: kAll }, conflicts);
  comparePopularVote({ asked: pSaid, said: pAll }, { asked: kSaid, said: kAll }, conflicts);
  compareSides({ asked: pSaid, said: pAll }, { asked: kSaid, said: kAll }, conflicts);
  // Kalshi's strikes state its threshold where its text may not.
  const kStrikes = [kalshi.floor_strike, kalshi.cap_strike].filter((strike) => strike != null).join(" ");
  compareThresholds({ asked: pText, said: pAll }, { asked: kText, said: `${kAll} ${kStrikes}` }, conflicts);
  compareRounds(
    { asked: pText, rules: polymarket.description },
    { asked: kText, rules: kalshi.rules_primary },
    conflicts,
  );
  const pUnsaid = compareWording(pText, kAll, "Polymarket", conflicts);
  const kUnsaid = compareWording(kText, pAll, "Kalshi", conflicts);
  compareClauses(pClauses, kClauses, reasons, conflicts);

  const score = round(0.45 * words + 0.25 * names + 0.15 * dates + 0.15 * numbers);
  // A question asked in the negative ("Will X not be the nominee?", "fail to win") asks the
  // other's the other way round.
  const [pNot, kNot] = [isNegated(pText), isNegated(kText)];
  if (pNot !== kNot) reasons.push(`asks the opposite: ${pNot ? "Polymarket" : "Kalshi"} asks in the negative`);
  const orientation = orientationOf(polymarket, p, k, isOppositeAct !== (pNot !== kNot));
  if (orientation === "inverse") reasons.push("opposite sides: Polymarket's first outcome is Kalshi's no");
  // The same contract only when the texts settle every part, not merely when none differs:
  // the window, the act and who it is about, each said on both sides.
  const unsettled: string[] = [];
  if (!isWindowSettled) unsettled.push("the window: no deadline or close date read on both sides");
  const isSameAct =
    reasons.some((reason) => reason.startsWith("asks the same") || reason.startsWith("asks the opposite")) ||
    reasons.some((reason) => reason.startsWith("same outcome")) ||
    pUnsaid + kUnsaid === 0 ||
    sameCondition(
      { question: pText, rules: polymarket.description },
      { question: kText, rules: kalshi.rules_primary },
      reasons,
    );
  if (!isSameAct) unsettled.push("the act: each question's words are not all said on the other side");
  // A question without a name ("a stock trading ban") is about what its words say.
  if (sharedNames.length === 0 && pUnsaid + kUnsaid > 0) unsettled.push("the subject: no name read on both sides");
  const isClear = conflicts.length === 0 && unsettled.length === 0;
  const relation: Relation =
    score >= SAME_CONTRACT_SCORE && isClear
      ? "same_contract"
      : score >= RELATED_SCORE && !conflicts.otherQuestion && sharedNames.length + sharedWords.length >= 2
        ? "related"
        : "different";
  return { relation, orientation, score, reasons, conflicts: [...conflicts], unsettled };
}

/**
 * Kalshi names leagues and their titles generically ("the 2026 Pro Baseball Championship",
 * "Pro basketball Western Conference Finals"), where Polymarket names them ("the 2026 MLB
 * World Series"): each Kalshi text is read with the league's own names.
 */
function withLeagueNames(kalshi: KalshiSide): KalshiSide {
  const named = (text: string | null | undefined) => (text ? leagueNamed(text) : text);
  return {
    ...kalshi,
    title: named(kalshi.title) ?? "",
    eventTitle: named(kalshi.eventTitle) ?? null,
    yes_sub_title: named(kalshi.yes_sub_title) ?? null,
    rules_primary: named(kalshi.rules_primary) ?? null,
    rules_secondary: named(kalshi.rules_secondary) ?? null,
  };
}

const leagueNamed = remembered((text: string) =>
  LEAGUE_NAMES.reduce((read, [generic, name]) => read.replace(generic, name), text),
);

/**
 * The league a Kalshi series is of, as its ticker names it ("KXNHLEAST", "KXMLBNLROTY"):
 * said there when its texts say only "the Eastern Conference Finals".
 */
function leagueOfTicker(ticker: string): string {
  return /^KX(WNBA|NBA|NHL|MLB|NFL|MLS|NCAAF|NCAAB|UFC|EPL)/.exec(ticker)?.[1] ?? "";
}

/**
 * Kalshi's generic names of leagues and their championships, the titles first, and how its
 * templates word a stage or an award ("qualify from World Cup Group J", "NL ROTY").
 */
const LEAGUE_NAMES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bPro Baseball Championship\b/gi, "World Series"],
  [/\bPro Football Championship\b/gi, "NFL Super Bowl championship"],
  [/\bPro Basketball (?:Finals|Championship)\b/gi, "NBA Finals"],
  [/\bPro Hockey Championship\b/gi, "Stanley Cup"],
  [/\bPro Baseball\b/gi, "MLB"],
  [/\bPro Football\b/gi, "NFL"],
  [/\bPro Basketball\b/gi, "NBA"],
  [/\bPro Hockey\b/gi, "NHL"],
  [/\bPro Men's Basketball\b/gi, "NBA"],
  // A team that qualifies from its group advances to the knockout stage: the group is the
  // draw's, fixed by the team ("qualify from World Cup Group I for the Round of 32").
  [
    /\bqualify from (?:the )?((?:\p{Lu}\p{L}* )*)Group \p{Lu}\b(?: for the Round of \d+)?/gu,
    "advance to the $1knockout stage",
  ],
  // Its awards by their initials: "Will Andrew Painter win NL ROTY?".
  [/\bROTY\b/g, "Rookie of the Year"],
  [/\bCYA\b/g, "Cy Young Award"],
  // A division's "Title Holder" is its champion.
  [/\b(\w+weight) Title(?: Holder)?\b/gi, "$1 Champion"],
];

/** 1 when the thresholds agree (or neither names one), 0 when they differ. */
function compareNumbers(
  p: TextFeatures,
  k: TextFeatures,
  kalshi: KalshiSide,
  reasons: string[],
  conflicts: string[],
): number {
  const kQuantities: Quantity[] = [...k.quantities];
  for (const strike of [kalshi.floor_strike, kalshi.cap_strike]) {
    if (strike !== null && strike !== undefined && !kQuantities.some((q) => q.value === strike)) {
      kQuantities.push({ value: strike, unit: "" });
    }
  }
  if (p.quantities.length === 0 || kQuantities.length === 0)
    return p.quantities.length === kQuantities.length ? 1 : 0.5;
  const same = p.quantities.filter((q) => kQuantities.some((other) => sameQuantity(q, other)));
  if (same.length > 0) {
    reasons.push(`same number: ${same.map(quantityText).join(", ")}`);
    return 1;
  }
  conflicts.push(
    `numbers differ: ${p.quantities.map(quantityText).join(", ")} vs ${kQuantities.map(quantityText).join(", ")}`,
  );
  return 0;
}

/**
 * Whether a threshold both sides name counts the same at its edge: "at least 60 days"
 * includes the 60th, "more than 60 days" does not; and whether two that face opposite ways
 * are each other's no ("above 40" / "40 or below"), not both no at 40. Each side's rules
 * say it before its question does.
 */
function compareEdges(
  pTexts: readonly string[],
  kTexts: readonly string[],
  quantities: readonly Quantity[],
  conflicts: string[],
): void {
  const comparators = (texts: readonly string[]) => {
    const found = new Map<number, Comparator>();
    for (const text of texts)
      for (const [value, comparator] of comparatorsOf(text)) if (!found.has(value)) found.set(value, comparator);
    return found;
  };
  const [pEdges, kEdges] = [comparators(pTexts), comparators(kTexts)];
  for (const value of new Set(quantities.map((quantity) => quantity.value))) {
    const [pEdge, kEdge] = [pEdges.get(value), kEdges.get(value)];
    if (!pEdge || !kEdge || pEdge === kEdge) continue;
    const isSameWay = pEdge[0] === kEdge[0];
    const isInclusive = (edge: Comparator) => edge.endsWith("=");
    // The same way, one including the edge; or opposite ways, both including it or both not.
    if (isSameWay || isInclusive(pEdge) === isInclusive(kEdge)) {
      conflicts.push(`the edge differs: ${pEdge} ${value} (Polymarket) vs ${kEdge} ${value} (Kalshi)`);
    }
  }
}

function sameQuantity(a: Quantity, b: Quantity): boolean {
  const unitsAgree = a.unit === b.unit || a.unit === "" || b.unit === "";
  return unitsAgree && Math.abs(a.value - b.value) <= Math.max(1e-9, Math.abs(a.value) * 1e-6);
}

function quantityText(quantity: Quantity): string {
  const value = quantity.value.toLocaleString("en-US", { maximumFractionDigits: 4 });
  return quantity.unit === "$" ? `$${value}` : `${value}${quantity.unit}`;
}

function compareSources(
  description: string | null,
  rules: string | null,
  reasons: string[],
  conflicts: string[],
): void {
  if (!description || !rules) return;
  const pSources = sourcesOf(description);
  const kSources = sourcesOf(rules);
  if (pSources.size === 0 || kSources.size === 0) return;
  const shared = intersection(pSources, kSources);
  if (shared.length > 0) reasons.push(`resolved by the same source: ${shared.join(", ")}`);
  else conflicts.push(`resolution sources differ: ${[...pSources].join(", ")} vs ${[...kSources].join(", ")}`);
}

/**
 * The outcome a market stands for inside a group (Polymarket's `groupItemTitle`, Kalshi's
 * `yes_sub_title`: a candidate, a bracket): two markets of the same question group with
 * different outcomes are different contracts, however alike their titles.
 */
function compareLabels(polymarket: PolymarketSide, kalshi: KalshiSide, reasons: string[], conflicts: Conflicts): void {
  const label = polymarket.groupItemTitle?.trim();
  const yes = kalshi.yes_sub_title?.trim();
  if (!label || !yes) return;
  const [labelWords, yesWords] = [featuresOf(label), featuresOf(yes)];
  const isSame =
    label.toLowerCase() === yes.toLowerCase() ||
    dice(labelWords.words, yesWords.words) >= 0.6 ||
    intersection(labelWords.entities, yesWords.entities).length > 0;
  if (isSame) reasons.push(`same outcome: "${label}" / "${yes}"`);
  else if (labelWords.quantities.length === 0 || yesWords.quantities.length === 0) {
    // Brackets with numbers are left to the numbers' comparison.
    otherQuestion(conflicts, `outcomes differ: "${label}" vs "${yes}"`);
  }
}

/**
 * Both questions ask the same act of their subject; said only when both name one. Acts
 * that are each other's opposite ("remain in office" / "leave office") ask one question
 * the other way round: answers true, and the pair's orientation turns.
 */
function compareActions(
  pText: string,
  kText: string,
  announcementEnough: { p: boolean; k: boolean },
  reasons: string[],
  conflicts: Conflicts,
): boolean {
  const [p, k] = [actionsOf(pText), actionsOf(kText)];
  if (p.size === 0 || k.size === 0) return false;
  // Announcing an act is that act where the other side's rule takes an announcement as enough.
  const onlyP = [...p].filter((action) => !k.has(action) && !(action === "announce" && announcementEnough.k));
  const onlyK = [...k].filter((action) => !p.has(action) && !(action === "announce" && announcementEnough.p));
  if (onlyP.length === 0 && onlyK.length === 0) {
    reasons.push(`asks the same: ${[...p].join(", ")}`);
    return false;
  }
  const isOpposite = OPPOSITES.some(
    ([a, b]) => (onlyP.join() === a && onlyK.join() === b) || (onlyP.join() === b && onlyK.join() === a),
  );
  if (isOpposite) {
    reasons.push(`asks the opposite: ${onlyP.join(", ")} (Polymarket) vs ${onlyK.join(", ")} (Kalshi)`);
    return true;
  }
  otherQuestion(conflicts, `asks something else: ${[...p].join(", ")} (Polymarket) vs ${[...k].join(", ")} (Kalshi)`);
  return false;
}

/** A side's clauses, an announcement enough where its question asks for one. */
function announcedIn(question: string, clauses: Clauses): Clauses {
  return actionsOf(question).has("announce") && clauses.announcement === undefined
    ? { ...clauses, announcement: "enough" }
    : clauses;
}

/** Acts each of which is the other's "no". */
const OPPOSITES: ReadonlyArray<readonly [string, string]> = [["remain", "leave"]];

function orientationOf(
  polymarket: PolymarketSide,
  p: TextFeatures,
  k: TextFeatures,
  isOppositeAct: boolean,
): "same" | "inverse" {
  const first = polymarket.outcomes[0]?.toLowerCase();
  const flipped = first === "no";
  const opposite = p.direction !== undefined && k.direction !== undefined && p.direction !== k.direction;
  // Each reason to turn turns once: two of them cancel.
  return [flipped, opposite, isOppositeAct].filter(Boolean).length % 2 === 1 ? "inverse" : "same";
}

/**
 * The names that stand in the text as whole words, a team's too when one side writes it by
 * its city and initial, as Kalshi does ("Los Angeles R" / "the Los Angeles Rams").
 */
function namesSaidIn(names: ReadonlySet<string>, text: string): string[] {
  const lower = ` ${text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ")} `;
  return [...names].filter((name) => {
    const words = name.replace(/[^\p{L}\p{N}]+/gu, " ").trim();
    if (lower.includes(` ${words} `)) return true;
    if (!words.includes(" ")) return false;
    const initial = words.replace(/(\p{L})\p{L}+$/u, "$1");
    return (
      (initial !== words && lower.includes(` ${initial} `)) ||
      (/ \p{L}$/u.test(words) && new RegExp(` ${words}\\p{L}+ `, "u").test(lower))
    );
  });
}

function intersection<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): T[] {
  return [...a].filter((value) => b.has(value));
}

function dice(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  return (2 * intersection(a, b).length) / (a.size + b.size);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
