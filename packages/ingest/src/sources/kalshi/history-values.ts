/**
 * Kalshi's history objects as rows: candles and trades in their three shapes (live
 * `*_dollars`/`*_fp` text, the historical tier's unsuffixed text, legacy integer cents and
 * counts), all in dollars and contracts. Shared by the per-market history (`history.ts`)
 * and the exchange-wide tape (`tape.ts`).
 */
import { z } from "zod";

export interface KalshiCandleRow {
  ticker: string;
  period_minutes: number;
  end_period_ts: number;
  yes_bid_open: number | null;
  yes_bid_high: number | null;
  yes_bid_low: number | null;
  yes_bid_close: number | null;
  yes_ask_open: number | null;
  yes_ask_high: number | null;
  yes_ask_low: number | null;
  yes_ask_close: number | null;
  price_open: number | null;
  price_high: number | null;
  price_low: number | null;
  price_close: number | null;
  price_mean: number | null;
  price_previous: number | null;
  volume: number | null;
  open_interest: number | null;
}

export interface KalshiTradeRow {
  trade_id: string;
  ticker: string;
  created_time: string;
  yes_price: number;
  no_price: number;
  count: number;
  taker_side: string;
  taker_outcome_side: string;
  taker_book_side: string;
  is_block_trade: boolean | null;
}

type Json = Record<string, unknown>;

/** A number sent as text or as a JSON number; null when absent or not a number. */
function numeric(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value !== "string" || value.trim() === "") return null;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : null;
}

/**
 * A price in dollars from whichever shape sent it: `<name>_dollars` text (live), `<name>`
 * text (historical tier, already dollars) or `<name>` as an integer (legacy cents).
 */
export function priceOf(object: unknown, name: string): number | null {
  if (!object || typeof object !== "object") return null;
  const fields = object as Json;
  const fixed = numeric(fields[`${name}_dollars`]);
  if (fixed !== null) return fixed;
  const plain = fields[name];
  if (typeof plain === "number") return Number.isFinite(plain) ? Math.round(plain * 100) / 10_000 : null;
  return numeric(plain);
}

/** A count in contracts: `<name>_fp` text (live) or `<name>` as text or integer (historical, legacy). */
export function countOf(object: Json, name: string): number | null {
  return numeric(object[`${name}_fp`]) ?? numeric(object[name]);
}

export const ZTradesPage = z.object({ trades: z.array(z.unknown()).nullish(), cursor: z.string().nullish() });

/** Candles of one market as rows; a candle without an `end_period_ts` is counted out. */
export function mapCandles(
  ticker: string,
  periodMinutes: number,
  candles: readonly unknown[],
): { rows: KalshiCandleRow[]; skipped: number } {
  const rows: KalshiCandleRow[] = [];
  let skipped = 0;
  for (const item of candles) {
    const candle = (item ?? {}) as Json;
    const end = numeric(candle.end_period_ts);
    if (end === null || !Number.isInteger(end) || end <= 0) {
      skipped += 1;
      continue;
    }
    const bid = candle.yes_bid;
    const ask = candle.yes_ask;
    const price = candle.price;
    rows.push({
      ticker,
      period_minutes: periodMinutes,
      end_period_ts: end,
      yes_bid_open: priceOf(bid, "open"),
      yes_bid_high: priceOf(bid, "high"),
      yes_bid_low: priceOf(bid, "low"),
      yes_bid_close: priceOf(bid, "close"),
      yes_ask_open: priceOf(ask, "open"),
      yes_ask_high: priceOf(ask, "high"),
      yes_ask_low: priceOf(ask, "low"),
      yes_ask_close: priceOf(ask, "close"),
      price_open: priceOf(price, "open"),
      price_high: priceOf(price, "high"),
      price_low: priceOf(price, "low"),
      price_close: priceOf(price, "close"),
      price_mean: priceOf(price, "mean"),
      price_previous: priceOf(price, "previous"),
      volume: countOf(candle, "volume"),
      open_interest: countOf(candle, "open_interest"),
    });
  }
  return { rows, skipped };
}

/** `2026-07-25T05:51:39.54467Z` → `2026-07-25 05:51:39.54467` (UTC, microseconds kept). */
function warehouseMicros(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const utc = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?)\d*Z$/.exec(value);
  if (utc) return `${utc[1]} ${utc[2]}`;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString().replace("T", " ").replace("Z", "");
}

/** Trades as rows; a trade without an id, a market, a time or a price is counted out. */
export function mapTrades(trades: readonly unknown[]): { rows: KalshiTradeRow[]; skipped: number } {
  const rows: KalshiTradeRow[] = [];
  let skipped = 0;
  for (const item of trades) {
    const trade = (item ?? {}) as Json;
    const created = warehouseMicros(trade.created_time);
    const yes = priceOf(trade, "yes_price");
    const count = countOf(trade, "count");
    if (typeof trade.trade_id !== "string" || typeof trade.ticker !== "string" || !created || yes === null) {
      skipped += 1;
      continue;
    }
    rows.push({
      trade_id: trade.trade_id,
      ticker: trade.ticker,
      created_time: created,
      yes_price: yes,
      no_price: priceOf(trade, "no_price") ?? Math.round((1 - yes) * 10_000) / 10_000,
      count: count ?? 0,
      taker_side: typeof trade.taker_side === "string" ? trade.taker_side : "",
      taker_outcome_side: typeof trade.taker_outcome_side === "string" ? trade.taker_outcome_side : "",
      taker_book_side: typeof trade.taker_book_side === "string" ? trade.taker_book_side : "",
      is_block_trade: typeof trade.is_block_trade === "boolean" ? trade.is_block_trade : null,
    });
  }
  return { rows, skipped };
}

/** The second (Unix) a trade row was created in. */
export function tradeSecond(row: KalshiTradeRow): number {
  return Math.floor(Date.parse(`${row.created_time}Z`) / 1000);
}
