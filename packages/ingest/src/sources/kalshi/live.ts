/**
 * Kalshi's Trade API WebSocket (`wss://external-api-ws.kalshi.com/trade-api/ws/v2`,
 * API_FORMATS §5.2), one text frame at a time, into the archive's live events
 * (`../../live.ts`), and the signed upgrade it needs.
 *
 * Every data frame is `{type, sid, seq?, msg}`: `seq` counts one subscription's frames from
 * 1, the snapshot included, so a missed number is a lost message on that `sid`. Read here:
 * - `orderbook_snapshot` → `book` in yes terms: yes bids as bids, a no bid at p as a yes
 *   ask at 1 − p; an empty side has its key absent (both absent: an empty book); the
 *   current `*_dollars_fp` keys, and `*_dollars` or integer cents in older archives;
 * - `orderbook_delta` → `delta`: `delta_fp` is a signed change of the resting size at
 *   (`side`, `price_dollars`), turned to yes terms the same way; its `ts` is RFC 3339;
 * - `trade` → `trade` (`trade_id`; `taker_outcome_side`, or the deprecated `taker_side`;
 *   `ts` in seconds);
 * - `market_lifecycle_v2` → `lifecycle` (`event_type`: created, activated, deactivated,
 *   close_date_updated, determined, settled);
 * - `ticker`, `event_lifecycle`: nothing the archive keeps from the stream;
 * - `subscribed`, `ok`, `unsubscribed`, `error` → `control`.
 */
import { constants, createSign } from "node:crypto";
import { toDateTime64, type Warehouse } from "@epicenter/warehouse";
import { complementTicks, levelSize, priceTicks } from "../../books";
import { type BookSide, emptyFrame, type LiveFrame, type LiveLevel, type LiveTrade, parseFrame } from "../../live";
import type { SourceLive } from "../../source";
import { Invalid, readNumberish, readTimestamp } from "../../upstream-values";
import type { KalshiTradeRow } from "./history-values";
import { unstoredTrades } from "./tape";

/** The path the upgrade signs (the host and any query never enter the signed text). */
export const KALSHI_WS_PATH = "/trade-api/ws/v2";

/**
 * The upgrade's three headers: the key id, the time in ms and an RSA-PSS (SHA-256, salt
 * as long as the digest) signature of `time + "GET" + path`, signed afresh for every
 * connection. `privateKey` is the PEM Kalshi lets one download once (PKCS#1 or PKCS#8).
 */
export function kalshiSignedHeaders(keyId: string, privateKey: string, now: number): Record<string, string> {
  const timestamp = String(now);
  const signer = createSign("RSA-SHA256");
  signer.update(`${timestamp}GET${KALSHI_WS_PATH}`);
  const signature = signer.sign({
    key: privateKey,
    padding: constants.RSA_PKCS1_PSS_PADDING,
    saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
  });
  return {
    "KALSHI-ACCESS-KEY": keyId,
    "KALSHI-ACCESS-TIMESTAMP": timestamp,
    "KALSHI-ACCESS-SIGNATURE": signature.toString("base64"),
  };
}

export type KalshiChannel = "orderbook_delta" | "trade" | "ticker" | "market_lifecycle_v2";

/** A command: `subscribe` with tickers (none: every market, where the channel allows it). */
export function kalshiSubscribe(id: number, channels: readonly KalshiChannel[], tickers?: readonly string[]): string {
  return JSON.stringify({
    id,
    cmd: "subscribe",
    params: { channels, ...(tickers ? { market_tickers: tickers } : {}) },
  });
}

/** Adds or removes tickers of one subscription. */
export function kalshiUpdate(id: number, sid: number, tickers: readonly string[], action: "add" | "delete"): string {
  return JSON.stringify({
    id,
    cmd: "update_subscription",
    params: { sids: [sid], market_tickers: tickers, action: `${action}_markets` },
  });
}

export function kalshiUnsubscribe(id: number, sids: readonly number[]): string {
  return JSON.stringify({ id, cmd: "unsubscribe", params: { sids } });
}

const CONTROL = new Set(["subscribed", "ok", "unsubscribed", "error"]);
const QUIET = new Set(["ticker", "ticker_v2", "event_lifecycle", "multivariate_lookup"]);

