/**
 * What a contest is, where one word on one side changes it: an office under another (a
 * vice president, a lieutenant governor), the popular vote, the half of a league or season,
 * a threshold, the round of an election. Each adds what differs to the pair's conflicts, as
 * `compare-parts.ts` does. Found by writing such words into every development pair labelled
 * the same contract (`compare-contest.test.ts`).
 */
import { type Conflicts, otherQuestion } from "./compare-parts";
import { comparatorsOf, featuresOf, plain, remembered } from "./features";

/**
 * The office each question asks about, where a word puts it under another: a vice
 * president, a lieutenant governor, a deputy mayor is not the office it serves ("the
 * Democratic vice-presidential nominee" / "the Democratic nominee"), nor the Senate majority
 * leader the Senate. A question that names such an office asks another question than one
 * whose side never names it. One word the other side never says would otherwise pass as
 * style (`compareWording` wants most words unsaid).
 */
export function compareOffices(
  p: { asked: string; said: string },
  k: { asked: string; said: string },
  conflicts: Conflicts,
): void {
  const { pOnly, kOnly } = askedByOneSide(officesUnder, p, k);
  if (pOnly.length > 0 || kOnly.length > 0) {
    const [side, offices] = pOnly.length > 0 ? ["Polymarket", pOnly] : ["Kalshi", kOnly];
    otherQuestion(conflicts, `only ${side} asks of a ${offices.join(", ")}`);
  }
}

/**
 * Winning the popular vote is a measure of an election, not winning it (the electoral
 * college, a runoff, a parliament's vote decide that): asked on one side only, it is a
 * term of the question that differs, so the pair is related at most.
 */
export function comparePopularVote(
  p: { asked: string; said: string },
  k: { asked: string; said: string },
  conflicts: Conflicts,
): void {
  const popular = (text: string) => /\bpopular vote\b/i.test(text);
  if (popular(p.asked) === popular(k.asked)) return;
  if (popular(p.asked) ? popular(k.said) : popular(p.said)) return;
  conflicts.push(`only ${popular(p.asked) ? "Polymarket" : "Kalshi"} asks of the popular vote`);
}

/**
 * An office under another: its modifier (written out or short) and the office it serves; a
 * chamber's majority or minority leader or whip, an office of the chamber.
 */
const OFFICE_UNDER =
  /\b(vice|lieutenant|lt|deputy|assistant)[\s.-]*(presiden(?:tial|t|cy)|governor(?:ship)?|mayor(?:al)?|prime minister|chair(?:man|woman)?|secretary|speaker|minister|leader)\b|\b(majority|minority)[\s-]+(leader|whip)\b|\bvp\b/g;

/** The offices `OFFICE_UNDER` reads, each known by its first five letters ("presidency"). */
const OFFICES = [
  "president",
  "governor",
  "mayor",
  "prime minister",
  "chair",
  "secretary",
  "speaker",
  "minister",
  "leader",
];

const officesUnder = remembered((text: string): ReadonlySet<string> => {
  const found = new Set<string>();
  for (const match of plain(text).toLowerCase().matchAll(OFFICE_UNDER)) {
    if (match[0] === "vp") {
      found.add("vice president");
      continue;
    }
    if (match[3]) {
      found.add(`${match[3]} ${match[4]}`);
      continue;
    }
    const modifier = match[1] === "lt" ? "lieutenant" : (match[1] as string);
    const office = OFFICES.find((name) => (match[2] as string).startsWith(name.slice(0, 5))) ?? match[2];
    found.add(`${modifier} ${office}`);
  }
  return found;
});

/**
 * The round each side asks about, where both name one: the first round of an election and
 * its second are two questions ("win the first round" / "win the second round"). A side
 * whose question names none is read by its rules.
 */
export function compareRounds(
  p: { asked: string; rules: string | null },
  k: { asked: string; rules: string | null },
  conflicts: Conflicts,
): void {
  const roundsOf = (side: { asked: string; rules: string | null }) => {
    const asked = roundsNamed(side.asked);
    return asked.size > 0 ? asked : roundsNamed(side.rules ?? "");
  };
  const [pRounds, kRounds] = [roundsOf(p), roundsOf(k)];
  if (pRounds.size === 0 || kRounds.size === 0 || [...pRounds].some((round) => kRounds.has(round))) return;
  otherQuestion(
    conflicts,
    `another round: ${[...pRounds].join(", ")} (Polymarket) vs ${[...kRounds].join(", ")} (Kalshi)`,
  );
}

