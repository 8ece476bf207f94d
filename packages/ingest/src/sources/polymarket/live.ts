/**
 * Polymarket's CLOB market channel (`wss://ws-subscriptions-clob.polymarket.com/ws/market`,
 * API_FORMATS §5.1), one text frame at a time, into the archive's live events
 * (`../../live.ts`).
 *
 * What the channel sends and how it is read:
 * - the literal text `PONG`, the answer to the client's `PING`;
 * - one event object, or a JSON array of them (the first dump of several books);
 * - `book` (a token's whole book, levels in no promised order) → `book`;
 * - `price_change` (each level's new total size, `"0"` removes it; `BUY` a bid level,
 *   `SELL` an ask level), in the current shape (`price_changes[]`, each with its
 *   `asset_id`) and the one before 2025-09-15 (`asset_id` and `changes[]` at the top) →
 *   one `level` each;
 * - `last_trade_price` → `trade` (the transaction hash, where sent, as its id);
 * - `new_market` / `market_resolved` (with `custom_feature_enabled`) → `lifecycle`
 *   `listed` / `resolved`, keyed by the market's condition id, with its token ids;
 * - `tick_size_change` and `best_bid_ask`: nothing the book does not already say;
 * - any other `event_type` is counted, not refused.
 * Every number is a string; timestamps are epoch milliseconds as text.
 */
import { createHash } from "node:crypto";
import type { Warehouse } from "@epicenter/warehouse";
import { levelSize, priceTicks } from "../../books";
import { emptyFrame, type LiveEvent, type LiveFrame, type LiveLevel, type LiveTrade, parseFrame } from "../../live";
import type { SourceLive } from "../../source";
import { Invalid, readNumberish, readStringList } from "../../upstream-values";
import type { PolymarketTradeRow } from "./history-values";
import { withoutStoredBy } from "./tape";

/** What the channel takes on a socket: the first subscription, then additions and removals. */
export function polymarketSubscribe(tokens: readonly string[], operation?: "subscribe" | "unsubscribe"): string {
  if (operation === undefined) {
    return JSON.stringify({ assets_ids: tokens, type: "market", custom_feature_enabled: true, initial_dump: true });
  }
  return JSON.stringify({
    assets_ids: tokens,
    operation,
    ...(operation === "subscribe" ? { custom_feature_enabled: true } : {}),
  });
}

/** The heartbeat the client sends every 10 s; the channel answers `PONG`. */
export const POLYMARKET_PING = "PING";

const KNOWN_QUIET = new Set(["tick_size_change", "best_bid_ask"]);

export function readPolymarketFrame(text: string): LiveFrame {
  const frame = emptyFrame();
  if (text.trim() === "PONG") {
    frame.pong = true;
    return frame;
  }
  const parsed = parseFrame(text, frame);
  if (parsed === undefined) return frame;
  for (const item of Array.isArray(parsed) ? parsed : [parsed]) readEvent(item, frame);
  return frame;
}

function readEvent(item: unknown, frame: LiveFrame): void {
  if (!item || typeof item !== "object" || Array.isArray(item)) {
    frame.rejected.push("an event that is not an object");
    return;
  }
  const event = item as Record<string, unknown>;
  const type = event.event_type;
  const at = millis(event.timestamp);
  if (type === "book") readBook(event, at, frame);
  else if (type === "price_change") readPriceChange(event, at, frame);
  else if (type === "last_trade_price") readTrade(event, at, frame);
  else if (type === "new_market" || type === "market_resolved") readLifecycle(event, type, at, frame);
  else if (typeof type !== "string" || !KNOWN_QUIET.has(type)) frame.unknown += 1;
}

function readBook(event: Record<string, unknown>, at: number | null, frame: LiveFrame): void {
  const book = event.asset_id;
  if (typeof book !== "string" || book === "") {
    frame.rejected.push("a book without an asset_id");
    return;
  }
  if (!isList(event.bids) || !isList(event.asks)) {
    frame.rejected.push(`book ${book}: bids or asks is not a list`);
    return;
  }
  frame.events.push({ kind: "book", book, at, bids: levelsOf(event.bids), asks: levelsOf(event.asks) });
}

