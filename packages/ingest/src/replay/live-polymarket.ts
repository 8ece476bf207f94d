/**
 * The replay's Polymarket market channel (`live.ts` says what it imitates): the sockets,
 * what a subscription is answered with, and how a move of a market's book is told to
 * the sockets that hear either of its tokens.
 */
import type { WebSocket } from "ws";
import { hashSeed, type Json, tokenIdsOf } from "./catalog";
import {
  bestOf,
  isObject,
  isText,
  type LiveFeedContext,
  price,
  type ServedBook,
  subscribedKeys,
  yesPrice,
} from "./live";

export interface PolymarketSocket {
  ws: WebSocket;
  stalled: boolean;
  tokens: Set<string>;
  /** Tokens past the cap or subscribed while `silent-assets` held: they hear nothing. */
  silent: Set<string>;
  custom: boolean;
}

export function createPolymarketFeed(ctx: LiveFeedContext) {
  const { catalogs, options, now, tapes, sendData, faultOn } = ctx;
  const assetCap = options.assetCap ?? 500;
  const sockets = new Set<PolymarketSocket>();

  function polymarketBook(token: string): { book: ServedBook; yesToken: string; noToken: string | null } | null {
    const ref = catalogs.polymarket.findByToken(token);
    if (!ref || ref.market.closed === true) return null;
    const tokens = tokenIdsOf(ref.market);
    const yesToken = tokens[0] ?? token;
    return { book: ctx.servedBook(yesToken, yesPrice(ref.market)), yesToken, noToken: tokens[1] ?? null };
  }

  function movePolymarket() {
    const tokens = subscribedKeys(sockets, (socket) => socket.tokens);
    const yesTokens = [...new Set(tokens.map((token) => polymarketBook(token)?.yesToken).filter(isText))];
    for (const yesToken of ctx.pick(yesTokens)) {
      const found = polymarketBook(yesToken);
      if (!found) continue;
      const { book, noToken } = found;
      const step = ctx.tick();
      const change = ctx.move(yesToken, book, step);
      const at = now();
      const market = String(catalogs.polymarket.findByToken(yesToken)?.market.conditionId ?? "");
      const audience = [...sockets].filter((s) => hearing(s, yesToken) || (noToken !== null && hearing(s, noToken)));
      const best = (levels: Map<number, number>, side: "bid" | "ask") => price(bestOf(levels, side));
      const bestFlipped = (levels: Map<number, number>, side: "bid" | "ask") => {
        const cents = bestOf(levels, side);
        return price(cents === null ? null : 100 - cents);
      };
      let frame: string;
      if (change.kind === "trade") {
        const id = `0x${hashSeed(`${yesToken}:${step}:trade`).toString(16).padStart(8, "0")}${step.toString(16).padStart(56, "0")}`;
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
      const hash = hashSeed(`${yesToken}:${step}`).toString(16).padStart(40, "0");
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

  function hearing(socket: PolymarketSocket, token: string): boolean {
    return socket.tokens.has(token) && !socket.silent.has(token);
  }

  function openPolymarket(ws: WebSocket) {
    const socket: PolymarketSocket = { ws, stalled: false, tokens: new Set(), silent: new Set(), custom: false };
    sockets.add(socket);
    const deadline = setTimeout(() => {
      if (socket.tokens.size === 0) ws.close(1008, "no subscription");
    }, options.subscribeWithinMs ?? 10_000);
    ws.on("close", () => {
      clearTimeout(deadline);
      sockets.delete(socket);
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

  return { sockets, open: openPolymarket, move: movePolymarket };
}
