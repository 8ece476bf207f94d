/**
 * The window each side of a pair asks about, and whether the two agree: the deadline each
 * question or rule condition names, the days each asks about, the year each names (a season
 * by the year it ends in; a Kalshi text that names none by its event ticker), and how far
 * apart the venues close (Kalshi's late close is often a backstop, not the window).
 */
import { conditionOf } from "./compare-parts";
import { deadlineOf, featuresOf, type TextFeatures, YEAR, yearOf } from "./features";
import type { KalshiSide, PolymarketSide } from "./score";

const DAY_MS = 86_400_000;

/**
 * Whether both sides are shown to ask about one window when their deadlines are not both
 * read and agreeing (`compareDeadlines`), with the reason: the same close day, one side's deadline on
 * the other's close (a side that says no deadline is dated by when it closes; a close far
 * off may be a backstop, so it says nothing), or, with no close to compare (none, or
 * Kalshi's backstop), the one year both name ("the 2026 NY-12 House seat" / "the 2026
 * midterms"), a deadline read on one side only being that year's end.
 */
export function settleWindow(
  polymarket: PolymarketSide,
  kalshi: KalshiSide,
  deadlines: { p: string | undefined; k: string | undefined },
  closes: number | undefined,
  reasons: string[],
): boolean {
  // Both read and apart: `compareDeadlines` has said so.
  if (deadlines.p && deadlines.k) return false;
  if (closes !== undefined && closes <= 1) return true;
  const onClose = (deadline: string, dates: ReadonlyArray<string | null | undefined>) =>
    dates.some((date) => date && Math.abs(Date.parse(date.slice(0, 10)) - Date.parse(deadline)) <= DAY_MS);
  if (deadlines.p && onClose(deadlines.p, [kalshi.expected_expiration_time, kalshi.close_time])) {
    reasons.push(`same deadline: before ${deadlines.p} (Kalshi's close)`);
    return true;
  }
  if (deadlines.k && onClose(deadlines.k, [polymarket.endDate])) {
    reasons.push(`same deadline: before ${deadlines.k} (Polymarket's end)`);
    return true;
  }
  if (closes !== undefined) return false;
  // The years each side asks about: in its question and its rule's condition, not in a later
  // clause ("if the result isn't known by January 31, 2027, … Other"); in the whole rules
  // only where those name none ("If no 2026 Delaware Republican Senate Primary takes place"),
  // less their fallbacks where the rest names a year ("If the result of this election isn't
  // known by December 31, 2027, … Other": "expected to be held in the Fall of 2026" names it).
  const yearsOf = (asked: ReadonlyArray<string | null>, rules: string | null) => {
    const years = featuresOf([...asked, conditionOf(rules ?? "")].join(" ")).years;
    if (years.size > 0) return years;
    const all = featuresOf(rules ?? "").years;
    const main = all.size > 1 ? featuresOf(withoutFallbacks(rules ?? "")).years : all;
    return main.size > 0 ? main : all;
  };
  const pYears = yearsOf(
    [polymarket.eventTitle, polymarket.question, polymarket.groupItemTitle],
    polymarket.description,
  );
  const kNamed = yearsOf([kalshi.eventTitle, kalshi.title, kalshi.yes_sub_title], kalshi.rules_primary);
  // Texts that name no year ("the F1 Constructors Championship") are dated by the event's
  // ticker, which Kalshi writes with its year ("KXF1CONSTRUCTORS-26").
  const kYears = kNamed.size > 0 ? kNamed : tickerYears(kalshi.ticker);
  const [year] = [...pYears];
  if (pYears.size !== 1 || kYears.size !== 1 || year === undefined || !kYears.has(year)) return false;
  // A deadline read on one side only must be that year's end ("in 2026" / "the 2026
  // election"): an earlier one ("by June 30") asks less than the whole year.
  const yearEnd = `${year + 1}-01-01`;
  if ((deadlines.p && deadlines.p !== yearEnd) || (deadlines.k && deadlines.k !== yearEnd)) return false;
  reasons.push(`same year: ${year}`);
  return true;
}

