/**
 * The live feeds' readers on the venues' recorded frames (`fixtures/<venue>/ws/`, provenance in
 * each `.source.txt`), the book the capture keeps from them, the sequence check, Kalshi's
 * signed upgrade, and a seeded fuzz: whatever a frame holds, a reader answers events or
 * reasons, never an exception, never a price outside (0, 1).
 */
import { constants, generateKeyPairSync, verify } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { seededRandom } from "@epicenter/warehouse/testing";
import { describe, expect, it } from "vitest";
import { LIVE_FRAME_MAX_BYTES, LiveBook, type LiveEvent, type LiveFrame, SequenceCheck } from "./live";
import { kalshiSignedHeaders, readKalshiFrame } from "./sources/kalshi/live";
import { readPolymarketFrame } from "./sources/polymarket/live";

const fixtures = fileURLToPath(new URL("../../../fixtures/", import.meta.url));
const lines = (path: string) => readFileSync(`${fixtures}${path}`, "utf8").trim().split("\n");
const polymarketLines = lines("polymarket/ws/ws_market_channel_frames.jsonl");
const kalshiLines = lines("kalshi/ws/ws_frames.jsonl");

const kinds = (frame: LiveFrame) => frame.events.map((event) => event.kind);
const only = <K extends LiveEvent["kind"]>(frame: LiveFrame, kind: K) =>
  frame.events.filter((event): event is Extract<LiveEvent, { kind: K }> => event.kind === kind);

describe("Polymarket's market channel, read from its recorded frames", () => {
  const frames = polymarketLines.map(readPolymarketFrame);

  it("reads every recorded frame, refusing none and knowing every kind", () => {
    for (const [index, frame] of frames.entries()) {
      expect(frame.rejected, `line ${index + 1}`).toEqual([]);
      expect(frame.unknown, `line ${index + 1}`).toBe(0);
    }
    expect(frames.map(kinds)).toEqual([
      ["book"],
      ["book"],
      ...Array.from({ length: 7 }, () => ["level", "level"]),
      ["book"],
      [],
      ["lifecycle"],
      ["lifecycle"],
      ["level", "level"],
      ["trade"],
      [],
      ["level"],
    ]);
  });

  it("sorts a book listed worst first: line 1's best bid is 0.07 and best ask 0.08", () => {
    const [book] = only(frames[0] as LiveFrame, "book");
    const state = new LiveBook();
    state.apply(book as NonNullable<typeof book>);
    const { bids, asks } = state.levels(10);
    expect(bids[0]?.[0]).toBe(700);
    expect(asks[0]?.[0]).toBe(800);
    expect(state.at).toBe(1786604072222);
  });

  it("reads a price change as each level's new size, both tokens of the market, in both shapes", () => {
    const changes = only(frames[2] as LiveFrame, "level");
    expect(changes[0]).toEqual({
      kind: "level",
      book: "76670567130917723816490572615540605537878462672464291990940067659127658071111",
      at: 1790658674035,
      side: "bid",
      ticks: 3010,
      size: 1000,
    });
    expect(changes[1]?.book).not.toBe(changes[0]?.book);
    // A size of "0" removes the level: line 5 takes 0.399 off the asks.
    expect(only(frames[4] as LiveFrame, "level")[0]).toMatchObject({ side: "ask", ticks: 3990, size: 0 });
    // The legacy shape names its token at the top.
    expect(only(frames[16] as LiveFrame, "level")).toEqual([
      {
        kind: "level",
        book: "71321045679252212594626385532706912750332728571942532289631379312455583992563",
        at: 1729084877448,
        side: "ask",
        ticks: 4000,
        size: 3300,
      },
    ]);
  });

  it("reads a trade, a listing with its tokens and a resolution with its winner", () => {
    expect(only(frames[14] as LiveFrame, "trade")).toEqual([
      {
        kind: "trade",
        book: "114122071509644379678018727908709560226618148003371446110114509806601493071694",
        at: 1750428146322,
        ticks: 4560,
        size: 219.217767,
        side: "buy",
        tradeId: null,
      },
    ]);
    const [listed] = only(frames[11] as LiveFrame, "lifecycle");
    expect(listed).toMatchObject({ change: "listed", market: expect.stringMatching(/^0x311d0c4b/) });
    expect(listed?.books).toHaveLength(2);
    const [resolved] = only(frames[12] as LiveFrame, "lifecycle");
    expect(resolved).toMatchObject({ change: "resolved", result: resolved?.books[0] });
  });

  it("takes PONG, arrays of events and kinds it does not know, and refuses what is not a frame", () => {
    expect(readPolymarketFrame("PONG")).toMatchObject({ pong: true, events: [] });
    const array = readPolymarketFrame(`[${polymarketLines[1]},${polymarketLines[2]},{"event_type":"surprise"}]`);
    expect(kinds(array)).toEqual(["book", "level", "level"]);
    expect(array.unknown).toBe(1);
    expect(readPolymarketFrame("{").rejected[0]).toMatch(/^not JSON/);
    expect(readPolymarketFrame('[1, "two", null]').rejected).toHaveLength(3);
    const huge = readPolymarketFrame(" ".repeat(LIVE_FRAME_MAX_BYTES + 1));
    expect(huge.rejected[0]).toMatch(/over/);
  });
});

