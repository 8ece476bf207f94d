/**
 * The replay's Kalshi WebSocket (`live.ts` says what it imitates): the signed upgrade,
 * the commands, per-sid sequence numbers, and how a move of a market's book is told as a
 * delta and its trades on the trade channel.
 */
import { constants, createPublicKey, type KeyObject, verify } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { WebSocket } from "ws";
import type { Json } from "./catalog";
import { dollars, type LiveFeedContext, type ServedBook, subscribedKeys, uuidOf } from "./live";

/** The path Kalshi's signature covers: the upgrade's own path on the venue. */
const KALSHI_SIGNED_PATH = "/trade-api/ws/v2";

interface KalshiSubscription {
  sid: number;
  channel: string;
  tickers: Set<string> | null;
  seq: number;
}

export interface KalshiSocket {
  ws: WebSocket;
  stalled: boolean;
  signed: boolean;
  subscriptions: Map<number, KalshiSubscription>;
}

export function createKalshiFeed(ctx: LiveFeedContext) {
  const { catalogs, options, now, tapes, sendData, faultOn } = ctx;
  const publicKey: KeyObject | null = options.kalshiPublicKey ? createPublicKey(options.kalshiPublicKey) : null;
  const sockets = new Set<KalshiSocket>();
  let nextSid = 1;

  function kalshiBook(ticker: string): ServedBook | null {
    const ref = catalogs.kalshi.findMarket(ticker);
    if (ref?.market.status !== "active") return null;
    return ctx.servedBook(ticker, Number(ref.market.last_price_dollars ?? ref.market.yes_bid_dollars ?? 0.5));
  }

  function moveKalshi() {
    // The markets named by any subscription: a trade channel for every market names none.
    const tickers = subscribedKeys(sockets, (socket) =>
      [...socket.subscriptions.values()].flatMap((s) => [...(s.tickers ?? [])]),
    );
    for (const ticker of ctx.pick(tickers)) {
      const book = kalshiBook(ticker);
      if (!book) continue;
      const step = ctx.tick();
      const change = ctx.move(ticker, book, step);
      const at = now();
      const deltaSide = change.side === "bid" ? "yes" : "no";
      const deltaPrice = change.side === "bid" ? change.cents : 100 - change.cents;
      const delta = Math.round((change.left - change.before) * 100) / 100;
      if (change.kind === "trade") {
        const id = uuidOf(`${ticker}:${step}`);
        const takerSide = change.side === "bid" ? "no" : "yes";
        tapes.kalshi.push({ id, market: ticker, at, cents: change.cents, size: change.size, side: takerSide });
        for (const socket of sockets) {
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
      for (const socket of sockets) {
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
    sockets.add(socket);
    const heartbeat = setInterval(() => ws.ping("heartbeat"), options.pingMs ?? 10_000);
    ws.on("close", () => {
      clearInterval(heartbeat);
      sockets.delete(socket);
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

  return { sockets, signedUpgrade, open: openKalshi, move: moveKalshi };
}
