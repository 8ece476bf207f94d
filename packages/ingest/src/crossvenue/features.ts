/**
 * What a market's texts say, as comparable features: the words that carry meaning, the
 * named entities, the numbers with their units (thresholds: "above 4.5%", "$120k"), the
 * calendar dates, the direction of a threshold ("above", "below") and the resolution
 * sources named in the rules. Pure and deterministic: the matcher's reasons are built from
 * these, so a person can see why two markets were or were not paired.
 */

export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an and or the of in on at to for by from with as is be are was were will would won't does do did " +
    "this that these those it its than then there their what which who whom whose when where how " +
    "any all each more less most least over under above below before after between during until " +
    "yes no not market markets price resolve resolves resolved resolution according source official " +
    "if else end ends ending close closes closed within per next new one two three first last least"
  ).split(" "),
);

const MONTHS: Record<string, number> = {
  jan: 1,
  january: 1,
  feb: 2,
  february: 2,
  mar: 3,
  march: 3,
  apr: 4,
  april: 4,
  may: 5,
  jun: 6,
  june: 6,
  jul: 7,
  july: 7,
  aug: 8,
  august: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  nov: 11,
  november: 11,
  dec: 12,
  december: 12,
};

/** Words the venues write two ways: "BTC" on one, "Bitcoin" on the other. */
const SAME_WORDS: Readonly<Record<string, string>> = {
  btc: "bitcoin",
  xbt: "bitcoin",
  eth: "ethereum",
  ether: "ethereum",
  sol: "solana",
  xrp: "ripple",
  doge: "dogecoin",
};