/** A rule's text without the sentences on what happens when the question goes unanswered. */
const withoutFallbacks = (rules: string) =>
  rules
    .split(/(?<=[.!?])\s+|\n/)
    .filter(
      (sentence) => !/\b(?:Other|cancell?ed|postponed|(?:isn['’]t|is not|not) (?:known|declared))\b/i.test(sentence),
    )
    .join(" ");

/**
 * The year of a Kalshi event ticker's date part: "-26", "-26DEC", "-26MAY30", or a season
 * "-2526" (the year it ends in). None where it holds no such date ("KXUPONLY-01").
 */
function tickerYears(ticker: string): ReadonlySet<number> {
  const date = /^(\d\d)(?:(\d\d)|[A-Z]{3}\d{0,2})?$/.exec(ticker.split("-")[1] ?? "");
  if (!date) return new Set();
  const year = yearOf(`20${date[1]}`, date[2]);
  return year >= 2020 && year < 2050 ? new Set([year]) : new Set();
}

/**
 * The month a Kalshi event's ticker names ("KXTRUMPMEET-26MAR": March 2026) opens its
 * window where the deadline read is that month's end: a monthly series asks of its month,
 * though its text says only "before Apr 1, 2026".
 */
export function monthOfTicker(ticker: string, end: string | undefined): string | undefined {
  const named = /^(\d\d)([A-Z]{3})$/.exec(ticker.split("-")[1] ?? "");
  const month = named ? MONTH_CODES.indexOf(named[2] as string) + 1 : 0;
  if (!named || month === 0 || !end) return undefined;
  const from = `20${named[1]}-${String(month).padStart(2, "0")}-01`;
  const next = new Date(Date.parse(from));
  next.setUTCMonth(next.getUTCMonth() + 1);
  return next.toISOString().slice(0, 10) === end ? from : undefined;
}

const MONTH_CODES = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

/**
 * A side's deadline: from its question, else from its rule's condition (a later clause,
 * "if no nominee is announced by November 3, … Other", is a backstop, not the window); a
 * date said without a year takes the first year its texts name (the question, the event,
 * then its dates).
 */
export function deadlineOfSide(
  question: string,
  rules: string | null,
  context: ReadonlyArray<string | null>,
): { end: string | undefined; rest: string; from?: string } {
  // "before 2027" names the year 2026's end.
  const known = [question, ...context, rules ?? ""]
    .map((text) => {
      const found = BEFORE_YEAR.exec(text ?? "");
      return found ? yearOf(found[2] as string, found[3]) - (found[1] ? 1 : 0) : undefined;
    })
    .find((found) => found !== undefined);
  const asked = deadlineOf(question, known);
  if (asked.end || !rules) return asked;
  const { end, from } = deadlineOf(conditionOf(rules), known);
  return { end, rest: asked.rest, ...(from ? { from } : {}) };
}

/**
 * The dates a side asks about: its question's, else its rule condition's less its deadline
 * ("Nice vs Saint-Etienne Winner?": the game "originally scheduled for May 29, 2026").
 */
export function datesAsked(question: string, rules: string | null): TextFeatures {
  const asked = featuresOf(question);
  if (asked.dates.length > 0 || !rules) return asked;
  return { ...asked, dates: featuresOf(deadlineOf(conditionOf(rules)).rest).dates };
}

const BEFORE_YEAR = new RegExp(`\\b(before\\s+)?${YEAR.source}`, "i");

/**
 * Whether both deadlines are read and agree, and both windows open alike: a month's window
 * ("in December 2026") against one open until the same day ("before 2027") asks less.
 */
export function compareDeadlines(
  p: { end: string | undefined; from?: string },
  k: { end: string | undefined; from?: string },
  reasons: string[],
  conflicts: string[],
): boolean {
  if (!p.end || !k.end) return false;
  const days = Math.abs(Date.parse(p.end) - Date.parse(k.end)) / DAY_MS;
  // A day apart is the venues' cut-offs (11:59 PM ET against the next day in UTC).
  if (days > 1) {
    conflicts.push(`deadlines differ: before ${p.end} (Polymarket) vs before ${k.end} (Kalshi)`);
    return false;
  }
  if (p.from !== k.from) {
    const opens = (side: { from?: string }) => (side.from ? `from ${side.from}` : "until then");
    conflicts.push(`windows differ: ${opens(p)} (Polymarket) vs ${opens(k)} (Kalshi), both before ${p.end}`);
    return false;
  }
  reasons.push(`same deadline: before ${p.end}`);
  return true;
}

export function compareDates(p: TextFeatures, k: TextFeatures, reasons: string[], conflicts: string[]): void {
  const day = (date: string) => date.slice(-5);
  if (p.dates.length > 0 && k.dates.length > 0) {
    const shared = p.dates.filter((date) => k.dates.some((other) => day(other) === day(date)));
    if (shared.length > 0) reasons.push(`same date: ${shared.map(day).join(", ")}`);
    else conflicts.push(`dates differ: ${p.dates.join(", ")} vs ${k.dates.join(", ")}`);
  }
  if (p.years.size > 0 && k.years.size > 0 && ![...p.years].some((year) => k.years.has(year))) {
    conflicts.push(`years differ: ${[...p.years].join(", ")} vs ${[...k.years].join(", ")}`);
  }
}

/** Days between Polymarket's end and the nearest of Kalshi's dates, and whether that one is later. */
export function closeGap(
  end: string | null,
  kalshiDates: readonly (string | null)[],
): { days: number; isKalshiLater: boolean } | undefined {
  const first = end ? Date.parse(end) : Number.NaN;
  const gaps = kalshiDates
    .map((date) => (date ? (Date.parse(date) - first) / DAY_MS : Number.NaN))
    .filter((days) => !Number.isNaN(days));
  if (gaps.length === 0) return undefined;
  const nearest = gaps.reduce((a, b) => (Math.abs(b) < Math.abs(a) ? b : a));
  return { days: Math.abs(nearest), isKalshiLater: nearest > 0 };
}
