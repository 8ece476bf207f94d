/**
 * The settlement clauses of a market's rules, read as values two markets can be compared
 * on (`compareClauses`): a clause one side states that the other states otherwise, or that
 * widens yes on one side only, keeps a pair from the same contract.
 */
import { plain } from "./features";

/**
 * Settlement clauses that make two markets on one question settle differently, each read
 * from a side's rules as a value: whether a call or video counts as a meeting, whether an
 * agreement must be signed or ratified (or an announcement is enough), whether leaving by
 * death counts, whether joint winners all count. Undefined where the rules do not say.
 */
export interface Clauses {
  meeting?: "in person" | "remote counts";
  agreement?: "signed or ratified" | "announced";
  death?: "does not count";
  jointWinners?: "all count" | "first listed";
  /** How much of a territory or thing must change hands. */
  scope?: "any part" | "the whole or a majority";
  /** What makes an app or service "banned": said on one side only, the other's "ban" is its own reading. */
  ban?: "removed from app stores" | "unavailable to users";
  /** Whether a shared or acting role (co-CEO, interim) counts as the change asked about. */
  sharedRole?: "counts" | "does not count";
  /** How long what is asked must hold or run ("reauthorizes … for two years"). */
  duration?: string;
  /** Whether the winner must take office ("sworn in"), not only win the election. */
  office?: "taking office";
  /** Whether announcing the act settles the market, or the act itself (or its set date) must happen. */
  announcement?: "enough" | "the act must happen";
}

export function clausesOf(rules: string, general?: string | null): Clauses {
  // The market's own rule first; the series' general terms ("physically or virtually, as
  // specified") only for what it leaves unsaid.
  if (general) return { ...clausesOf(general), ...definedOnly(clausesOf(rules)) };
  const text = plain(rules).toLowerCase();
  const clauses: Clauses = {};
  // A sentence on calls says whether they count: "(including phone calls)", or "phone calls
  // will not count".
  const onCalls = text
    .split(/(?<=[.;])\s+/)
    .filter((sentence) => /\b(phone|video|telephone)\b|\bvirtual (meeting|call)s?\b/.test(sentence));
  const isRemoteRefused = onCalls.some((sentence) => /\b(not|no|never|excluding|excluded|exclude)\b/.test(sentence));
  // Calls named in a sentence that does not refuse them count.
  if (onCalls.length > 0 && !isRemoteRefused) {
    clauses.meeting = "remote counts";
  } else if (isRemoteRefused || /\bin[- ]person\b|\bface[- ]to[- ]face\b|\bsame physical location\b/.test(text)) {
    clauses.meeting = "in person";
  }
  if (/\b(ratified|ratification|signed by|formal(ly)? written agreement|formally signed)\b/.test(text)) {
    clauses.agreement = "signed or ratified";
  } else if (
    /\b(officially|publicly|formally)\s+announce|\bannounce(s|d)?\s+(an?|the)\s+(agreement|deal)\b/.test(text)
  ) {
    clauses.agreement = "announced";
  }
  // "Death does NOT satisfy…", or a death settles at the last traded price instead.
  if (
    /\bdeath\b[^.]{0,80}\b(does not|doesn't|will not|won't|shall not)\s+(satisfy|count|qualify|resolve)/.test(text) ||
    /\bdeath\b[^.]{0,40}\bis not (encompassed|included|counted)\b/.test(text) ||
    /\b(died|dies|death)\b[^.]{0,200}\blast traded price\b/.test(text)
  ) {
    clauses.death = "does not count";
  }
  if (/\b(multiple|more than one|joint)\b[^.]{0,60}\b(win|winners?|named)\b[^.]{0,80}\ball\b/.test(text)) {
    clauses.jointWinners = "all count";
  } else if (/\bfirst (listed|named|mentioned)\b/.test(text)) {
    clauses.jointWinners = "first listed";
  }
  if (/\b(removed|removal|unavailable for download)\b[^.]{0,60}\b(app store|play store|app stores)\b/.test(text)) {
    clauses.ban = "removed from app stores";
  } else if (/\b(banned|ban)\b[^.]{0,120}\b(inaccessible|unavailable|cannot be accessed|blocked)\b/.test(text)) {
    clauses.ban = "unavailable to users";
  }
  // To the sentence's end: "Temporary, interim, or placeholder governors appointed by any
  // means before the specified election will not be considered."
  const sharedRole = /\b(co-ceo|co-chief|interim|acting)\b[^.]{0,160}/.exec(text)?.[0];
  if (sharedRole) {
    clauses.sharedRole = /\b(not|no|never|excluding|excluded|exclude|will not|won't)\b/.test(sharedRole)
      ? "does not count"
      : "counts";
  }
  // Refusals first: "Announcements alone will not qualify" says an announcement is not enough.
  if (
    /\bannounce\w*\b[^.]{0,40}\b(alone )?(will not|won't|does not|do not|shall not|is not|are not)\b[^.]{0,20}\b(qualify|count|suffice|sufficient|enough)\b/.test(
      text,
    ) ||
    /\bmust (actually )?(be|have been) (opened|completed|held|implemented|enacted|carried out|in effect)\b|\bmust actually have\b/.test(
      text,
    )
  ) {
    clauses.announcement = "the act must happen";
  } else if (
    /\bannounc\w*\b[^.]{0,160}\b((will|shall|would) (also )?(qualify|count|suffice)|(also )?(qualifies|counts|suffices))\b|\bannouncement\b[^.]{0,160}\bis also encompassed\b|\bor announces?\b/.test(
      text,
    )
  ) {
    clauses.announcement = "enough";
  }
  // "If … is sworn in as the governor of Alaska pursuant to the election in 2026": a winner who
  // never takes office settles it otherwise than "wins the election".
  // Asking who "officially holds the position of the head of state" on a day asks the same, as
  // does who "de facto holds and exercises the powers of the head of state".
  if (
    /\b(?:is|are|be|gets?) (?:sworn in|inaugurated)\b|\b(?:sworn in|inaugurated|takes? office) as\b|\bholds?(?: and exercises)? the (?:position|office|powers|role) of\b/.test(
      text,
    )
  ) {
    clauses.office = "taking office";
  }
  if (/\bfor any (length of time|duration|period)\b/.test(text)) clauses.duration = "any length";
  else {
    const span =
      /\bfor (?:at least |a period of )?(\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|eighteen)[- ](year|month|week|day)s?\b/.exec(
        text,
      );
    if (span) clauses.duration = `${span[1]} ${span[2]}s`;
  }
  if (/\b(any part|at least part|any portion)\b/.test(text)) clauses.scope = "any part";
  else if (/\b(majority of|entire|entirety|all of)\b/.test(text)) clauses.scope = "the whole or a majority";
  return clauses;
}

function definedOnly(clauses: Clauses): Clauses {
  return Object.fromEntries(Object.entries(clauses).filter(([, value]) => value !== undefined)) as Clauses;
}
