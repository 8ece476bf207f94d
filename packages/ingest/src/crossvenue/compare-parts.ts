/**
 * The parts of two markets' questions and rules that are read as words rather than as
 * numbers and dates: who each is about, whom each rule's condition requires, whether each
 * question's words are said on the other side, and the settlement clauses of both rules.
 * Each comparison adds what differs to the pair's conflicts (`score.ts` weighs them).
 */
import type { Clauses } from "./clauses";
import { actionsOf, deadlineOf, featuresOf, isMonth, plain, remembered, wordsOf } from "./features";

/**
 * What a conflict says: another question altogether (another outcome of the group,
 * another act, nobody in common) makes the pair `different`; other terms of the same
 * question (a threshold, a date, a source) make it `related`.
 */
export type Conflicts = string[] & { otherQuestion?: boolean };

export function otherQuestion(conflicts: Conflicts, text: string): void {
  conflicts.push(text);
  conflicts.otherQuestion = true;
}

/**
 * Who or what each question is about: a name one question asks about that the other side
 * never says (question, event, outcome or rules; a surname is enough) is a subject of one
 * only. Both sides with such a name ask about different subjects (Israel and Saudi Arabia,
 * Israel and Lebanon).
 */
export function compareSubjects(
  p: { asked: ReadonlySet<string>; said: string; outcome: string | null },
  k: { asked: ReadonlySet<string>; said: string; outcome: string | null },
  conflicts: Conflicts,
): void {
  // A team named by its city as the other side's outcome ("Cincinnati" / "the Cincinnati
  // Reds") is the name said short.
  const saidShort = (name: string, outcome: string | null) => {
    const short = outcome ? plainWords(outcome) : "";
    return short.length >= 4 && plainWords(name).startsWith(`${short} `);
  };
  const pOnly = namesNotSaid(p.asked, k.said).filter((name) => !saidShort(name, k.outcome));
  const kOnly = namesNotSaid(k.asked, p.said).filter((name) => !saidShort(name, p.outcome));
  if (pOnly.length > 0 && kOnly.length > 0) {
    otherQuestion(
      conflicts,
      `about different subjects: ${pOnly.join(", ")} (Polymarket) vs ${kOnly.join(", ")} (Kalshi)`,
    );
  } else if (pOnly.length > 0 || kOnly.length > 0) {
    // One side alone names more: a party the other does not require (Trump, Putin and
    // Zelensky together; Trump and Putin), or only a word of its own style: related at most.
    conflicts.push(`only ${pOnly.length > 0 ? "Polymarket" : "Kalshi"} names ${[...pOnly, ...kOnly].join(", ")}`);
  }
}

/** The names of `asked` that `other` never says (a surname is enough), each once. */
function namesNotSaid(asked: ReadonlySet<string>, other: string): string[] {
  const names = [...asked].filter((name) => name.includes(" ") || !STOP_NAMES.has(name));
  const said = ` ${plainWords(other)} `;
  // One word said in full or, from six letters, in another form: "Congressional" /
  // "Congress", "Israeli" / "Israel".
  const isWordSaid = (word: string) => {
    // A letter alone is no name said: "Group G" is not said by "e.g.".
    if (word.length < 2) return false;
    if (said.includes(` ${word} `) || (word.length >= 6 && said.includes(` ${word.slice(0, 6)}`))) return true;
    // A name from another alphabet in another spelling: "Iotova" / "Yotova".
    if (word.length >= 5 && ` ${spokenAs(said)} `.includes(` ${spokenAs(word)} `)) return true;
    // A people's name for its country: "Maltese" / "Malta", "Mexican" / "Mexico".
    const country = /^(\p{L}{4,}?)(?:ese|ian|an|ish|i)$/u.exec(word)?.[1];
    if (country !== undefined && new RegExp(` ${country}\\p{L}{0,2} `, "u").test(said)) return true;
    // And a country for its people's: "Mexico" / "the Mexican Chamber of Deputies".
    const root = /^(\p{L}{4,}?)[aeoy]?$/u.exec(word)?.[1];
    return root !== undefined && new RegExp(` ${root}(?:ese|ian|an|ish|i) `, "u").test(said);
  };
  const isSaid = (name: string) => {
    const words = plainWords(name);
    const forms = ALIASES.find((alias) => alias.includes(words)) ?? [words];
    const last = words.split(" ").at(-1) ?? words;
    const named = words.split(" ").filter((word) => !EVENT_WORDS.has(word));
    const initials = named
      .filter((word) => !["of", "the", "and", "de"].includes(word))
      .map((word) => word[0])
      .join("");
    return (
      forms.some((form) => said.includes(` ${form} `)) ||
      // A team said by its city and its name's initial, as Kalshi writes it: "New York M" /
      // "New York Mets", both ways.
      (/ \p{L}$/u.test(words) && said.includes(` ${words}`)) ||
      (words.includes(" ") && said.includes(` ${words.replace(/(\p{L})\p{L}+$/u, "$1")} `)) ||
      // A name of three words or more said by its initials: "Major League Baseball" / "MLB"
      // (two letters name too many things: "WC", "SC").
      (initials.length >= 3 && said.includes(` ${initials} `)) ||
      // A multi-word name is said when its last word is: "Donald Trump" / "Trump".
      isWordSaid(last) ||
      // An event named by its place and kind ("the Michigan Democratic Primary"): its place
      // and party said are enough, the kind of event is the act's to compare.
      (named.length > 0 && named.length < words.split(" ").length && named.every(isWordSaid))
    );
  };
  const missing = names.filter((name) => !isSaid(name));
  // A surname stands for its full name: said with it, or said once as the full one.
  return missing.filter((name) => !names.some((other) => other !== name && other.endsWith(` ${name}`)));
}