function readPriceChange(event: Record<string, unknown>, at: number | null, frame: LiveFrame): void {
  // The current shape: each change names its token. The legacy one: one token, at the top.
  const current = Array.isArray(event.price_changes);
  const changes = current ? event.price_changes : event.changes;
  if (!Array.isArray(changes)) {
    frame.rejected.push("a price_change without changes");
    return;
  }
  for (const change of changes) {
    if (!change || typeof change !== "object") {
      frame.rejected.push("a price change that is not an object");
      continue;
    }
    const { asset_id, price, size, side } = change as Record<string, unknown>;
    const book = current ? asset_id : event.asset_id;
    const ticks = priceTicks(price, "dollars");
    const read = readNumberish(size);
    const bookSide = side === "BUY" ? "bid" : side === "SELL" ? "ask" : null;
    if (typeof book !== "string" || ticks === null || typeof read !== "number" || read < 0 || bookSide === null) {
      frame.rejected.push(`a price change it cannot read: ${JSON.stringify(change).slice(0, 120)}`);
      continue;
    }
    frame.events.push({ kind: "level", book, at, side: bookSide, ticks, size: read });
  }
}

function readTrade(event: Record<string, unknown>, at: number | null, frame: LiveFrame): void {
  const { asset_id: book, price, size, side, transaction_hash } = event;
  const ticks = priceTicks(price, "dollars");
  const amount = levelSize(size);
  if (typeof book !== "string" || ticks === null || amount === null || (side !== "BUY" && side !== "SELL")) {
    frame.rejected.push(`a trade it cannot read: ${JSON.stringify(event).slice(0, 120)}`);
    return;
  }
  const tradeId = typeof transaction_hash === "string" && transaction_hash !== "" ? transaction_hash : null;
  frame.events.push({ kind: "trade", book, at, ticks, size: amount, side: side === "BUY" ? "buy" : "sell", tradeId });
}

function readLifecycle(event: Record<string, unknown>, type: string, at: number | null, frame: LiveFrame): void {
  const market = event.market ?? event.condition_id;
  if (typeof market !== "string" || market === "") {
    frame.rejected.push(`a ${type} without its market`);
    return;
  }
  // The recorded new_market sends `assets_ids` and `clob_token_ids`; either may be absent.
  const listed = readStringList(event.assets_ids ?? event.clob_token_ids);
  const books = listed instanceof Invalid ? [] : listed;
  const winner = event.winning_asset_id;
  const lifecycle: LiveEvent = {
    kind: "lifecycle",
    market,
    at,
    change: type === "new_market" ? "listed" : "resolved",
    books,
    result: typeof winner === "string" && winner !== "" ? winner : null,
  };
  frame.events.push(lifecycle);
}

function isList(value: unknown): boolean {
  return value === undefined || value === null || Array.isArray(value);
}

function levelsOf(levels: unknown): LiveLevel[] {
  if (!Array.isArray(levels)) return [];
  const read: LiveLevel[] = [];
  for (const level of levels) {
    if (!level || typeof level !== "object") continue;
    const { price, size } = level as { price?: unknown; size?: unknown };
    const ticks = priceTicks(price, "dollars");
    const amount = levelSize(size);
    if (ticks !== null && amount !== null) read.push([ticks, amount]);
  }
  return read;
}

/** Epoch ms from the channel's text (`"1790658674035"`), or null. */
function millis(value: unknown): number | null {
  const read = readNumberish(value);
  return typeof read === "number" && read > 0 ? read : null;
}

/**
 * A streamed trade's `trade_index`: 1,000 and up, so its key never meets a Data API fill's
 * (0, 1, … within the transaction), and distinct among the stream's trades of its second.
 */
function streamTradeIndex(trade: LiveTrade): number {
  const { book, ticks, size, tradeId } = trade.trade;
  const digest = createHash("sha1")
    .update(`${book} ${ticks} ${size} ${tradeId ?? ""} ${trade.received}`)
    .digest();
  return 1_000 + (digest.readUInt32BE(0) % 64_000);
}

interface MarketFacts {
  condition: string;
  tokens: string[];
  outcomes: string[];
}