/** A round's number, however it is written. */
const ROUND_NUMBERS: Readonly<Record<string, number>> = Object.fromEntries(
  [
    ["first", "1st", "one", "1"],
    ["second", "2nd", "two", "2"],
    ["third", "3rd", "three", "3"],
  ].flatMap((names, index) => names.map((name) => [name, index + 1])),
);

const ROUND_NAMED =
  /\b(first|1st|second|2nd|third|3rd)[\s-]+(round|ballot)\b|\b(round|ballot)\s+(one|two|three|[123])\b/g;

const roundsNamed = remembered((text: string): ReadonlySet<string> => {
  const found = new Set<string>();
  for (const match of text.toLowerCase().matchAll(ROUND_NAMED)) {
    const [ordinal, noun] = match[1] ? [match[1], match[2]] : [match[4], match[3]];
    found.add(`${noun} ${ROUND_NUMBERS[ordinal as string]}`);
  }
  return found;
});

/**
 * The half of a league, a map or a season each side asks about, where both name one: the
 * Eastern Conference and the Western, the American League and the National (AL / NL, AFC /
 * NFC), the regular season and the playoffs are two competitions, though every other word
 * of the two questions ("Conference Finals MVP", "Hank Aaron Award") is one.
 */
export function compareSides(
  p: { asked: string; said: string },
  k: { asked: string; said: string },
  conflicts: Conflicts,
): void {
  const { pOnly, kOnly } = askedByOneSide(sidesNamed, p, k);
  const rival = pOnly.find((side) => kOnly.some((other) => SIDES[side]?.group === SIDES[other]?.group));
  if (rival === undefined) return;
  const others = kOnly.filter((other) => SIDES[other]?.group === SIDES[rival]?.group);
  otherQuestion(conflicts, `another half: ${rival} (Polymarket) vs ${others.join(", ")} (Kalshi)`);
}

/** Each half by the words that name it, and the whole it is half of. */
const SIDES: Readonly<Record<string, { group: string }>> = {
  east: { group: "compass" },
  west: { group: "compass" },
  north: { group: "compass" },
  south: { group: "compass" },
  "american league": { group: "league" },
  "national league": { group: "league" },
  "regular season": { group: "season" },
  postseason: { group: "season" },
};

const SIDE_NAMED = /\b(east|west|north|south)(?:ern)?\b|\b(american|national) league\b/gi;
const SEASON_PART = /\bregular[\s-]season\b|\b(?:playoffs?|post-?season)\b/gi;
/** Initials in capitals only: "al" is also a name's article ("Al Nassr", "al-Sharaa"). */
const LEAGUE_INITIALS = /\b(AL|NL|AFC|NFC)\b/g;

const sidesNamed = remembered((text: string): ReadonlySet<string> => {
  const found = new Set<string>();
  for (const match of plain(text).matchAll(SIDE_NAMED)) {
    found.add(match[1] ? match[1].toLowerCase() : `${match[2]?.toLowerCase()} league`);
  }
  for (const [part] of plain(text).matchAll(SEASON_PART)) {
    found.add(/^regular/i.test(part) ? "regular season" : "postseason");
  }
  for (const [initials] of text.matchAll(LEAGUE_INITIALS)) {
    found.add(initials === "AL" || initials === "AFC" ? "american league" : "national league");
  }
  return found;
});

/**
 * A threshold one question asks ("win by more than 10 points", "more than 40% of the vote")
 * that the other side never states, in its question or its rules: a term of the question
 * that differs, so the pair is related at most. Thresholds both state are `compareNumbers`'.
 */
export function compareThresholds(
  p: { asked: string; said: string },
  k: { asked: string; said: string },
  conflicts: Conflicts,
): void {
  const unstated = (asked: string, other: string) => {
    const stated = featuresOf(other).quantities;
    return [...comparatorsOf(asked).keys()].filter((value) => !stated.some((quantity) => quantity.value === value));
  };
  for (const [side, values] of [
    ["Polymarket", unstated(p.asked, k.said)],
    ["Kalshi", unstated(k.asked, p.said)],
  ] as const) {
    if (values.length > 0) conflicts.push(`only ${side} asks a threshold: ${values.join(", ")}`);
  }
}

/** What each side's question names, by `read`, that the other side never says anywhere. */
function askedByOneSide(
  read: (text: string) => ReadonlySet<string>,
  p: { asked: string; said: string },
  k: { asked: string; said: string },
): { pOnly: string[]; kOnly: string[] } {
  const [pSaid, kSaid] = [read(p.said), read(k.said)];
  return {
    pOnly: [...read(p.asked)].filter((named) => !kSaid.has(named)),
    kOnly: [...read(k.asked)].filter((named) => !pSaid.has(named)),
  };
}
