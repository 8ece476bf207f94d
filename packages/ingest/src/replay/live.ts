/**
 * The replay's live feeds: Polymarket's CLOB market channel and Kalshi's Trade API
 * WebSocket, on the replay server's port, over the replay's catalog (API_FORMATS §5.4).
 *
 * The replay keeps each market's book and its trade tape itself, moving them on a clock
 * (`tickMs`, `changesPerTick` markets a tick among those subscribed), so a test compares
 * what a capture stored with what was served: `bookOf(key)` and `tape(venue)`.
 *
 * Polymarket (`/polymarket-ws/ws/market`): text `PONG` to `PING`; a socket that sends no
 * subscription within `subscribeWithinMs` is closed; each token subscribed gets its whole
 * `book` (one frame a token, or one array frame, `bookFrames`), then `price_change` with
 * both tokens of the market (absolute sizes), `last_trade_price` on the Yes token, and
 * custom-feature events only to a socket that asked for them; strings for every number; no
 * acks, no sequence; a duplicate subscribe is ignored; past `assetCap` tokens a socket hears
 * nothing more of the tokens beyond it, and nothing says so.
 *
 * Kalshi (`/kalshi/trade-api/ws/v2`): the upgrade may be signed (the three `KALSHI-ACCESS-*`
 * headers, RSA-PSS over `ts + "GET" + path`, checked against `kalshiPublicKey`; a bad
 * signature is a 403); unsigned, the public channels (`ticker`, `trade`,
 * `market_lifecycle_v2`) work and `orderbook_delta` answers error 9. A Ping with `heartbeat`
 * every `pingMs`; `subscribed` per channel with new sids; per-sid `seq` from 1, the
 * snapshot included; signed `delta_fp`; absent keys for empty sides; `ok` with the full
 * ticker list after `update_subscription`; `unsubscribed` with its sid and seq.
 *
 * Faults (`setLiveFault`) are what users report: a silent stall with heartbeats still
 * answered, an abrupt close, a sequence gap, a duplicated frame, a malformed frame, 429 on
 * upgrades, and tokens that never get a first event.
 */
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { type WebSocket, WebSocketServer } from "ws";
import { replayLevels } from "./books";
import { hashSeed, type Json, type KalshiCatalog, type PolymarketCatalog } from "./catalog";
import { createKalshiFeed } from "./live-kalshi";
import { createPolymarketFeed } from "./live-polymarket";

export const POLYMARKET_WS_PATH = "/polymarket-ws/ws/market";
export const KALSHI_WS_PATH = "/kalshi/trade-api/ws/v2";

export type LiveVenue = "polymarket" | "kalshi";

export type LiveFaultKind =
  /** Data stops on the sockets open now; `PONG` and pings go on, the sockets stay open, and new sockets are served. */
  | "stall"
  /** Every open socket of the venue is cut without a close frame. */
  | "close"
  /** One data frame's sequence number is skipped (Kalshi), or one frame is dropped (Polymarket). */
  | "gap"
  /** One data frame is sent twice. */
  | "duplicate"
  /** One frame of text that is not JSON. */
  | "malformed"
  /** The next upgrades are answered 429. */
  | "refuse-upgrade"
  /** Tokens subscribed from now on never get a first event (Polymarket). */
  | "silent-assets";

export interface LiveFault {
  kind: LiveFaultKind;
  venue: LiveVenue;
  /** How many times it fires (frames, upgrades); once when absent; `stall` and `silent-assets` last until cleared. */
  times?: number;
}

export interface LiveReplayOptions {
  /** How often the books move (ms). */
  tickMs?: number;
  /** Markets moved a tick per venue, among those subscribed. */
  changesPerTick?: number;
  /** The share of moves that are trades. */
  tradeShare?: number;
  /** Tokens a Polymarket socket serves; past them, silence. */
  assetCap?: number;
  /** A Polymarket socket that has not subscribed by then is closed. */
  subscribeWithinMs?: number;
  /** How the first books reach a Polymarket socket. */
  bookFrames?: "one-per-token" | "array";
  /** Kalshi's heartbeat Ping interval. */
  pingMs?: number;
  /** The PEM of the public key Kalshi's signed upgrades are checked against; unsigned only when absent. */
  kalshiPublicKey?: string;
  now?: () => number;
}

/** One trade the replay served: its venue's id, the market key, the Yes price in cents. */
export interface ServedTrade {
  id: string;
  market: string;
  at: number;
  cents: number;
  size: number;
  side: string;
}

/** A book the replay keeps: the Yes book's levels by price in cents. */
export interface ServedBook {
  bids: Map<number, number>;
  asks: Map<number, number>;
}