describe("Kalshi's WebSocket, read from its recorded frames", () => {
  const frames = kalshiLines.map(readKalshiFrame);

  it("reads every recorded frame, refusing none", () => {
    for (const [index, frame] of frames.entries()) expect(frame.rejected, `line ${index + 1}`).toEqual([]);
    expect(frames.map(kinds)).toEqual([
      [],
      [],
      ["book"],
      [],
      [],
      ["trade"],
      [],
      ["lifecycle"],
      ["lifecycle"],
      ["book"],
      ["delta"],
      ["trade"],
      [],
    ]);
    expect(frames[0]?.control).toEqual({ type: "subscribed", id: 1, sid: 1, channel: "orderbook_delta" });
    expect(frames[12]?.control).toMatchObject({ type: "error", id: 123, code: 6, message: "Already subscribed" });
    expect(frames.map((frame) => frame.seq ?? null)).toEqual([
      null,
      null,
      1,
      null,
      null,
      2573,
      null,
      279597,
      274085,
      1,
      2,
      1,
      null,
    ]);
  });

  it("turns no bids into yes asks at 1 − p and applies a signed delta", () => {
    const book = new LiveBook();
    book.apply(only(frames[9] as LiveFrame, "book")[0] as Extract<LiveEvent, { kind: "book" }>);
    expect(book.levels(10)).toEqual({
      bids: [
        [4200, 13],
        [3500, 200],
      ],
      asks: [
        [4400, 17],
        [4600, 400],
      ],
    });
    const delta = only(frames[10] as LiveFrame, "delta")[0] as Extract<LiveEvent, { kind: "delta" }>;
    expect(delta.at).toBe(Date.parse("2025-03-01T18:26:53.361Z"));
    expect(book.apply(delta)).toEqual([["bid", 4200, 63]]);
    // A no-side delta is an ask in yes terms; a level reaching 0 is gone.
    expect(book.apply({ ...delta, side: "ask", ticks: 4400, change: -17 })).toEqual([["ask", 4400, 0]]);
    expect(book.levels(10).asks).toEqual([[4600, 400]]);
  });

  it("reads an empty book as one with no levels, and a trade with its id and the taker's side", () => {
    expect(only(frames[2] as LiveFrame, "book")).toEqual([
      { kind: "book", book: "KXBTCD-26AUG2017-T73749.99", at: null, bids: [], asks: [] },
    ]);
    expect(only(frames[11] as LiveFrame, "trade")).toEqual([
      {
        kind: "trade",
        book: "KXBTC-25MAR15-B100000",
        at: 1741052641000,
        ticks: 3600,
        size: 136,
        side: "no",
        tradeId: "d91bc706-ee49-470d-82d8-11418bda6fed",
      },
    ]);
    expect(only(frames[7] as LiveFrame, "lifecycle")[0]).toMatchObject({
      market: "KXMLBSPREAD-26JUL191605WSHATH-ATH4",
      change: "determined",
      result: "no",
      at: 1784501722000,
    });
  });

  it("adds and takes back fractional counts without leaving a phantom level", () => {
    const book = new LiveBook();
    const delta = { kind: "delta", book: "X", at: null, side: "bid", ticks: 5000 } as const;
    book.apply({ ...delta, change: 0.1 });
    book.apply({ ...delta, change: 0.2 });
    expect(book.apply({ ...delta, change: -0.3 })).toEqual([["bid", 5000, 0]]);
    expect(book.levels(10).bids).toEqual([]);
  });

  it("signs the upgrade with RSA-PSS over time, GET and the path, with PKCS#1 and PKCS#8 keys", () => {
    const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 1024 });
    for (const type of ["pkcs1", "pkcs8"] as const) {
      const pem = privateKey.export({ type, format: "pem" }).toString();
      const headers = kalshiSignedHeaders("key-id", pem, 1703123456789);
      expect(headers["KALSHI-ACCESS-TIMESTAMP"]).toBe("1703123456789");
      const signature = Buffer.from(headers["KALSHI-ACCESS-SIGNATURE"] as string, "base64");
      const check = (text: string) =>
        verify(
          "sha256",
          Buffer.from(text),
          { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 },
          signature,
        );
      expect(check("1703123456789GET/trade-api/ws/v2")).toBe(true);
      expect(check("1703123456790GET/trade-api/ws/v2")).toBe(false);
    }
  });
});