export function readKalshiFrame(text: string): LiveFrame {
  const frame = emptyFrame();
  const parsed = parseFrame(text, frame);
  if (parsed === undefined) return frame;
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    frame.rejected.push("a frame that is not an object");
    return frame;
  }
  const { type, sid, seq, id, msg } = parsed as Record<string, unknown>;
  if (isCount(sid)) frame.sid = sid;
  if (isCount(seq)) frame.seq = seq;
  if (typeof type !== "string") {
    frame.rejected.push("a frame without a type");
    return frame;
  }
  const body = msg && typeof msg === "object" && !Array.isArray(msg) ? (msg as Record<string, unknown>) : null;
  if (CONTROL.has(type)) {
    frame.control = { type, ...(isCount(id) ? { id } : {}), ...(frame.sid ? { sid: frame.sid } : {}) };
    if (body && isCount(body.sid)) frame.control.sid = body.sid;
    if (body && typeof body.channel === "string") frame.control.channel = body.channel;
    if (type === "error" && body) {
      if (typeof body.code === "number") frame.control.code = body.code;
      if (typeof body.msg === "string") frame.control.message = body.msg;
    }
    return frame;
  }
  if (QUIET.has(type)) return frame;
  if (!body) {
    frame.rejected.push(`a ${type} frame without its msg`);
    return frame;
  }
  if (type === "orderbook_snapshot") readSnapshot(body, frame);
  else if (type === "orderbook_delta") readDelta(body, frame);
  else if (type === "trade") readTrade(body, frame);
  else if (type === "market_lifecycle_v2") readLifecycle(body, frame);
  else frame.unknown += 1;
  return frame;
}

function readSnapshot(msg: Record<string, unknown>, frame: LiveFrame): void {
  const book = msg.market_ticker;
  if (typeof book !== "string" || book === "") {
    frame.rejected.push("a snapshot without its market_ticker");
    return;
  }
  frame.events.push({ kind: "book", book, at: null, bids: sideOf(msg, "yes"), asks: sideOf(msg, "no") });
}

/** One outcome's bids in yes terms: a no bid at p is a yes ask at 1 − p. */
function sideOf(msg: Record<string, unknown>, outcome: "yes" | "no"): LiveLevel[] {
  for (const [key, unit] of [
    [`${outcome}_dollars_fp`, "dollars"],
    [`${outcome}_dollars`, "dollars"],
    [outcome, "cents"],
  ] as const) {
    const levels = msg[key];
    if (!Array.isArray(levels)) continue;
    const read: LiveLevel[] = [];
    for (const level of levels) {
      if (!Array.isArray(level)) continue;
      const price = priceTicks(level[0], unit);
      const ticks = outcome === "no" ? complementTicks(price) : price;
      const size = levelSize(level[1]);
      if (ticks !== null && size !== null) read.push([ticks, size]);
    }
    return read;
  }
  return [];
}

function readDelta(msg: Record<string, unknown>, frame: LiveFrame): void {
  const { market_ticker: book, side, ts } = msg;
  const price = "price_dollars" in msg ? priceTicks(msg.price_dollars, "dollars") : priceTicks(msg.price, "cents");
  const change = readNumberish(msg.delta_fp ?? msg.delta);
  if (typeof book !== "string" || price === null || typeof change !== "number" || (side !== "yes" && side !== "no")) {
    frame.rejected.push(`a delta it cannot read: ${JSON.stringify(msg).slice(0, 120)}`);
    return;
  }
  const bookSide: BookSide = side === "yes" ? "bid" : "ask";
  const ticks = side === "yes" ? price : (complementTicks(price) as number);
  frame.events.push({ kind: "delta", book, at: time(ts), side: bookSide, ticks, change });
}

function readTrade(msg: Record<string, unknown>, frame: LiveFrame): void {
  const { market_ticker: book, trade_id, ts } = msg;
  const ticks =
    "yes_price_dollars" in msg ? priceTicks(msg.yes_price_dollars, "dollars") : priceTicks(msg.yes_price, "cents");
  const size = levelSize(msg.count_fp ?? msg.count);
  const side = msg.taker_outcome_side ?? msg.taker_side;
  if (typeof book !== "string" || ticks === null || size === null || (side !== "yes" && side !== "no")) {
    frame.rejected.push(`a trade it cannot read: ${JSON.stringify(msg).slice(0, 120)}`);
    return;
  }
  const tradeId = typeof trade_id === "string" && trade_id !== "" ? trade_id : null;
  frame.events.push({ kind: "trade", book, at: time(ts), ticks, size, side, tradeId });
}