export interface LiveReplay {
  setLiveFault(fault: LiveFault | null): void;
  /** Stops the books moving (true) or lets them move again: a test compares books at rest. */
  hold(held: boolean): void;
  /** The book the replay holds now for a market key (Polymarket's Yes token, Kalshi's ticker). */
  bookOf(key: string): ServedBook | undefined;
  /** Every trade served so far, oldest first. */
  tape(venue: LiveVenue): readonly ServedTrade[];
  /** Open sockets by venue. */
  connections(venue: LiveVenue): number;
  /** Data frames sent by venue (heartbeats and answers not counted). */
  sent(venue: LiveVenue): number;
  close(): void;
}

interface ActiveFault extends LiveFault {
  left: number;
}

/** What both feeds share: the catalogs, the books and tapes the replay keeps, the faults. */
export interface LiveFeedContext {
  catalogs: { polymarket: PolymarketCatalog; kalshi: KalshiCatalog };
  options: LiveReplayOptions;
  now: () => number;
  tapes: Record<LiveVenue, ServedTrade[]>;
  /** Whether a fault of this kind fires now (counting it down). */
  faultOn(venue: LiveVenue, kind: LiveFaultKind): boolean;
  /** Sends one data frame through the faults that touch frames; false when a stall swallowed it. */
  sendData(venue: LiveVenue, socket: { ws: WebSocket; stalled: boolean }, text: string): boolean;
  /** The book the replay keeps for `key`, made around `yes` the first time. */
  servedBook(key: string, yes: number): ServedBook;
  /** One move of a book at step `step`: a level set anew, or a trade at the best level. */
  move(key: string, book: ServedBook, step: number): BookMove;
  /** The markets moved this tick, among `keys`. */
  pick(keys: string[]): string[];
  /** The clock's step. */
  tick(): number;
}

export interface BookMove {
  kind: "trade" | "level";
  side: "bid" | "ask";
  cents: number;
  size: number;
  /** The level's size before the move and after it. */
  before: number;
  left: number;
}

