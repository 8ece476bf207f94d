/**
 * The replay's live feeds from the outside, through a real WebSocket client (`ws`) and the
 * archive's own frame readers: what each venue's protocol promises (API_FORMATS §5.4), that
 * a book followed from the first dump and every change equals the book the replay holds,
 * that the trades read are the replay's tape, and each fault as a client meets it.
 */
import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { LiveBook, type LiveEvent, SequenceCheck } from "../live";
import {
  kalshiSignedHeaders,
  kalshiSubscribe,
  kalshiUnsubscribe,
  kalshiUpdate,
  readKalshiFrame,
} from "../sources/kalshi/live";
import { POLYMARKET_PING, polymarketSubscribe, readPolymarketFrame } from "../sources/polymarket/live";
import { openKalshiTickers, openPolymarketMarkets } from "../testing/live-markets";
import type { ServedBook } from "./live";
import { type ReplayServer, startReplayServer } from "./server";

const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 1024 });
const PRIVATE_PEM = privateKey.export({ type: "pkcs8", format: "pem" }).toString();

let replay: ReplayServer;

beforeAll(async () => {
  replay = await startReplayServer({
    live: {
      tickMs: 10,
      changesPerTick: 4,
      subscribeWithinMs: 300,
      pingMs: 100,
      kalshiPublicKey: publicKey.export({ type: "spki", format: "pem" }).toString(),
    },
  });
});
afterAll(() => replay?.close());

/** A client that keeps every text frame and can wait for one. */
async function connect(url: string, headers?: Record<string, string>) {
  const ws = new WebSocket(url, { headers });
  const texts: string[] = [];
  const pings: string[] = [];
  const waiting = new Set<() => void>();
  ws.on("message", (data, binary) => {
    if (!binary) texts.push(data.toString());
    for (const wake of waiting) wake();
  });
  ws.on("ping", (data) => pings.push(data.toString()));
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("unexpected-response", (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
    ws.once("error", reject);
  });
  /** Waits until `done(texts)` holds, or fails after `ms`. */
  const until = (done: (texts: string[]) => boolean, ms = 5_000) =>
    new Promise<void>((resolve, reject) => {
      if (done(texts)) return resolve();
      const timer = setTimeout(() => {
        waiting.delete(check);
        reject(new Error(`waited ${ms} ms; ${texts.length} frames`));
      }, ms);
      const check = () => {
        if (!done(texts)) return;
        clearTimeout(timer);
        waiting.delete(check);
        resolve();
      };
      waiting.add(check);
    });
  return { ws, texts, pings, until };
}

/**
 * Holds the replay's books still, waits until no frame has arrived for 200 ms (the last
 * moves are on the wire), then closes: what the client read is all the replay sent.
 */