const MONTH_NAMES = [
  "",
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/** Organisations whose data decides markets; two rules naming different ones resolve differently. */
const RESOLUTION_SOURCES: Record<string, RegExp> = {
  "Associated Press": /\b(associated press|ap news|\bAP\b)/i,
  "Federal Reserve": /\b(federal reserve|fomc)\b/i,
  BLS: /\b(bureau of labor statistics|bls)\b/i,
  BEA: /\b(bureau of economic analysis|bea)\b/i,
  Binance: /\bbinance\b/i,
  Coinbase: /\bcoinbase\b/i,
  CoinGecko: /\bcoingecko\b/i,
  CoinMarketCap: /\bcoinmarketcap\b/i,
  Chainlink: /\bchainlink\b/i,
  "CF Benchmarks": /\bcf benchmarks\b|\bbrti\b/i,
  NOAA: /\b(noaa|national weather service|nws)\b/i,
  "Rotten Tomatoes": /\brotten tomatoes\b/i,
  "Box Office Mojo": /\bbox office mojo\b/i,
  ESPN: /\bespn\b/i,
};

export interface Quantity {
  value: number;
  unit: "%" | "$" | "°" | "bps" | "";
}

/**
 * What a question asks about its subject, in groups of words that mean the same act: two
 * markets about the same team or person that ask different things ("win the World Cup" /
 * "qualify for the Final", "leave office" / "meet Trump") are different contracts.
 */
const ACTIONS: Record<string, RegExp> = {
  // "the 2026 NBA champion", "win the NL East title": the title is what is won; a law's
  // "Title VII" is a part of it.
  win: /\b(win|wins|won|winner|champion|title(?! (?:[ivxlc]+|\d+)\b))\b/,
  qualify: /\b(qualify|qualifies|qualified|advance to)\b/,
  stage: /\b(final|finals|semifinal|semifinals|semi-final|quarterfinal|quarterfinals|round of|group stage)\b/,
  leave: /\b(out|leave|leaves|left|resign|resigns|removed|ousted|exit|step down|steps down)\b/,
  remain: /\b(remain|remains|stay|stays)\b/,
  meet: /\b(meet|meets|meeting|talk to|talks to|speak with|speaks with)\b/,
  travel: /\b(visit|visits|enter|enters|travel to|travels to|set foot in)\b/,
  say: /\b(say|says|said|mention|mentions|tweet|tweets)\b/,
  recognise: /\b(recognize|recognizes|recognise|recognises|recognition)\b/,
  nominate: /\b(nominate|nominates|nominated|nomination|nominee)\b/,
  announce: /\b(announce|announces|announced)\b/,
  // "the next Supreme Leader", not "the next presidential election".
  succeed: /\b(next(?!(?:\s+[a-z]+){0,4}\s+elections?\b)|successor|become(?! law)|becomes(?! law))\b/,
  enact: /\b(becomes? law|signed into law|enacted|enacts)\b/,
  lead: /\b(lead|leads|rule|rules)\b/,
  handshake: /\b(shake hands|shakes hands|handshake)\b/,
  pardon: /\b(pardon|pardons|pardoned|clemency|commutation|commuted)\b/,
  divorce: /\b(divorce|divorces|divorced)\b/,
  pregnant: /\b(pregnant|pregnancy|baby)\b/,
  wealth: /\b(trillionaire|billionaire|richest|wealthiest|net worth)\b/,
  acquire: /\b(acquire|acquires|acquired|acquisition|buy|buys|bought|purchase|purchases)\b/,
  honour: /\b(person of the year|awarded|honou?red)\b/,
  // Being on a show or in a film: "appear on the UpOnly podcast", "perform as Hulk in
  // Avengers: Doomsday", "an episode featuring the guest".
  appear: /\b(appear|appears|appeared|appearance|perform|performs|performed|featuring|featured)\b/,
  // Losing, finishing second or in the top few, going down or pulling out are not winning.
  lose: /\b(lose|loses|lost|losing)\b/,
  place: /\b(runner-?up|runners-?up|second place|finish(?:es)? (?:second|2nd)|top[\s-]\d+|podium)\b/,
  relegate: /\b(relegated|relegation)\b/,
  withdraw: /\b(withdraw|withdraws|withdrew|drop out|drops out|dropped out)\b/,
  // Running is not winning: "runs for Senate", "a run for president", "candidacy".
  run: /\b(?:runs?|running|ran) (?:for|in)\b|\bcandidacy\b/,
};

/** The acts a text asks about (`ACTIONS`' names). */
export function actionsOf(text: string): Set<string> {
  const acts = actsOf(text);
  // Winning a primary or a nomination is being nominated: "win the Kansas Republican
  // primary", "win the 2028 Republican presidential nomination" / "the Republican nominee".
  if (acts.has("win") && (/\bprimar(y|ies)\b/i.test(text) || /\bwins?\b[^.?!]*\bnomination\b/i.test(text))) {
    acts.delete("win");
    acts.add("nominate");
  }
  // Finishing first is winning: "finish first in Group F" / "win Group F".
  if (FINISH_FIRST.test(plain(text))) acts.add("win");
  // Reaching a stage is qualifying for it: "reach the final" / "qualify for the Final".
  if (acts.has("stage") && REACH.test(plain(text))) acts.add("qualify");
  // Finals won are the title they decide, not a stage reached: "wins the Eastern Conference
  // Finals" is winning the Eastern Conference, "the NBA Finals winner" the NBA's champion.
  else if (acts.has("win") && FINALS_WON.test(plain(text)) && !OTHER_STAGE.test(plain(text))) acts.delete("stage");
  return acts;
}

const FINISH_FIRST = /\b(finish|finishes|place|places|come|comes)\s+(first|1st|in first place)\b/i;
const FINALS_WON = /\b(?:wins?|won)\b(?:\s+the)?(?:\s+[\w'.-]+){0,5}?\s+finals?\b|\bfinals?\s+(?:winner|champion)\b/i;
const OTHER_STAGE = /\b(semi-?finals?|quarter-?finals?|round of|group stage)\b/i;
const REACH = /\b(reach|reaches|reached|make it to|makes it to|advance to|advances to)\b/i;

function actsOf(text: string): Set<string> {
  // A capitalised "Final" opening a title ("Final Fantasy VII") is a name, not a stage.
  const lower = plain(text)
    .replace(/\bFinal(?=\s+(?!Four\b|Round\b)[A-Z])/g, "")
    .toLowerCase()
    // "Won't" is no win.
    .replace(/\bwon['’]t\b/g, "will not");
  return new Set(Object.entries(ACTIONS).flatMap(([name, pattern]) => (pattern.test(lower) ? [name] : [])));
}

/**
 * A question asked in the negative: its own verb denied ("not be", "fail to win", "won't"),
 * not a word of what it asks about ("any territory not under its sovereignty", "not later
 * than") nor of a clause inside it ("any candidate who is NOT …", "rule that Section 230
 * does not immunize …", "(not merely in an annex)").
 */
export function isNegated(question: string): boolean {
  // A clause opens inside the question, not at its start ("Who will not be …?").
  const [main = ""] = plain(question).split(/[(,]|(?<=\w\s+)(?:who|whom|whose|which|that|where)\b/i);
  return NEGATED.test(main);
}

const NEGATED =
  /\b(?:not|never|no longer)\s+(?!(?:under|in|on|as|at|by|of|to|from|for|including|counting|only|just|even|yet|more|less|later|earlier|before|after|a|an|the|all|any)\b)[a-z]|\bfail(?:s|ed)? to\b|\b(?:won|isn|doesn|don|didn|aren)['’]t\b/i;

export const isMonth = (word: string): boolean => word in MONTHS;

/**
 * A pure reading of a text, remembered: a pass scores each market against up to eight
 * candidates, so the same question and rules are read again and again. What it answers is
 * shared between callers and only read. Bounded: forgotten all at once when full.
 */
export function remembered<T>(read: (text: string) => T, capacity = 8_192): (text: string) => T {
  const seen = new Map<string, T>();
  return (text) => {
    const known = seen.get(text);
    if (known !== undefined) return known;
    if (seen.size >= capacity) seen.clear();
    const value = read(text);
    seen.set(text, value);
    return value;
  };
}

/** Letters without their accents: "Curaçao" and "Curacao" are one name. */
export function plain(text: string): string {
  return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
}

/** A text's reading; `featuresOf` shares one between its callers, so it is read-only. */
export interface TextFeatures {
  /** Meaningful words, lower-cased, light plural stripping. */
  readonly words: ReadonlySet<string>;
  /** Capitalised names (people, places, organisations, tickers), lower-cased. */
  readonly entities: ReadonlySet<string>;
  readonly quantities: readonly Quantity[];
  /** Dates named in the text, as `MM-DD` (with `YYYY-` when a year is given). */
  readonly dates: readonly string[];
  /** Years named. */
  readonly years: ReadonlySet<number>;
  readonly direction: "above" | "below" | undefined;
}

export function wordsOf(text: string): string[] {
  return (
    text
      .toLowerCase()
      .replace(/['’]s\b/g, "")
      .split(/[^a-z0-9]+/)
      .filter((word) => word.length > 1 && !STOP_WORDS.has(word) && !/^\d+$/.test(word))
      // "Jun" and "June" are one word, as are "markets" and "market".
      .map((word) => (word in MONTHS ? (MONTH_NAMES[MONTHS[word] as number] as string) : word))
      .map((word) => SAME_WORDS[word] ?? word)
      .map((word) => (word.length > 4 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word))
  );
}

export const featuresOf: (text: string) => TextFeatures = remembered(readFeatures);

function readFeatures(text: string): TextFeatures {
  const clean = plain(text).replace(/\s+/g, " ").trim();
  return {
    words: new Set(wordsOf(clean)),
    entities: entitiesOf(clean),
    quantities: quantitiesOf(clean),
    dates: datesOf(clean),
    years: new Set([...clean.matchAll(YEAR)].map((match) => yearOf(match[1] as string, match[2]))),
    direction: directionOf(clean),
  };
}

/**
 * A year, or a season across two ("the 2025-26 season", "2025-2026 PFA Player of the
 * Year"), which is named by the year it ends in: its awards and finals fall then.
 */
export const YEAR = /\b(20[2-4]\d)(?:\s?[-–/]\s?(?:20)?(\d\d))?\b/g;

/** The year of `YEAR`'s two groups. */
export function yearOf(year: string, next: string | undefined): number {
  const first = Number(year);
  return next !== undefined && Number(next) === (first + 1) % 100 ? first + 1 : first;
}

function entitiesOf(text: string): Set<string> {
  const entities = new Set<string>();
  // Runs of capitalised words (and tickers); a sentence's first word alone is not a name.
  // A capital with one digit is a name of its own ("F1", "G7"), not the letter alone.
  for (const match of text.matchAll(
    /\b([A-Z](?:\d(?![\d-])|[a-zA-Z.&'-]*)(?:\s+(?:of|the|de|van|von)?\s*[A-Z][a-zA-Z.&'-]*)*)/g,
  )) {
    const isSentenceStart = match.index === 0 || /[.?!:]\s*$/.test(text.slice(0, match.index));
    // "Will Trump …": the question's own first word is not part of the name.
    // A name ends before a full stop or a possessive: "ET." is "ET", "Trump's" is "Trump".
    const words = (match[1] as string)
      .trim()
      .replace(/(?:['’]s|\.)+$/, "")
      .split(/\s+/);
    const runLength = words.length;
    while (words.length > 1 && STOP_WORDS.has((words[0] as string).toLowerCase())) words.shift();
    const name = words.join(" ");
    // Only a word that opens the sentence itself may be a capital of style; "Will Israel"
    // has its name second.
    if (isSentenceStart && runLength === 1) continue;
    const lower = name.toLowerCase();
    if (STOP_WORDS.has(lower) || lower in MONTHS) continue;
    entities.add(lower);
    // "Donald Trump" also names "trump": a surname alone matches the full name.
    if (words.length > 1) entities.add((words[words.length - 1] as string).toLowerCase());
  }
  return entities;
}

const MULTIPLIERS: Record<string, number> = {
  k: 1e3,
  thousand: 1e3,
  m: 1e6,
  million: 1e6,
  b: 1e9,
  billion: 1e9,
  t: 1e12,
  trillion: 1e12,
};

function quantitiesOf(text: string): Quantity[] {
  return quantityMatches(text).map(({ value, unit }) => ({ value, unit }));
}

/** The quantities of a text with where each stands in it. */
function quantityMatches(text: string): Array<Quantity & { start: number; end: number }> {
  const found: Array<Quantity & { start: number; end: number }> = [];
  // A hyphen after a letter or digit joins a name ("NY-12", "COVID-19", "GPT-5"): no minus.
  const pattern =
    /(\$)?\s?((?:(?<![a-z0-9])-)?\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?:(?<![a-z0-9])-)?\d+(?:\.\d+)?)\s?(k|m|b|t|thousand|million|billion|trillion)?\b\s?(%|percent|bps|basis points|°f|°c|°|degrees)?/gi;
  for (const match of text.matchAll(pattern)) {
    const [whole, dollar, digits, scale, suffix] = match;
    // A year, a day of a month or a time of day is a date, not a quantity.
    const number = Number((digits as string).replaceAll(",", ""));
    const before = text.slice(Math.max(0, (match.index ?? 0) - 12), match.index);
    if (!dollar && !scale && !suffix && (/^(19|20)\d\d$/.test(digits as string) || isDayOfMonth(before, number)))
      continue;
    if (!dollar && !scale && !suffix && /\d:\d/.test(whole as string)) continue;
    const value = number * (scale ? (MULTIPLIERS[scale.toLowerCase()] ?? 1) : 1);
    const unitText = (suffix ?? "").toLowerCase();
    const unit: Quantity["unit"] = dollar
      ? "$"
      : unitText === "%" || unitText === "percent"
        ? "%"
        : unitText.startsWith("b")
          ? "bps"
          : unitText.startsWith("°") || unitText === "degrees"
            ? "°"
            : "";
    const start = match.index ?? 0;
    found.push({ value: Math.round(value * 1e6) / 1e6, unit, start, end: start + (whole as string).length });
  }
  return found;
}

/** How a threshold is compared: whether the value itself counts as yes. */
export type Comparator = ">=" | ">" | "<=" | "<";

/**
 * The comparator each threshold of a text is said with, by its value: "at least 60",
 * "60 days or more" and "≥ 60" include 60; "above 60" and "more than 60" do not. A value
 * said several ways keeps the first.
 */
export const comparatorsOf = remembered((text: string): ReadonlyMap<number, Comparator> => {
  const found = new Map<number, Comparator>();
  const clean = plain(text).replace(/\s+/g, " ").toLowerCase();
  for (const { value, start, end } of quantityMatches(clean)) {
    if (found.has(value)) continue;
    const before = clean.slice(Math.max(0, start - 40), start);
    const after = clean.slice(end, end + 40);
    const comparator = COMPARATORS.find(([, place, pattern]) =>
      place === "before" ? pattern.test(before) : pattern.test(after),
    )?.[0];
    if (comparator) found.set(value, comparator);
  }
  return found;
});

const COMPARATORS: ReadonlyArray<readonly [Comparator, "before" | "after", RegExp]> = [
  [">=", "after", /^\s*(?:[a-z%°]+\s+){0,2}or (more|higher|above|greater|over)\b/],
  ["<=", "after", /^\s*(?:[a-z%°]+\s+){0,2}or (less|lower|below|fewer|under)\b/],
  [
    ">=",
    "before",
    /(\bat least|\bno less than|\bor equal to|\b(?:equal to|at) or (?:greater|more|higher|above)(?: than)?|\bminimum of|≥|>=)\s*\$?\s*$/,
  ],
  [
    "<=",
    "before",
    /(\bat most|\bno more than|\b(?:equal to|at) or (?:less|lower|below|fewer)(?: than)?|\bmaximum of|≤|<=)\s*\$?\s*$/,
  ],
  [">", "before", /(\babove|\bmore than|\bgreater than|\bexceeds?|\bexceeding|\bover|\bhigher than|>)\s*\$?\s*$/],
  ["<", "before", /(\bbelow|\bless than|\bunder|\blower than|\bfewer than|<)\s*\$?\s*$/],
];

function isDayOfMonth(before: string, value: number): boolean {
  const month = /([a-z]+)\.?\s*$/i.exec(before)?.[1]?.toLowerCase();
  return month !== undefined && month in MONTHS && value >= 1 && value <= 31;
}

function datesOf(text: string): string[] {
  const dates = new Set<string>();
  const pad = (n: number) => String(n).padStart(2, "0");
  for (const match of text.matchAll(/\b([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(20\d\d))?\b/g)) {
    const month = MONTHS[(match[1] as string).toLowerCase()];
    const day = Number(match[2]);
    if (month && day >= 1 && day <= 31) dates.add(`${match[3] ? `${match[3]}-` : ""}${pad(month)}-${pad(day)}`);
  }
  for (const match of text.matchAll(/\b(20\d\d)-(\d{2})-(\d{2})\b/g)) dates.add(`${match[1]}-${match[2]}-${match[3]}`);
  return [...dates];
}

function directionOf(text: string): TextFeatures["direction"] {
  const lower = text.toLowerCase();
  const above =
    /\b(above|over|more than|greater than|at least|exceed|exceeds|higher than|or more|reach|hit)\b|≥|>/.test(lower);
  const below = /\b(below|under|less than|fewer than|lower than|at most|or less|drop|fall)\b|≤|</.test(lower);
  if (above === below) return undefined;
  return above ? "above" : "below";
}

/** The resolution sources a rules text names. */
export function sourcesOf(text: string): Set<string> {
  const names = new Set<string>();
  for (const [name, pattern] of Object.entries(RESOLUTION_SOURCES)) if (pattern.test(text)) names.add(name);
  return names;
}

/**
 * The deadline a question sets, as the first day it no longer counts (`YYYY-MM-DD`), read
 * from the ways the venues say it: "before Jan 1, 2027", "by June 30" (through that day),
 * "by end of April", "in 2026" / "by end of 2026" / "this year" (through Dec 31), "in March
 * 2026", "before 2027" (a year as a deadline, not the year asked about). `year` fills in a
 * date said without one. Also answers the text without the deadline's words, so its dates
 * and years are not read again as dates and years of the question.
 */
export function deadlineOf(text: string, year?: number): { end: string | undefined; rest: string; from?: string } {
  const clean = plain(text);
  const pad = (n: number) => String(n).padStart(2, "0");
  const iso = (y: number, m: number, d: number) => {
    const date = new Date(Date.UTC(y, m - 1, d));
    return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  };
  const month = (name: string) => MONTHS[name.toLowerCase().replace(/\.$/, "")];
  const MONTH =
    "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?";
  const rules: Array<[RegExp, (m: RegExpExecArray) => string | undefined]> = [
    // "by June 30", "by December 31, 2026", "on or before June 30": through that day
    [
      new RegExp(
        `\\b(?:by|on or before|through|until)\\s+${MONTH}\\s+(\\d{1,2})(?!\\d)(?:st|nd|rd|th)?(?:,?\\s+(20\\d\\d))?`,
        "i",
      ),
      (m) => withYear(m[3], (y) => iso(y, month(m[1] as string) as number, Number(m[2]) + 1)),
    ],
    // "between market creation and December 31, 2026": through that day
    [
      new RegExp(
        `\\bbetween\\b[^.]{0,80}?\\band\\s+${MONTH}\\s+(\\d{1,2})(?!\\d)(?:st|nd|rd|th)?(?:,?\\s+(20\\d\\d))?`,
        "i",
      ),
      (m) => withYear(m[3], (y) => iso(y, month(m[1] as string) as number, Number(m[2]) + 1)),
    ],
    // "before Jan 1, 2027", "before April 1"; "before Jan 1" without a year is the next one's
    // (a year named in the texts is the year asked about, whose end it is).
    [
      new RegExp(`(?<!on or )\\bbefore\\s+${MONTH}\\s+(\\d{1,2})(?!\\d)(?:st|nd|rd|th)?(?:,?\\s+(20\\d\\d))?`, "i"),
      (m) => {
        const [monthOf, day] = [month(m[1] as string) as number, Number(m[2])];
        const isNewYear = !m[3] && monthOf === 1 && day === 1;
        return withYear(m[3], (y) => iso(isNewYear ? y + 1 : y, monthOf, day));
      },
    ],
    // "by end of April", "by the end of April 2026"
    [
      new RegExp(`\\bby\\s+(?:the\\s+)?end\\s+of\\s+${MONTH}(?:\\s+(20\\d\\d))?`, "i"),
      (m) => withYear(m[2], (y) => iso(y, (month(m[1] as string) as number) + 1, 1)),
    ],
    // "by end of 2026", "by the end of 2026"
    [/\bby\s+(?:the\s+)?end\s+of\s+(20\d\d)\b/i, (m) => iso(Number(m[1]) + 1, 1, 1)],
    // "in March 2026", "in March" (the year the texts name): a month's window, opening on
    // its first day (below)
    [
      new RegExp(`\\b(?:in|during)\\s+${MONTH}(?:\\s+(20\\d\\d))?(?![\\w-])`, "i"),
      (m) => withYear(m[2], (y) => iso(y, (month(m[1] as string) as number) + 1, 1)),
    ],
    // "before May 2025": the month's first day
    [
      new RegExp(`\\bbefore\\s+${MONTH}\\s+(20\\d\\d)\\b`, "i"),
      (m) => iso(Number(m[2]), month(m[1] as string) as number, 1),
    ],
    // "before 2027"
    [/\bbefore\s+(20\d\d)\b/i, (m) => iso(Number(m[1]), 1, 1)],
    // "in 2026", "during 2026"
    [/\b(?:in|during)\s+(20\d\d)\b/i, (m) => iso(Number(m[1]) + 1, 1, 1)],
    // "this year", "by end of year", "by the end of the year"
    [/\b(?:this year|by (?:the )?end of (?:the )?year)\b/i, () => withYear(undefined, (y) => iso(y + 1, 1, 1))],
  ];
  function withYear(given: string | undefined, build: (year: number) => string): string | undefined {
    const known = given ? Number(given) : year;
    return known === undefined ? undefined : build(known);
  }
  for (const [pattern, build] of rules) {
    const match = pattern.exec(clean);
    if (!match) continue;
    const end = build(match);
    if (!end) continue;
    const rest = `${clean.slice(0, match.index)} ${clean.slice(match.index + match[0].length)}`;
    // A month's window opens on its first day: "in December 2026" asks less than "before 2027".
    const isMonthWindow = new RegExp(`^(?:in|during)\\s+${MONTH}`, "i").test(match[0]);
    if (!isMonthWindow) return { end, rest };
    const [y, m] = end.split("-").map(Number) as [number, number];
    return { end, rest, from: iso(y, m - 1, 1) };
  }
  return { end: undefined, rest: clean };
}