describe("the sequence check", () => {
  it("says first, next, a gap with the numbers missed, and stale for a duplicate or late frame", () => {
    const check = new SequenceCheck();
    expect(check.observe(1, 1)).toEqual({ kind: "first" });
    expect(check.observe(1, 2)).toEqual({ kind: "next" });
    expect(check.observe(2, 40)).toEqual({ kind: "first" });
    expect(check.observe(1, 6)).toEqual({ kind: "gap", from: 3, to: 5 });
    expect(check.observe(1, 6)).toEqual({ kind: "stale" });
    expect(check.observe(1, 4)).toEqual({ kind: "stale" });
    expect(check.observe(1, 7)).toEqual({ kind: "next" });
    check.forget(1);
    expect(check.observe(1, 1)).toEqual({ kind: "first" });
  });
});

const ODD_VALUES: unknown[] = [null, 0, -1, 1.5, "", "0", "-0.5", "1", "abc", "1e309", [], {}, true, 2 ** 53];

/** One recorded frame with a value somewhere in it swapped for an odd one, or its text cut or flipped. */
function mutate(line: string, random: () => number): string {
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
  const roll = random();
  if (roll < 0.15) return line.slice(0, Math.floor(random() * line.length));
  if (roll < 0.3) {
    const at = Math.floor(random() * line.length);
    return line.slice(0, at) + String.fromCharCode(Math.floor(random() * 128)) + line.slice(at + 1);
  }
  const value = JSON.parse(line) as unknown;
  const containers: Array<Record<string, unknown> | unknown[]> = [];
  const walk = (node: unknown) => {
    if (node && typeof node === "object") {
      containers.push(node as Record<string, unknown>);
      for (const child of Object.values(node)) walk(child);
    }
  };
  walk(value);
  const target = pick(containers);
  const keys = Object.keys(target);
  if (keys.length > 0) {
    const key = pick(keys);
    if (random() < 0.2) delete (target as Record<string, unknown>)[key];
    else (target as Record<string, unknown>)[key] = pick(ODD_VALUES);
  }
  return JSON.stringify(value);
}

describe("the readers under a seeded fuzz of the recorded frames", () => {
  it("answer 3,000 damaged frames a venue each with events or reasons, every price inside (0, 1)", () => {
    for (const [venue, read, recorded] of [
      ["polymarket", readPolymarketFrame, polymarketLines],
      ["kalshi", readKalshiFrame, kalshiLines],
    ] as const) {
      const random = seededRandom(venue.length);
      let events = 0;
      let rejected = 0;
      for (let round = 0; round < 3000; round++) {
        const text = mutate(recorded[round % recorded.length] as string, random);
        const frame = read(text);
        events += frame.events.length;
        rejected += frame.rejected.length;
        for (const event of frame.events) {
          const prices =
            event.kind === "book"
              ? [...event.bids, ...event.asks].map(([ticks]) => ticks)
              : "ticks" in event
                ? [event.ticks]
                : [];
          for (const ticks of prices) {
            expect(Number.isInteger(ticks) && ticks > 0 && ticks < 10_000, `${venue} ${round}: ${text}`).toBe(true);
          }
          if (event.kind === "level" || event.kind === "trade") expect(event.size).toBeGreaterThanOrEqual(0);
        }
      }
      // The fuzz reaches both outcomes: many mutations still read, many are refused.
      expect(events, venue).toBeGreaterThan(500);
      expect(rejected, venue).toBeGreaterThan(100);
    }
  });
});