/** A market's condition, tokens and outcomes never change: read once per market, not at every write. */
const factsByWarehouse = new WeakMap<Warehouse, Map<string, MarketFacts>>();

async function marketFacts(warehouse: Warehouse, trades: readonly LiveTrade[]): Promise<Map<string, MarketFacts>> {
  let known = factsByWarehouse.get(warehouse);
  if (!known) {
    known = new Map();
    factsByWarehouse.set(warehouse, known);
  }
  const missing = [...new Set(trades.map((trade) => trade.market))].filter((id) => !known.has(id));
  if (missing.length > 0) {
    for (const row of await warehouse.query<MarketFacts & { id: string }>(
      `SELECT id, conditionId AS condition, clobTokenIds AS tokens, outcomes FROM polymarket.markets_latest FINAL
       WHERE id IN {ids:Array(String)}`,
      { params: { ids: missing } },
    )) {
      known.set(row.id, { condition: row.condition, tokens: row.tokens, outcomes: row.outcomes });
    }
  }
  return known;
}

/**
 * The stream's trades into `polymarket.trades` (`source = 'stream'`), each with its market's
 * condition and outcome from `markets_latest`, less those the Data API's walks stored already
 * (`withoutStoredBy`: the feed has no fill index, so a trade is matched on its token, price,
 * size and transaction where sent). The feed's side is the taker's; no wallet is sent.
 */
export async function storePolymarketTrades(warehouse: Warehouse, trades: readonly LiveTrade[]): Promise<number> {
  if (trades.length === 0) return 0;
  const markets = await marketFacts(warehouse, trades);
  const rows: Array<PolymarketTradeRow & { source: "stream" }> = [];
  // A frame sent twice: the same transaction's same fill, once.
  const seen = new Set<string>();
  for (const streamed of trades) {
    const { market, trade, received } = streamed;
    const once = `${trade.book} ${trade.tradeId} ${trade.ticks} ${trade.size}`;
    if (trade.tradeId !== null && seen.has(once)) continue;
    seen.add(once);
    const known = markets.get(market);
    const outcomeIndex = known ? known.tokens.indexOf(trade.book) : -1;
    rows.push({
      id: market,
      condition_id: known?.condition ?? "",
      transaction_hash: trade.tradeId ?? "",
      trade_index: streamTradeIndex(streamed),
      token_id: trade.book,
      outcome: known?.outcomes[outcomeIndex] ?? "",
      outcome_index: Math.max(outcomeIndex, 0),
      ts: Math.floor((trade.at ?? received / 1000) / 1000),
      price: trade.ticks / 10_000,
      size: trade.size,
      side: trade.side === "buy" ? "BUY" : "SELL",
      proxy_wallet: "",
      source: "stream",
    });
  }
  const fresh = await withoutStoredBy(warehouse, rows, "rest");
  if (fresh.length > 0) await warehouse.insert("polymarket.trades", fresh);
  return fresh.length;
}

/** The venue's market channel, where `POLYMARKET_WS_URL` does not say another. */
export const POLYMARKET_WS_URL = "wss://ws-subscriptions-clob.polymarket.com/ws/market";

/**
 * How the archive follows the channel: both tokens of each open market (its trades are
 * reported on either; its book is read from the first, the Yes, the second being the same
 * orders from the other side), 250 markets a socket, under the ~500 tokens past which a
 * socket goes silent without a word (API_FORMATS §5.1, Limits).
 */
export const polymarketLive: SourceLive = {
  url: (config) => config.polymarket.wsUrl ?? POLYMARKET_WS_URL,
  perConnection: 250,
  targetsSql: `SELECT id AS market, arraySlice(clobTokenIds, 1, 2) AS books
    FROM polymarket.markets_latest FINAL
    WHERE closed = false AND coalesce(active, true) AND coalesce(enableOrderBook, true) AND length(clobTokenIds) > 0
    ORDER BY coalesce(volume24hr, 0) DESC, id`,
  connect: () => ({ headers: {}, signed: false }),
  subscribe: (books) => [polymarketSubscribe(books)],
  unsignedGap: null,
  read: readPolymarketFrame,
  ping: { text: POLYMARKET_PING, everyMs: 10_000 },
  storeTrades: storePolymarketTrades,
};
