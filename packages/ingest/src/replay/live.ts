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
import { constants, createPublicKey, type KeyObject, verify } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { type WebSocket, WebSocketServer } from "ws";
import { replayLevels } from "./books";
import { hashSeed, type Json, type KalshiCatalog, type PolymarketCatalog, tokenIdsOf } from "./catalog";

export const POLYMARKET_WS_PATH = "/polymarket-ws/ws/market";
export const KALSHI_WS_PATH = "/kalshi/trade-api/ws/v2";
/** The path Kalshi's signature covers: the upgrade's own path on the venue. */
const KALSHI_SIGNED_PATH = "/trade-api/ws/v2";

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

interface PolymarketSocket {
  ws: WebSocket;
  stalled: boolean;
  tokens: Set<string>;
  /** Tokens past the cap or subscribed while `silent-assets` held: they hear nothing. */
  silent: Set<string>;
  custom: boolean;
}

interface KalshiSubscription {
  sid: number;
  channel: string;
  tickers: Set<string> | null;
  seq: number;
}

interface KalshiSocket {
  ws: WebSocket;
  stalled: boolean;
  signed: boolean;
  subscriptions: Map<number, KalshiSubscription>;
}

/** Attaches both feeds to the replay's HTTP server (its `upgrade` event). */
export function attachLiveReplay(
  server: import("node:http").Server,
  catalogs: { polymarket: PolymarketCatalog; kalshi: KalshiCatalog },
  options: LiveReplayOptions = {},
): LiveReplay {
  const now = options.now ?? Date.now;
  const assetCap = options.assetCap ?? 500;
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  const publicKey: KeyObject | null = options.kalshiPublicKey ? createPublicKey(options.kalshiPublicKey) : null;
  const books = new Map<string, ServedBook>();
  const tapes: Record<LiveVenue, ServedTrade[]> = { polymarket: [], kalshi: [] };
  const sent: Record<LiveVenue, number> = { polymarket: 0, kalshi: 0 };
  const polymarketSockets = new Set<PolymarketSocket>();
  const kalshiSockets = new Set<KalshiSocket>();
  let fault: ActiveFault | null = null;
  let nextSid = 1;
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

  // ---- the books and their moves ----

  function polymarketBook(token: string): { book: ServedBook; yesToken: string; noToken: string | null } | null {
    const ref = catalogs.polymarket.findByToken(token);
    if (!ref || ref.market.closed === true) return null;
    const tokens = tokenIdsOf(ref.market);
    const yesToken = tokens[0] ?? token;
    return { book: servedBook(yesToken, yesPrice(ref.market)), yesToken, noToken: tokens[1] ?? null };
  }

  function kalshiBook(ticker: string): ServedBook | null {
    const ref = catalogs.kalshi.findMarket(ticker);
    if (ref?.market.status !== "active") return null;
    return servedBook(ticker, Number(ref.market.last_price_dollars ?? ref.market.yes_bid_dollars ?? 0.5));
  }

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
  function move(key: string, book: ServedBook, step: number) {
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

  const timer = setInterval(() => {
    if (held) return;
    tick += 1;
    movePolymarket();
    moveKalshi();
  }, options.tickMs ?? 200);
  timer.unref();

  function subscribedKeys<T>(sockets: Iterable<T>, keysOf: (socket: T) => Iterable<string>): string[] {
    const keys = new Set<string>();
    for (const socket of sockets) for (const key of keysOf(socket)) keys.add(key);
    return [...keys];
  }

  function pick(keys: string[]): string[] {
    const count = Math.min(keys.length, options.changesPerTick ?? 20);
    return Array.from({ length: count }, (_, i) => keys[(tick * count + i) % keys.length] as string);
  }

  function movePolymarket() {
    const tokens = subscribedKeys(polymarketSockets, (socket) => socket.tokens);
    const yesTokens = [...new Set(tokens.map((token) => polymarketBook(token)?.yesToken).filter(isText))];
    for (const yesToken of pick(yesTokens)) {
      const found = polymarketBook(yesToken);
      if (!found) continue;
      const { book, noToken } = found;
      const change = move(yesToken, book, tick);
      const at = now();
      const market = String(catalogs.polymarket.findByToken(yesToken)?.market.conditionId ?? "");
      const audience = [...polymarketSockets].filter(
        (s) => hearing(s, yesToken) || (noToken !== null && hearing(s, noToken)),
      );
      const best = (levels: Map<number, number>, side: "bid" | "ask") => price(bestOf(levels, side));
      const bestFlipped = (levels: Map<number, number>, side: "bid" | "ask") => {
        const cents = bestOf(levels, side);
        return price(cents === null ? null : 100 - cents);
      };
      let frame: string;
      if (change.kind === "trade") {
        const id = `0x${hashSeed(`${yesToken}:${tick}:trade`).toString(16).padStart(8, "0")}${tick.toString(16).padStart(56, "0")}`;
        const side = change.side === "bid" ? "SELL" : "BUY";
        tapes.polymarket.push({ id, market: yesToken, at, cents: change.cents, size: change.size, side });
        frame = JSON.stringify({
          asset_id: yesToken,
          event_type: "last_trade_price",
          fee_rate_bps: "0",
          market,
          price: String(change.cents / 100),
          side,
          size: String(change.size),
          timestamp: String(at),
          transaction_hash: id,
        });
        for (const socket of audience) sendData("polymarket", socket, frame);
      }
      const hash = hashSeed(`${yesToken}:${tick}`).toString(16).padStart(40, "0");
      const yesSide = change.side === "bid" ? "BUY" : "SELL";
      const changes = [
        {
          asset_id: yesToken,
          price: String(change.cents / 100),
          size: String(change.left),
          side: yesSide,
          hash,
          best_bid: best(book.bids, "bid"),
          best_ask: best(book.asks, "ask"),
        },
        ...(noToken
          ? [
              {
                asset_id: noToken,
                price: String((100 - change.cents) / 100),
                size: String(change.left),
                side: yesSide === "BUY" ? "SELL" : "BUY",
                hash,
                best_bid: bestFlipped(book.asks, "ask"),
                best_ask: bestFlipped(book.bids, "bid"),
              },
            ]
          : []),
      ];
      frame = JSON.stringify({ market, price_changes: changes, timestamp: String(at), event_type: "price_change" });
      for (const socket of audience) {
        if (faultOn("polymarket", "gap")) continue;
        sendData("polymarket", socket, frame);
      }
    }
  }

  function moveKalshi() {
    // The markets named by any subscription: a trade channel for every market names none.
    const tickers = subscribedKeys(kalshiSockets, (socket) =>
      [...socket.subscriptions.values()].flatMap((s) => [...(s.tickers ?? [])]),
    );
    for (const ticker of pick(tickers)) {
      const book = kalshiBook(ticker);
      if (!book) continue;
      const step = tick;
      const change = move(ticker, book, step);
      const at = now();
      const deltaSide = change.side === "bid" ? "yes" : "no";
      const deltaPrice = change.side === "bid" ? change.cents : 100 - change.cents;
      const delta = Math.round((change.left - change.before) * 100) / 100;
      if (change.kind === "trade") {
        const id = uuidOf(`${ticker}:${step}`);
        const takerSide = change.side === "bid" ? "no" : "yes";
        tapes.kalshi.push({ id, market: ticker, at, cents: change.cents, size: change.size, side: takerSide });
        for (const socket of kalshiSockets) {
          for (const subscription of socket.subscriptions.values()) {
            if (subscription.channel !== "trade" || (subscription.tickers && !subscription.tickers.has(ticker)))
              continue;
            sendKalshi(socket, subscription, "trade", {
              trade_id: id,
              market_ticker: ticker,
              yes_price_dollars: dollars(change.cents),
              no_price_dollars: dollars(100 - change.cents),
              count_fp: change.size.toFixed(2),
              taker_side: takerSide,
              taker_outcome_side: takerSide,
              ts: Math.floor(at / 1000),
            });
          }
        }
      }
      if (delta === 0) continue;
      for (const socket of kalshiSockets) {
        for (const subscription of socket.subscriptions.values()) {
          if (subscription.channel !== "orderbook_delta" || !subscription.tickers?.has(ticker)) continue;
          sendKalshi(socket, subscription, "orderbook_delta", {
            market_ticker: ticker,
            price_dollars: dollars(deltaPrice),
            delta_fp: delta.toFixed(2),
            side: deltaSide,
            ts: new Date(at).toISOString(),
          });
        }
      }
    }
  }

  function sendKalshi(socket: KalshiSocket, subscription: KalshiSubscription, type: string, msg: Json) {
    subscription.seq += 1;
    if (faultOn("kalshi", "gap")) subscription.seq += 1;
    // A stall loses what it would have sent; the numbers move on all the same, as the venue's do.
    sendData("kalshi", socket, JSON.stringify({ type, sid: subscription.sid, seq: subscription.seq, msg }));
  }

  // ---- Polymarket's socket ----

  function hearing(socket: PolymarketSocket, token: string): boolean {
    return socket.tokens.has(token) && !socket.silent.has(token);
  }

  function openPolymarket(ws: WebSocket) {
    const socket: PolymarketSocket = { ws, stalled: false, tokens: new Set(), silent: new Set(), custom: false };
    polymarketSockets.add(socket);
    const deadline = setTimeout(() => {
      if (socket.tokens.size === 0) ws.close(1008, "no subscription");
    }, options.subscribeWithinMs ?? 10_000);
    ws.on("close", () => {
      clearTimeout(deadline);
      polymarketSockets.delete(socket);
    });
    ws.on("message", (data, binary) => {
      const text = binary ? "" : data.toString();
      if (text === "PING") return ws.send("PONG");
      let command: Json;
      try {
        command = JSON.parse(text) as Json;
      } catch {
        return;
      }
      const tokens = Array.isArray(command.assets_ids) ? command.assets_ids.map(String) : [];
      if (command.operation === "unsubscribe") {
        for (const token of tokens) {
          socket.tokens.delete(token);
          socket.silent.delete(token);
        }
        return;
      }
      if (command.custom_feature_enabled === true) socket.custom = true;
      const added = tokens.filter((token) => !socket.tokens.has(token));
      for (const token of added) {
        socket.tokens.add(token);
        if (socket.tokens.size > assetCap || faultOn("polymarket", "silent-assets")) socket.silent.add(token);
      }
      const dumps = added
        .filter((token) => !socket.silent.has(token))
        .map(bookEvent)
        .filter(isObject);
      if (options.bookFrames === "array" && dumps.length > 0) {
        sendData("polymarket", socket, JSON.stringify(dumps));
      } else {
        for (const dump of dumps) sendData("polymarket", socket, JSON.stringify(dump));
      }
    });
  }

  function bookEvent(token: string): Json | null {
    const found = polymarketBook(token);
    if (!found) return null;
    const { book, yesToken } = found;
    const yes = token === yesToken;
    const flip = (levels: Map<number, number>) =>
      [...levels].map(([cents, size]): [number, number] => [100 - cents, size]);
    const bids = yes ? [...book.bids] : flip(book.asks);
    const asks = yes ? [...book.asks] : flip(book.bids);
    const level = ([cents, size]: [number, number]) => ({ price: String(cents / 100), size: String(size) });
    const at = now();
    // The CLOB lists both sides worst first (PM line 1).
    return {
      market: String(catalogs.polymarket.findByToken(token)?.market.conditionId ?? ""),
      asset_id: token,
      timestamp: String(at),
      hash: hashSeed(`${token}:${at}`).toString(16).padStart(40, "0"),
      bids: bids.sort(([a], [b]) => a - b).map(level),
      asks: asks.sort(([a], [b]) => b - a).map(level),
      tick_size: "0.01",
      event_type: "book",
    };
  }

  // ---- Kalshi's socket ----

  function signedUpgrade(request: IncomingMessage): "signed" | "unsigned" | "forbidden" {
    const key = request.headers["kalshi-access-key"];
    const timestamp = request.headers["kalshi-access-timestamp"];
    const signature = request.headers["kalshi-access-signature"];
    if (key === undefined && timestamp === undefined && signature === undefined) return "unsigned";
    if (!publicKey || typeof timestamp !== "string" || typeof signature !== "string") return "forbidden";
    const valid = verify(
      "sha256",
      Buffer.from(`${timestamp}GET${KALSHI_SIGNED_PATH}`),
      { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST },
      Buffer.from(signature, "base64"),
    );
    return valid ? "signed" : "forbidden";
  }

  function openKalshi(ws: WebSocket, signed: boolean) {
    const socket: KalshiSocket = { ws, stalled: false, signed, subscriptions: new Map() };
    kalshiSockets.add(socket);
    const heartbeat = setInterval(() => ws.ping("heartbeat"), options.pingMs ?? 10_000);
    ws.on("close", () => {
      clearInterval(heartbeat);
      kalshiSockets.delete(socket);
    });
    const answer = (body: Json) => ws.send(JSON.stringify(body));
    const error = (id: unknown, code: number, msg: string) => answer({ id, type: "error", msg: { code, msg } });
    ws.on("message", (data) => {
      let command: Json;
      try {
        command = JSON.parse(data.toString()) as Json;
      } catch {
        return error(0, 1, "Unable to process message");
      }
      const id = command.id;
      const params = (command.params ?? {}) as Json;
      if (command.cmd === "subscribe") {
        const channels = Array.isArray(params.channels) ? params.channels.map(String) : [];
        if (channels.length === 0) return error(id, 3, "Channels required");
        const tickers = Array.isArray(params.market_tickers)
          ? params.market_tickers.map(String)
          : typeof params.market_ticker === "string"
            ? [params.market_ticker]
            : null;
        for (const channel of channels) {
          if (!["orderbook_delta", "trade", "ticker", "market_lifecycle_v2"].includes(channel)) {
            error(id, 8, "Unknown channel name");
            continue;
          }
          if (channel === "orderbook_delta" && !socket.signed) {
            error(id, 9, "Authentication required");
            continue;
          }
          if (channel === "orderbook_delta" && !tickers) {
            error(id, 14, "Market ticker required");
            continue;
          }
          const subscription: KalshiSubscription = {
            sid: nextSid++,
            channel,
            tickers: tickers ? new Set(tickers) : null,
            seq: 0,
          };
          socket.subscriptions.set(subscription.sid, subscription);
          answer({ id, type: "subscribed", msg: { channel, sid: subscription.sid } });
          if (channel === "orderbook_delta") snapshots(socket, subscription, tickers ?? []);
        }
        return;
      }
      if (command.cmd === "update_subscription") {
        const sids = Array.isArray(params.sids) ? params.sids : params.sid !== undefined ? [params.sid] : [];
        if (sids.length !== 1) return error(id, 12, "Exactly one sid required");
        const subscription = socket.subscriptions.get(Number(sids[0]));
        if (!subscription) return error(id, 7, "Unknown subscription id");
        const tickers = Array.isArray(params.market_tickers) ? params.market_tickers.map(String) : [];
        subscription.tickers ??= new Set();
        if (params.action === "add_markets") {
          const added = tickers.filter((ticker) => !subscription.tickers?.has(ticker));
          for (const ticker of added) subscription.tickers.add(ticker);
          if (subscription.channel === "orderbook_delta") snapshots(socket, subscription, added);
        } else if (params.action === "delete_markets") {
          for (const ticker of tickers) subscription.tickers.delete(ticker);
        } else {
          return error(id, 13, "Unsupported action");
        }
        return answer({
          id,
          sid: subscription.sid,
          seq: subscription.seq,
          type: "ok",
          msg: { market_tickers: [...subscription.tickers] },
        });
      }
      if (command.cmd === "unsubscribe") {
        const sids = Array.isArray(params.sids) ? params.sids.map(Number) : [];
        if (sids.length === 0) return error(id, 4, "Sids required");
        for (const sid of sids) {
          const subscription = socket.subscriptions.get(sid);
          if (!subscription) {
            error(id, 7, "Unknown subscription id");
            continue;
          }
          socket.subscriptions.delete(sid);
          answer({ id, sid, seq: subscription.seq, type: "unsubscribed" });
        }
        return;
      }
      if (command.cmd === "list_subscriptions") {
        return answer({
          id,
          type: "ok",
          msg: [...socket.subscriptions.values()].map(({ channel, sid }) => ({ channel, sid })),
        });
      }
      return error(id, 5, "Unknown command");
    });
  }

  function snapshots(socket: KalshiSocket, subscription: KalshiSubscription, tickers: readonly string[]) {
    for (const ticker of tickers) {
      const book = kalshiBook(ticker);
      if (!book && !catalogs.kalshi.findMarket(ticker)) {
        socket.ws.send(
          JSON.stringify({ id: 0, type: "error", msg: { code: 16, msg: "Market not found", market_ticker: ticker } }),
        );
        continue;
      }
      const yes = [...(book?.bids ?? [])].sort(([a], [b]) => a - b).map(([c, s]) => [dollars(c), s.toFixed(2)]);
      const no = [...(book?.asks ?? [])].map(([c, s]): [number, number] => [100 - c, s]).sort(([a], [b]) => a - b);
      sendKalshi(socket, subscription, "orderbook_snapshot", {
        market_ticker: ticker,
        market_id: uuidOf(ticker),
        ...(yes.length ? { yes_dollars_fp: yes } : {}),
        ...(no.length ? { no_dollars_fp: no.map(([c, s]) => [dollars(c), s.toFixed(2)]) } : {}),
      });
    }
  }

  // ---- the upgrade ----

  server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(request.url ?? "/", "http://replay").pathname;
    const venue: LiveVenue | null =
      path === POLYMARKET_WS_PATH ? "polymarket" : path === KALSHI_WS_PATH ? "kalshi" : null;
    if (!venue) return refuse(socket, 404, "Not Found");
    if (faultOn(venue, "refuse-upgrade")) return refuse(socket, 429, "Too Many Requests");
    const signed = venue === "kalshi" ? signedUpgrade(request) : "unsigned";
    if (signed === "forbidden") return refuse(socket, 403, "Forbidden");
    wss.handleUpgrade(request, socket, head, (ws) => {
      if (venue === "polymarket") openPolymarket(ws);
      else openKalshi(ws, signed === "signed");
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

function bestOf(levels: Map<number, number>, side: "bid" | "ask"): number | null {
  let best: number | null = null;
  for (const cents of levels.keys()) {
    if (best === null || (side === "bid" ? cents > best : cents < best)) best = cents;
  }
  return best;
}

function price(cents: number | null): string {
  return cents === null ? (0).toString() : String(cents / 100);
}

const dollars = (cents: number) => (cents / 100).toFixed(4);

function yesPrice(market: Json): number {
  try {
    return Number((JSON.parse(String(market.outcomePrices ?? '["0.5"]')) as string[])[0] ?? 0.5);
  } catch {
    return 0.5;
  }
}

/** A stable UUID-shaped id from text. */
function uuidOf(text: string): string {
  const hex = [0, 1, 2, 3].map((i) => hashSeed(`${text}:${i}`).toString(16).padStart(8, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

const isText = (value: string | undefined): value is string => typeof value === "string";
const isObject = (value: Json | null): value is Json => value !== null;