/**
 * A name one side writes out and the other by its initials ("the Ecologist Green Party of
 * Mexico (PVEM)" / "PVEM", "Coalition Avenir Québec" / "CAQ") is read by its initials on
 * both: the initials the other side writes, glossed in brackets after the name or, from
 * three letters, those of the name's own words.
 */
export function initialsAsSaidIn(text: string, other: string): string {
  const said = new Set(other.match(/\b[A-Z]{2,5}\b/g));
  if (said.size === 0) return text;
  const glossed = text.replace(GLOSSED_NAME, (whole, _name, initials: string) =>
    said.has(initials) ? initials : whole,
  );
  return glossed.replace(CAPITALISED_RUN, (run: string) => {
    const words = run.split(/\s+/);
    // The longest stretch of the run whose initials the other side writes ("Will Coalition
    // Avenir Québec": "Coalition Avenir Québec").
    for (let length = words.length; length >= 3; length--)
      for (let start = 0; start + length <= words.length; start++) {
        const stretch = words.slice(start, start + length);
        const named = stretch.filter((word) => !JOINERS.has(word));
        const initials = plain(named.map((word) => word[0]).join("")).toUpperCase();
        if (named.length >= 3 && !JOINERS.has(stretch.at(-1) ?? "") && said.has(initials))
          return [...words.slice(0, start), initials, ...words.slice(start + length)].join(" ");
      }
    return run;
  });
}

const JOINERS: ReadonlySet<string> = new Set(["of", "de", "the", "and", "for"]);
const GLOSSED_NAME = /((?:\p{Lu}[\p{L}'’.-]*\s+(?:(?:of|de|the|and|for)\s+)?)*\p{Lu}[\p{L}'’.-]*)\s*\(([A-Z]{2,5})\)/gu;
const CAPITALISED_RUN = /\p{Lu}[\p{L}'’.-]*(?:\s+(?:(?:of|de|the|and|for)\s+)?\p{Lu}[\p{L}'’.-]*){2,}/gu;

/**
 * Who each rule's condition requires, beyond the question: a name in one side's condition
 * ("a pardon … from Israeli President Isaac Herzog") that the other side never says asks
 * for more than the other ("from a competent authority"): related at most.
 */
export function compareConditions(
  pRules: string | null,
  kRules: string | null,
  p: string,
  k: string,
  conflicts: Conflicts,
): void {
  if (!pRules || !kRules) return;
  // The United States is both venues' own jurisdiction: a rule that names it ("passed by the
  // U.S. Congress") asks nothing the other leaves open.
  // Its institutions too ("the U.S. Congress").
  const isHome = (name: string) =>
    ALIASES[0]?.some((home) => plainWords(name) === home || plainWords(name).startsWith(`${home} `)) ?? false;
  const named = (rules: string) => {
    const names = [...featuresOf(conditionOf(rules)).entities];
    const home = names.filter(isHome);
    return new Set(
      names.filter(
        (name) => !TEMPLATE_NAMES.has(name) && !isHome(name) && !home.some((full) => full.endsWith(` ${name}`)),
      ),
    );
  };
  // A title of several words is said when one of its words is ("the Democratic Primary" /
  // "the Democratic nominee"): what counts is a party the other side never mentions at all.
  const unsaid = (names: string[], other: string) => {
    const said = saidStems(other);
    return names.filter((name) => !name.split(" ").some((word) => word.length >= 4 && said.has(stem(word))));
  };
  const pOnly = unsaid(namesNotSaid(named(pRules), k), k);
  const kOnly = unsaid(namesNotSaid(named(kRules), p), p);
  if (pOnly.length > 0) conflicts.push(`only Polymarket's rule requires ${pOnly.join(", ")}`);
  if (kOnly.length > 0) conflicts.push(`only Kalshi's rule requires ${kOnly.join(", ")}`);
}

