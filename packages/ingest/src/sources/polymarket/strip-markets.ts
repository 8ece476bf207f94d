/**
 * A keyset page's events without their nested markets, cut out of the page text by a
 * byte scanner (no `JSON.parse`).
 *
 * Why: an event row's `raw` is the event object without its markets, which have rows and
 * `raw` of their own. The engine's JSON reader hands over an object's text only whole, so
 * the snapshot path gives it a second copy of each page with the events' `markets` arrays
 * removed (`page-batch.ts`), and the number of markets each event listed beside them.
 *
 * The scanner follows JSON's structure only as far as it must: it skips string contents
 * (a quote preceded by an even number of backslashes ends a string), counts nesting, and
 * at an event's top level (depth 3: page object, `events` array, event object) looks for
 * the key `markets` with an array value. Everything else is copied byte for byte, so an
 * event's text is what the API sent minus `"markets":[…]` and one adjacent comma. It does
 * not validate JSON: a broken page fails in the engine's reader, which does.
 */
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const MARKETS = Buffer.from("markets");
const EVENT_DEPTH = 3;

export interface StrippedPage {
  /** `{"events":[…without markets…],"market_counts":[…]}`: the page's events and what they listed. */
  body: Buffer;
  events: number;
}

function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** Index of the quote that closes the string opened at `open`; -1 when the text ends first. */
function stringEnd(text: Buffer, open: number): number {
  let at = open + 1;
  for (;;) {
    const quote = text.indexOf(QUOTE, at);
    if (quote < 0) return -1;
    let backslashes = 0;
    for (let k = quote - 1; text[k] === BACKSLASH; k -= 1) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    at = quote + 1;
  }
}

export function stripNestedMarkets(page: Uint8Array): StrippedPage {
  const text = Buffer.from(page.buffer, page.byteOffset, page.byteLength);
  const cuts: Array<[number, number]> = [];
  const counts: number[] = [];
  let depth = 0;
  let marketsStart = -1;
  let marketsKeyStart = -1;
  let marketCount = 0;
  let events = 0;
  let lastClose = -1;

  for (let i = 0; i < text.length; i += 1) {
    const byte = text[i];
    if (byte === QUOTE) {
      const end = stringEnd(text, i);
      if (end < 0) break;
      if (depth === EVENT_DEPTH && end - i - 1 === MARKETS.length && text.compare(MARKETS, 0, 7, i + 1, end) === 0) {
        let next = end + 1;
        while (isSpace(text[next])) next += 1;
        if (text[next] === COLON) {
          next += 1;
          while (isSpace(text[next])) next += 1;
          if (text[next] === OPEN_ARRAY) {
            marketsKeyStart = i;
            marketsStart = next;
            marketCount = 0;
            depth += 1;
            i = next;
            continue;
          }
        }
      }
      i = end;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      depth += 1;
      if (depth === EVENT_DEPTH && byte === OPEN_OBJECT) {
        events += 1;
        counts.push(0);
      }
      if (marketsStart >= 0 && depth === EVENT_DEPTH + 2 && byte === OPEN_OBJECT) marketCount += 1;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth -= 1;
      if (marketsStart >= 0 && depth === EVENT_DEPTH) {
        cuts.push(cutWithComma(text, marketsKeyStart, i + 1));
        counts[counts.length - 1] = marketCount;
        marketsStart = -1;
      }
      if (depth === 0) lastClose = i;
    }
  }

  const parts: Buffer[] = [];
  let from = 0;
  const end = lastClose >= 0 ? lastClose : text.length;
  for (const [start, stop] of cuts) {
    parts.push(text.subarray(from, start));
    from = stop;
  }
  parts.push(text.subarray(from, end));
  parts.push(Buffer.from(`,"market_counts":[${counts.join(",")}]}\n`));
  return { body: Buffer.concat(parts), events };
}

/** The span of `"markets":[…]` with the comma after it, or else the one before it. */
function cutWithComma(text: Buffer, start: number, stop: number): [number, number] {
  let after = stop;
  while (isSpace(text[after])) after += 1;
  if (text[after] === COMMA) return [start, after + 1];
  let before = start - 1;
  while (isSpace(text[before])) before -= 1;
  if (text[before] === COMMA) return [before, stop];
  return [start, stop];
}