async function settled(client: Awaited<ReturnType<typeof connect>>) {
  replay.live.hold(true);
  try {
    let seen = -1;
    while (seen !== client.texts.length) {
      seen = client.texts.length;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    client.ws.close();
    await new Promise((resolve) => client.ws.once("close", resolve));
  } finally {
    replay.live.hold(false);
  }
}

const polymarketEvents = (texts: readonly string[]) => texts.flatMap((text) => readPolymarketFrame(text).events);
const kalshiFrames = (texts: readonly string[]) => texts.map(readKalshiFrame);

/** The replay's book in the readers' terms: ticks, best first. */
function servedLevels(book: ServedBook | undefined) {
  const sorted = (levels: Map<number, number>, descending: boolean) =>
    [...levels]
      .map(([cents, size]): [number, number] => [cents * 100, size])
      .sort(([a], [b]) => (descending ? b - a : a - b));
  return { bids: sorted(book?.bids ?? new Map(), true), asks: sorted(book?.asks ?? new Map(), false) };
}

const polymarketMarkets = (count: number) => openPolymarketMarkets(replay.polymarket, count);
const kalshiTickers = (count: number) => openKalshiTickers(replay.kalshi, count);

describe("the replay's Polymarket market channel", () => {
  it("answers PING with PONG and closes a socket that never subscribes", async () => {
    const client = await connect(replay.url.polymarketWs);
    client.ws.send(POLYMARKET_PING);
    await client.until((texts) => texts.includes("PONG"));
    const code = await new Promise<number>((resolve) => client.ws.once("close", resolve));
    expect(code).toBe(1008);
  });

  it("sends each token's book, then changes that keep a followed book equal to the replay's, and its trades", async () => {
    const markets = polymarketMarkets(3);
    const tapeBefore = replay.live.tape("polymarket").length;
    const client = await connect(replay.url.polymarketWs);
    client.ws.send(polymarketSubscribe(markets.flatMap(({ yes, no }) => [yes, no])));
    await client.until((texts) => polymarketEvents(texts).filter((e) => e.kind === "book").length === 6);
    await client.until((texts) => polymarketEvents(texts).filter((e) => e.kind === "trade").length >= 5);
    await settled(client);

    const events = polymarketEvents(client.texts);
    for (const { yes } of markets) {
      const book = new LiveBook();
      for (const event of events) {
        if ((event.kind === "book" || event.kind === "level") && event.book === yes) book.apply(event);
      }
      expect(book.levels(1_000), yes).toEqual(servedLevels(replay.live.bookOf(yes)));
    }
    const trades = events.filter((e): e is Extract<LiveEvent, { kind: "trade" }> => e.kind === "trade");
    const tape = replay.live
      .tape("polymarket")
      .slice(tapeBefore)
      .filter((trade) => markets.some(({ yes }) => yes === trade.market));
    expect(trades.map((t) => [t.tradeId, t.book, t.ticks, t.size])).toEqual(
      tape.map((t) => [t.id, t.market, t.cents * 100, t.size]),
    );
    // Each change names both tokens: a bid for Yes at p is an ask for No at 1 − p.
    const change = readPolymarketFrame(client.texts.find((text) => text.includes("price_change")) as string);
    const [yesLevel, noLevel] = change.events as Array<Extract<LiveEvent, { kind: "level" }>>;
    expect(noLevel?.ticks).toBe(10_000 - (yesLevel?.ticks ?? 0));
    expect(noLevel?.side).not.toBe(yesLevel?.side);
  });

  it("serves no token past the cap, and nothing says so", async () => {
    const capped = await startReplayServer({ live: { tickMs: 10, assetCap: 2 } });
    try {
      const markets = polymarketMarkets(2);
      const client = await connect(capped.url.polymarketWs);
      client.ws.send(polymarketSubscribe([markets[0]?.yes, markets[0]?.no, markets[1]?.yes].map(String)));
      await client.until((texts) => polymarketEvents(texts).filter((e) => e.kind === "level").length > 20);
      const heard = new Set(polymarketEvents(client.texts).map((event) => ("book" in event ? event.book : "")));
      expect(heard.has(String(markets[0]?.yes))).toBe(true);
      expect(heard.has(String(markets[1]?.yes))).toBe(false);
      client.ws.close();
    } finally {
      await capped.close();
    }
  });

  it("meets a stall with heartbeats still answered, an abrupt close and a refused upgrade", async () => {
    const [market] = polymarketMarkets(1);
    const client = await connect(replay.url.polymarketWs);
    client.ws.send(polymarketSubscribe([String(market?.yes)]));
    await client.until((texts) => texts.length > 5);
    replay.live.setLiveFault({ kind: "stall", venue: "polymarket" });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const before = client.texts.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(client.texts.length).toBe(before);
    client.ws.send(POLYMARKET_PING);
    await client.until((texts) => texts.at(-1) === "PONG");

    replay.live.setLiveFault({ kind: "close", venue: "polymarket" });
    const code = await new Promise<number>((resolve) => client.ws.once("close", resolve));
    expect(code).toBe(1006);

    replay.live.setLiveFault({ kind: "refuse-upgrade", venue: "polymarket" });
    await expect(connect(replay.url.polymarketWs)).rejects.toThrow("HTTP 429");
    const again = await connect(replay.url.polymarketWs);
    again.ws.close();
  });
});

describe("the replay's Kalshi WebSocket", () => {
  const signed = () => kalshiSignedHeaders("key-id", PRIVATE_PEM, Date.now());

  it("refuses a bad signature with 403, and unsigned serves the public channels only", async () => {
    const bad = { ...signed(), "KALSHI-ACCESS-TIMESTAMP": "1" };
    await expect(connect(replay.url.kalshiWs, bad)).rejects.toThrow("HTTP 403");
    const client = await connect(replay.url.kalshiWs);
    client.ws.send(kalshiSubscribe(1, ["orderbook_delta", "trade"], kalshiTickers(1)));
    await client.until((texts) => texts.length >= 2);
    const controls = kalshiFrames(client.texts).map((frame) => frame.control);
    expect(controls).toContainEqual(expect.objectContaining({ type: "error", id: 1, code: 9 }));
    expect(controls).toContainEqual(expect.objectContaining({ type: "subscribed", id: 1, channel: "trade" }));
    client.ws.close();
  });

  it("sends a snapshot and deltas in sequence that keep a followed book equal to the replay's, and pings", async () => {
    const tickers = kalshiTickers(3);
    // Earlier tests' subscriptions traded these markets too: this client's trades start here.
    const tapeBefore = replay.live.tape("kalshi").length;
    const client = await connect(replay.url.kalshiWs, signed());
    client.ws.send(kalshiSubscribe(1, ["orderbook_delta"], tickers));
    client.ws.send(kalshiSubscribe(2, ["trade"], tickers));
    await client.until((texts) => kalshiFrames(texts).filter((f) => f.events[0]?.kind === "delta").length > 30);
    await client.until((texts) => kalshiFrames(texts).filter((f) => f.events[0]?.kind === "trade").length >= 3);
    await client.until(() => client.pings.length > 0);
    await settled(client);
    expect(client.pings[0]).toBe("heartbeat");

    const frames = kalshiFrames(client.texts);
    const check = new SequenceCheck();
    const verdicts = frames
      .filter((f) => f.seq !== undefined)
      .map((f) => check.observe(f.sid as number, f.seq as number));
    expect(verdicts.filter((verdict) => verdict.kind !== "next" && verdict.kind !== "first")).toEqual([]);
    for (const ticker of tickers) {
      const book = new LiveBook();
      for (const event of frames.flatMap((frame) => frame.events)) {
        if ((event.kind === "book" || event.kind === "delta") && event.book === ticker) book.apply(event);
      }
      expect(book.levels(1_000), ticker).toEqual(servedLevels(replay.live.bookOf(ticker)));
    }
    const trades = frames.flatMap((f) => f.events).filter((e) => e.kind === "trade");
    const tape = replay.live
      .tape("kalshi")
      .slice(tapeBefore)
      .filter((trade) => tickers.includes(trade.market));
    // The book moves from the first subscription on, the trades are heard from the second:
    // what was heard is the tape from its first trade on, with no hole and none twice.
    const ids = trades.map((t) => (t.kind === "trade" ? t.tradeId : null));
    const first = tape.findIndex((trade) => trade.id === ids[0]);
    expect(first).toBeGreaterThanOrEqual(0);
    expect(ids).toEqual(tape.slice(first).map((t) => t.id));
  });

  it("adds and removes tickers, answering the full list, and unsubscribes with the sid's last seq", async () => {
    const [first, second] = kalshiTickers(2) as [string, string];
    const client = await connect(replay.url.kalshiWs, signed());
    client.ws.send(kalshiSubscribe(1, ["orderbook_delta"], [first]));
    await client.until((texts) => kalshiFrames(texts).some((f) => f.control?.type === "subscribed"));
    const sid = kalshiFrames(client.texts).find((f) => f.control?.type === "subscribed")?.control?.sid as number;
    client.ws.send(kalshiUpdate(2, sid, [second], "add"));
    await client.until((texts) => texts.some((text) => text.includes('"type":"ok"')));
    const ok = JSON.parse(client.texts.find((text) => text.includes('"type":"ok"')) as string);
    expect(ok.msg.market_tickers).toEqual([first, second]);
    const snapshots = kalshiFrames(client.texts).flatMap((f) => f.events.filter((e) => e.kind === "book"));
    expect(snapshots.map((event) => (event.kind === "book" ? event.book : ""))).toEqual([first, second]);
    client.ws.send(kalshiUnsubscribe(3, [sid]));
    await client.until((texts) => texts.some((text) => text.includes("unsubscribed")));
    const last = JSON.parse(client.texts.find((text) => text.includes("unsubscribed")) as string);
    expect(last).toMatchObject({ id: 3, sid, type: "unsubscribed" });
    expect(last.seq).toBeGreaterThanOrEqual(2);
    client.ws.close();
  });

  it("skips a number for a gap fault and sends a frame twice for a duplicate, as a client's check sees", async () => {
    const tickers = kalshiTickers(2);
    const client = await connect(replay.url.kalshiWs, signed());
    client.ws.send(kalshiSubscribe(1, ["orderbook_delta"], tickers));
    await client.until((texts) => texts.length > 10);
    replay.live.setLiveFault({ kind: "gap", venue: "kalshi" });
    await client.until((texts) => texts.length > 30);
    replay.live.setLiveFault({ kind: "duplicate", venue: "kalshi" });
    await client.until((texts) => texts.length > 50);
    client.ws.close();
    const check = new SequenceCheck();
    const kinds = kalshiFrames(client.texts)
      .filter((f) => f.seq !== undefined)
      .map((f) => check.observe(f.sid as number, f.seq as number).kind);
    expect(kinds.filter((kind) => kind === "gap")).toHaveLength(1);
    expect(kinds.filter((kind) => kind === "stale")).toHaveLength(1);
  });
});