/**
 * Whether both rules resolve on the same condition, said in nearly the same words ("…
 * officially holds the position of the head of state of Venezuela on Dec 31, 2026"): the
 * act is settled there when the questions word it apart ("the leader of Venezuela"), unless
 * a word a question asks is in its own condition and not in the other's ("the head of
 * government"): then that is what the conditions differ by.
 */
export function sameCondition(
  p: { question: string; rules: string | null },
  k: { question: string; rules: string | null },
  reasons: string[],
): boolean {
  if (!p.rules || !k.rules) return false;
  const [pCondition, kCondition] = [conditionOf(p.rules), conditionOf(k.rules)];
  // What each condition asks, less who (one rule says "the individual who…", the other the
  // name: the subject's to compare) and when (the window's: "on December 31, 2026 at 12:00
  // PM ET" / "at the end of 2026").
  const asked = (condition: string) => {
    const features = featuresOf(condition);
    const names = new Set([...features.entities].flatMap((name) => wordsOf(plain(name))));
    return new Set(
      wordsOf(plain(deadlineOf(condition).rest)).filter(
        (word) => !names.has(word) && !isMonth(word) && !TIME_WORDS.has(word),
      ),
    );
  };
  const [pWords, kWords] = [asked(pCondition), asked(kCondition)];
  const shared = [...pWords].filter((word) => kWords.has(word));
  if (pWords.size === 0 || kWords.size === 0 || (2 * shared.length) / (pWords.size + kWords.size) < SAME_CONDITION)
    return false;
  // A word a question asks, in its own condition and not in the other's, is what they differ by.
  const asksApart = (question: string, condition: string, otherCondition: string) => {
    const [own, other] = [saidStems(condition), saidStems(otherCondition)];
    const words = asked(question);
    return [...words].some((word) => own.has(stem(word)) && !other.has(stem(word)));
  };
  if (asksApart(p.question, pCondition, kCondition) || asksApart(k.question, kCondition, pCondition)) return false;
  reasons.push(`the rules' conditions say the same: ${shared.slice(0, 8).join(", ")}`);
  return true;
}

/** The share of their words two rules' conditions have in common from which they are one condition. */
const SAME_CONDITION = 0.6;

/**
 * A rule's condition: its first sentence that says how it resolves ("if", "resolve"), from
 * "if" on, without the venue's own wording around it. A sentence before it that only sets
 * the scene ("The 2026 Los Angeles mayoral election will be held on June 2, 2026, to elect
 * the mayor of Los Angeles, California.") asks nothing.
 */