/** Attaches both feeds to the replay's HTTP server (its `upgrade` event). */
export function attachLiveReplay(
  server: Server,
  catalogs: { polymarket: PolymarketCatalog; kalshi: KalshiCatalog },
  options: LiveReplayOptions = {},
): LiveReplay {
  const now = options.now ?? Date.now;
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  const books = new Map<string, ServedBook>();
  const tapes: Record<LiveVenue, ServedTrade[]> = { polymarket: [], kalshi: [] };
  const sent: Record<LiveVenue, number> = { polymarket: 0, kalshi: 0 };
  let fault: ActiveFault | null = null;
  let tick = 0;
  let held = false;

  const faultOn = (venue: LiveVenue, kind: LiveFaultKind): boolean => {
    if (!fault || fault.venue !== venue || fault.kind !== kind) return false;
    if (kind === "silent-assets") return true;
    fault.left -= 1;
    if (fault.left <= 0) fault = null;
    return true;
  };

  /** Sends one data frame, through the faults that touch frames. */
  const sendData = (venue: LiveVenue, socket: { ws: WebSocket; stalled: boolean }, text: string): boolean => {
    if (socket.stalled) return false;
    if (faultOn(venue, "malformed")) socket.ws.send(`${text.slice(0, Math.floor(text.length / 2))}`);
    sent[venue] += 1;
    socket.ws.send(text);
    if (faultOn(venue, "duplicate")) socket.ws.send(text);
    return true;
  };

  function servedBook(key: string, yes: number): ServedBook {
    let book = books.get(key);
    if (!book) {
      const levels = replayLevels(key, yes, Math.floor(now() / 60_000));
      book = { bids: new Map(levels.bids), asks: new Map(levels.asks) };
      books.set(key, book);
    }
    return book;
  }

  /** One move of a book: a level set anew, or a trade that takes from the best level. */
  function move(key: string, book: ServedBook, step: number): BookMove {
    const random = hashSeed(`${key}:${step}`);
    const trade = (random % 1000) / 1000 < (options.tradeShare ?? 0.25);
    const side: "bid" | "ask" = random % 2 === 0 ? "bid" : "ask";
    const levels = side === "bid" ? book.bids : book.asks;
    const best = bestOf(levels, side);
    if (trade && best !== null) {
      const resting = levels.get(best) as number;
      const before = resting;
      const size = Math.min(resting, Math.round(((random % 97) + 1) * 10) / 100);
      const left = Math.round((resting - size) * 100) / 100;
      if (left > 0) levels.set(best, left);
      else levels.delete(best);
      // A trade at the best bid was a taker selling yes; at the best ask, buying.
      return { kind: "trade" as const, side, cents: best, size, before, left: Math.max(left, 0) };
    }
    const other = bestOf(side === "bid" ? book.asks : book.bids, side === "bid" ? "ask" : "bid");
    const anchor = best ?? (other === null ? 50 : side === "bid" ? other - 1 : other + 1);
    const offset = (random >>> 3) % 4;
    let cents = side === "bid" ? anchor - offset : anchor + offset;
    if (other !== null) cents = side === "bid" ? Math.min(cents, other - 1) : Math.max(cents, other + 1);
    cents = Math.min(99, Math.max(1, cents));
    const before = levels.get(cents) ?? 0;
    const size = (random >>> 5) % 5 === 0 ? 0 : Math.round((5 + ((random >>> 7) % 200_000) / 100) * 100) / 100;
    if (size > 0) levels.set(cents, size);
    else levels.delete(cents);
    return { kind: "level" as const, side, cents, size, before, left: size };
  }

  const polymarketFeed = createPolymarketFeed(context());
  const kalshiFeed = createKalshiFeed(context());
  const polymarketSockets = polymarketFeed.sockets;
  const kalshiSockets = kalshiFeed.sockets;

  function context(): LiveFeedContext {
    return { catalogs, options, now, tapes, faultOn, sendData, servedBook, move, pick, tick: () => tick };
  }

  const timer = setInterval(() => {
    if (held) return;
    tick += 1;
    polymarketFeed.move();
    kalshiFeed.move();
  }, options.tickMs ?? 200);
  timer.unref();

  function pick(keys: string[]): string[] {
    const count = Math.min(keys.length, options.changesPerTick ?? 20);
    return Array.from({ length: count }, (_, i) => keys[(tick * count + i) % keys.length] as string);
  }

  // ---- the upgrade ----

  server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(request.url ?? "/", "http://replay").pathname;
    const venue: LiveVenue | null =
      path === POLYMARKET_WS_PATH ? "polymarket" : path === KALSHI_WS_PATH ? "kalshi" : null;
    if (!venue) return refuse(socket, 404, "Not Found");
    if (faultOn(venue, "refuse-upgrade")) return refuse(socket, 429, "Too Many Requests");
    const signed = venue === "kalshi" ? kalshiFeed.signedUpgrade(request) : "unsigned";
    if (signed === "forbidden") return refuse(socket, 403, "Forbidden");
    wss.handleUpgrade(request, socket, head, (ws) => {
      if (venue === "polymarket") polymarketFeed.open(ws);
      else kalshiFeed.open(ws, signed === "signed");
    });
  });

  return {
    setLiveFault(next) {
      fault = next ? { ...next, left: next.times ?? 1 } : null;
      const stall = next?.kind === "stall" ? next.venue : null;
      for (const socket of polymarketSockets) socket.stalled = stall === "polymarket";
      for (const socket of kalshiSockets) socket.stalled = stall === "kalshi";
      if (next?.kind === "stall") fault = null;
      if (next?.kind !== "close") return;
      for (const socket of next.venue === "polymarket" ? polymarketSockets : kalshiSockets) socket.ws.terminate();
      fault = null;
    },
    hold(on) {
      held = on;
    },
    bookOf: (key) => books.get(key),
    tape: (venue) => tapes[venue],
    connections: (venue) => (venue === "polymarket" ? polymarketSockets : kalshiSockets).size,
    sent: (venue) => sent[venue],
    close() {
      clearInterval(timer);
      for (const socket of [...polymarketSockets, ...kalshiSockets]) socket.ws.terminate();
      wss.close();
    },
  };
}

function refuse(socket: Duplex, status: number, text: string) {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

export function bestOf(levels: Map<number, number>, side: "bid" | "ask"): number | null {
  let best: number | null = null;
  for (const cents of levels.keys()) {
    if (best === null || (side === "bid" ? cents > best : cents < best)) best = cents;
  }
  return best;
}

export function price(cents: number | null): string {
  return cents === null ? (0).toString() : String(cents / 100);
}

export const dollars = (cents: number) => (cents / 100).toFixed(4);

export function yesPrice(market: Json): number {
  try {
    return Number((JSON.parse(String(market.outcomePrices ?? '["0.5"]')) as string[])[0] ?? 0.5);
  } catch {
    return 0.5;
  }
}

/** A stable UUID-shaped id from text. */
export function uuidOf(text: string): string {
  const hex = [0, 1, 2, 3].map((i) => hashSeed(`${text}:${i}`).toString(16).padStart(8, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export const isText = (value: string | undefined): value is string => typeof value === "string";
export const isObject = (value: Json | null): value is Json => value !== null;

/** Every key any socket is subscribed to, once. */
export function subscribedKeys<T>(sockets: Iterable<T>, keysOf: (socket: T) => Iterable<string>): string[] {
  const keys = new Set<string>();
  for (const socket of sockets) for (const key of keysOf(socket)) keys.add(key);
  return [...keys];
}