function readLifecycle(msg: Record<string, unknown>, frame: LiveFrame): void {
  const { market_ticker: market, event_type: change, result } = msg;
  if (typeof market !== "string" || market === "" || typeof change !== "string") {
    frame.rejected.push("a lifecycle frame without its market_ticker or event_type");
    return;
  }
  const at = time(msg.settled_ts ?? msg.determination_ts ?? msg.open_ts ?? msg.close_ts);
  frame.events.push({
    kind: "lifecycle",
    market,
    at,
    change,
    books: [market],
    result: typeof result === "string" && result !== "" ? result : null,
  });
}

/** Epoch ms from Kalshi's times: seconds as a number, or RFC 3339 text. */
function time(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) && value > 0 ? value * 1000 : null;
  const read = readTimestamp(value);
  return read === null || read instanceof Invalid ? null : read;
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

/**
 * The stream's trades into `kalshi.trades`, known by `trade_id` as the REST tape knows them
 * (`tape.ts` leaves out what the stream stored, and this what the tape did). The feed times
 * a trade to the second (`ts`); the tape's copy, where it came first, keeps its microseconds.
 * The feed does not say which book side the taker hit, nor whether it was a block trade.
 */
export async function storeKalshiTrades(warehouse: Warehouse, trades: readonly LiveTrade[]): Promise<number> {
  const rows: Array<KalshiTradeRow & { source: "stream" }> = [];
  for (const { market, trade, received } of trades) {
    if (trade.tradeId === null) continue;
    const at = trade.at ?? Math.floor(received / 1_000_000) * 1000;
    rows.push({
      trade_id: trade.tradeId,
      ticker: market,
      created_time: `${toDateTime64(at)}000`,
      yes_price: trade.ticks / 10_000,
      no_price: (10_000 - trade.ticks) / 10_000,
      count: trade.size,
      taker_side: trade.side,
      taker_outcome_side: trade.side,
      taker_book_side: "",
      is_block_trade: null,
      source: "stream",
    });
  }
  const fresh = await unstoredTrades(warehouse, rows);
  if (fresh.length > 0) await warehouse.insert("kalshi.trades", fresh);
  return fresh.length;
}

/** The venue's WebSocket, where `KALSHI_WS_URL` does not say another. */
export const KALSHI_WS_URL = "wss://external-api-ws.kalshi.com/trade-api/ws/v2";

/**
 * How the archive follows the feed: every open market's book (`orderbook_delta`, signed
 * only) and trades, 1,000 markets a socket (Kalshi documents no cap; a few sockets rather
 * than many, since bursts of upgrades are refused with 429). Signed with the operator's key
 * where it is configured; unsigned, only the trades.
 */
export const kalshiLive: SourceLive = {
  url: (config) => config.kalshi.wsUrl ?? KALSHI_WS_URL,
  perConnection: 1_000,
  targetsSql: `SELECT ticker AS market, [ticker] AS books
    FROM kalshi.markets_latest FINAL
    WHERE status IN ('active', 'open')
    ORDER BY coalesce(volume_24h, 0) DESC, ticker`,
  connect(config, now) {
    const credentials = config.kalshi.credentials;
    if (!credentials) return { headers: {}, signed: false };
    return { headers: kalshiSignedHeaders(credentials.keyId, credentials.privateKey, now), signed: true };
  },
  subscribe: (books, signed) => [
    ...(signed ? [kalshiSubscribe(1, ["orderbook_delta"], books)] : []),
    kalshiSubscribe(2, ["trade"], books),
  ],
  unsignedGap:
    "order books: Kalshi's orderbook_delta channel needs a signed connection (set KALSHI_API_KEY_ID and KALSHI_PRIVATE_KEY_PATH)",
  read: readKalshiFrame,
  ping: null,
  storeTrades: storeKalshiTrades,
};