export const conditionOf = remembered((rules: string): string => {
  // A template's unfilled field ("|| Year ||") says nothing.
  const sentences = plain(rules)
    .replace(/\|\|[^|]*\|\|/g, " ")
    // A sentence ends after a word, not after initials ("the U.S. House").
    .split(/(?<=(?:^|[^.\p{L}])[\p{L}\d)"”]{2,}[.!?])\s+(?=[A-Z])|\n/u)
    .filter((sentence) => sentence.trim() !== "");
  const first = sentences.find((sentence) => /\b(if|resolves?)\b/i.test(sentence)) ?? sentences[0] ?? "";
  return (
    first
      .replace(/^.*?\bif\b/i, "")
      .replace(/,?\s*then the market resolves.*$/i, "")
      // A time zone's city ("11:59 PM PT (Los Angeles time)") is a clock, not a party, and a
      // name in brackets after what it names ("the Swedish Parliament (Riksdag)") a gloss.
      .replace(/\([^()]*\btime\)/gi, " ")
      // A game named by its two teams and its day is one game, whichever competition Kalshi's
      // template says it is in ("the Nice vs Saint-Etienne professional Ligue 1 soccer game").
      .replace(
        /\b(vs\.? .{1,60}? professional) (?:[\p{Lu}\d][\p{L}\d.'-]* )+(soccer|football|basketball|baseball|hockey) game\b/gu,
        "$1 $2 game",
      )
      .replace(/\s*\(\p{Lu}[\p{L}'-]*(?:\s(?:\p{Lu}[\p{L}'-]*|de|del|la|of|the)){0,4}\)/gu, " ")
  );
});

/** Capitalised words of the venues' own rule wording, never a party to the question. */
const TEMPLATE_NAMES: ReadonlySet<string> = new Set([
  "et",
  "pm",
  "am",
  "pt",
  "utc",
  "est",
  "edt",
  "issuance",
  "yes",
  "no",
  "pm et",
  "pt",
  "pm pt",
  "ct",
  "pm ct",
]);

/**
 * The words a question asks with: when most of them (its names aside) are never said on
 * the other side, question, event or rules, the two ask different things ("Will AI be
 * charged with a crime?" / "AI regulation"). Answers how many of them the other side never
 * says: none on either side settles the act and the subject of questions without names.
 */
export function compareWording(question: string, other: string, side: string, conflicts: Conflicts): number {
  // The deadline and the act are compared on their own, synonyms and all ("out" / "leave").
  const words = deadlineOf(question.replace(ISO_TIME, " ").replace(ASKED_AS_WINNING, " ")).rest;
  const names = featuresOf(words).entities;
  const asked = [...new Set(wordsOf(plain(words)))].filter(
    (word) =>
      !names.has(word) &&
      !isMonth(word) &&
      !TIME_WORDS.has(word) &&
      !KIND_WORDS.has(word) &&
      actionsOf(word).size === 0,
  );
  const said = saidStems(other);
  const unsaid = asked.filter((word) => !said.has(stem(word)));
  if (asked.length > 0 && unsaid.length * 2 > asked.length) {
    otherQuestion(conflicts, `${side} asks of ${unsaid.join(", ")}, which the other side never says`);
  } else {
    // One word alone is enough where it names another competition: the women's World Cup,
    // the Club World Cup, an under-21 championship are not the one the other side asks of.
    const qualifiers = unsaid.filter((word) => COMPETITION_QUALIFIERS.has(word) || /^u\d\d$/.test(word));
    if (qualifiers.length > 0) otherQuestion(conflicts, `${side} asks of a ${qualifiers.join(", ")} competition`);
  }
  return unsaid.length;
}

/**
 * Words that make a competition another one, said by one side only: who may play in it
 * (women, juniors, clubs, colleges) or how (in a wheelchair).
 */
const COMPETITION_QUALIFIERS: ReadonlySet<string> = new Set([
  "women",
  "female",
  "ladie",
  "girl",
  "club",
  "junior",
  "youth",
  "college",
  "collegiate",
  "amateur",
  "paralympic",
  "wheelchair",
]);

/** A word's first letters, past its ending: "picked" and "pick", "drafted" and "draft" are one. */
const stem = (word: string) => (word.length > 5 ? word.replace(/(?:ing|ed|es)$/, "") : word).slice(0, 5);

/** The stems of every word a side says: what a question's words are looked up in. */
const saidStems = remembered((text: string): ReadonlySet<string> => new Set(wordsOf(plain(text)).map(stem)));

/**
 * How a question says winning a legislature's election, compared as the act: "win the most
 * seats in the 2026 Quebec general election" is winning it.
 */
const ASKED_AS_WINNING = /\b(?:the )?most seats\b|\bgeneral(?= elections?\b)/gi;

/** Words of a window ("this year"), compared with the deadline, not as what is asked. */
const TIME_WORDS: ReadonlySet<string> = new Set([
  "year",
  "yearly",
  "annual",
  "end",
  "pm",
  "am",
  "et",
  "pt",
  "ct",
  "utc",
]);

/** Words naming the kind of occasion another word names: "the CA-04 primary (election)". */
const KIND_WORDS: ReadonlySet<string> = new Set(["election"]);

/** A timestamp in a title ("before 2026-02-01T15:00:00.000Z"): a date, not words. */
const ISO_TIME = /\b\d{4}-\d\d-\d\dT[\d:.]+Z?\b/g;

/**
 * Words that name the kind of an event or prize, not who or where: compared as the act.
 * "The 2026 American League MVP Award" is the American League MVP; "New York City FC" is
 * New York City.
 */
const EVENT_WORDS: ReadonlySet<string> = new Set([
  "award",
  "fc",
  "primary",
  "primaries",
  "election",
  "elections",
  "winner",
  "playoffs",
  "championship",
  // "the National League Championship Series" is the National League's championship, "the
  // Eastern Conference Finals" the Eastern Conference's.
  "series",
  "final",
  "finals",
  "season",
  "race",
]);

/**
 * Capitalised words that name no subject: question words, and the kind of an election that
 * its year already dates ("after the 2026 Midterm elections" / "in 2026").
 */
const STOP_NAMES: ReadonlySet<string> = new Set([
  "midterm",
  "midterms",
  "will",
  "who",
  "which",
  "what",
  "when",
  "how",
  "does",
  "did",
  "is",
  "are",
]);

/** Names written more than one way: each stands for the others. */
const ALIASES: ReadonlyArray<readonly string[]> = [
  ["us", "u s", "usa", "united states", "united states of america", "america"],
  ["oscars", "oscar", "academy awards", "academy award"],
  // The NFL's championship game, however a venue may name it.
  ["nfl super bowl", "super bowl", "nfl championship", "nfl league championship"],
  ["uk", "u k", "united kingdom", "britain", "great britain"],
  ["eu", "european union"],
  ["un", "united nations"],
];

/**
 * Words as spelled by sound, the way one name is written from another alphabet in several
 * spellings: y and i, a j before a vowel that starts a word, kh and h, w and v, ph and f,
 * and a doubled letter are one. "Yotova" and "Iotova", "Zelenskyy" and "Zelensky",
 * "Khamenei" and "Hamenei" read alike; "Iliana" and "Liliana" do not.
 */
const spokenAs = remembered((words: string) =>
  words
    .replace(/(^| )j(?=[aeiou])/g, "$1i")
    .replace(/y/g, "i")
    .replace(/kh/g, "h")
    .replace(/w/g, "v")
    .replace(/ph/g, "f")
    .replace(/(\p{L})\1+/gu, "$1"),
);

const plainWords = remembered((text: string) =>
  plain(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim(),
);

/**
 * What a rule says of a clause that pays yes on more than a rule silent on it does: a
 * departure announced, a call, an acting or co-role, every joint winner.
 */
const WIDENING: Readonly<Partial<Record<keyof Clauses, string>>> = {
  announcement: "enough",
  meeting: "remote counts",
  sharedRole: "counts",
  jointWinners: "all count",
};

/** What a rule silent on a clause said on one side only means. */
const UNSAID: Readonly<Partial<Record<keyof Clauses, string>>> = {
  death: "counts",
  office: "winning is enough",
};

/** The settlement clauses both rules state, compared: any that differ keep the pair from the same contract. */
export function compareClauses(p: Clauses, k: Clauses, reasons: string[], conflicts: string[]): void {
  const named: Record<keyof Clauses, string> = {
    meeting: "what counts as a meeting",
    agreement: "what counts as an agreement",
    death: "whether leaving by death counts",
    jointWinners: "how joint winners count",
    scope: "how much must change hands",
    ban: "what counts as a ban",
    sharedRole: "whether a shared or acting role counts",
    duration: "how long it must last",
    announcement: "whether an announcement is enough",
    office: "whether the winner must take office",
  };
  /** Clauses whose absence on one side is a reading of its own: any difference counts. */
  const saidOnOneSide = new Set<keyof Clauses>(["death", "ban", "office"]);
  for (const clause of Object.keys(named) as Array<keyof Clauses>) {
    const [pValue, kValue] = [p[clause], k[clause]];
    if (saidOnOneSide.has(clause)) {
      // Said on one side only: the other counts any way out, or reads the word its own way.
      const unsaid = UNSAID[clause] ?? "not defined";
      if (pValue !== kValue) {
        conflicts.push(`${named[clause]}: ${pValue ?? unsaid} (Polymarket) vs ${kValue ?? unsaid} (Kalshi)`);
      }
      continue;
    }
    if (!pValue || !kValue) {
      // Said on one side only, and wider than silence: the silent side pays on less.
      const said = pValue ?? kValue;
      if (said !== undefined && said === WIDENING[clause]) {
        conflicts.push(`${named[clause]}: ${pValue ?? "not said"} (Polymarket) vs ${kValue ?? "not said"} (Kalshi)`);
      }
      continue;
    }
    if (pValue === kValue) reasons.push(`same rule on ${named[clause]}: ${pValue}`);
    else conflicts.push(`${named[clause]}: ${pValue} (Polymarket) vs ${kValue} (Kalshi)`);
  }
}
