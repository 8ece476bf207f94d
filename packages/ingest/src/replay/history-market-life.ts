/**
 * The generated life of a catalog market, which every history endpoint draws from: one
 * deterministic price path per market (`pathPrice`), seeded by its condition id or ticker,
 * and its trades spread one per equal slot over the planned life (fixed from the open time,
 * so "now" moving on only reveals more of them). Price points, candles and trades are drawn
 * around the path independently, so they agree roughly, not to the cent. Trades are ≤ 200
 * fills per Polymarket condition and ≤ 300 per Kalshi market.
 */
import { hashSeed, type Json, type KalshiMarketRef, noise, noiseAt, type PolymarketMarketRef } from "./catalog";
import type { Context } from "./history-context";

export const HOUR = 3_600;
export const DAY = 86_400;

export function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

export const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Epoch seconds of a venue time ("2026-01-23T20:56:36Z" or Gamma's "2026-01-23 20:56:36+00"); null for Go's zero time. */
function seconds(value: unknown): number | null {
  if (typeof value !== "string") return null;
  const ms = Date.parse(value.replace(" ", "T").replace(/\+00$/, "Z"));
  return Number.isNaN(ms) || ms < Date.parse("2000-01-01T00:00:00Z") ? null : Math.floor(ms / 1000);
}

/** Candles and trades of this catalog market come in integer cents and counts. */
export function isLegacyKalshiMarket(eventIndex: number, position: number): boolean {
  return (eventIndex * 64 + position) % 7 === 0;
}

export function isArchived(market: Json, marketCutoff: number): boolean {
  const close = seconds(market.close_time);
  return market.status === "finalized" && close !== null && close * 1000 < marketCutoff;
}

export interface PricePath {
  seed: number;
  base: number;
  start: number;
  end: number;
  /** The resolved value (1 or 0) the path ends on, or null while undecided. */
  outcome: number | null;
}

/** The market's displayed yes price at second `t`: a slow wander around `base`, drawn to its outcome at the end. */
export function pathPrice(path: PricePath, t: number): number {
  if (path.outcome !== null && t >= path.end - HOUR) return path.outcome;
  const room = Math.min(path.base, 1 - path.base);
  const amplitude = clamp(room * 0.6, 0.004, 0.15);
  const hours = t / HOUR;
  const phase = (path.seed % 6283) / 1000;
  const slow = 0.6 * Math.sin(hours / 61 + phase) + 0.25 * Math.sin(hours / 9.7 + 2 * phase);
  const hour = Math.floor(hours);
  const f = hours - hour;
  const jiggle = 0.3 * (noiseAt(path.seed, hour) * (1 - f) + noiseAt(path.seed, hour + 1) * f - 0.5);
  let price = path.base + amplitude * (slow + jiggle);
  if (path.outcome !== null) {
    const ramp = Math.max(HOUR, Math.min(3 * DAY, (path.end - path.start) * 0.2));
    const weight = clamp((t - (path.end - HOUR - ramp)) / ramp, 0, 1);
    price = price * (1 - weight) + path.outcome * weight;
  }
  return clamp(price, 0.001, 0.999);
}

/** A resolved market's recorded price is its outcome; its history starts somewhere in between. */
function basePrice(recorded: number, seed: number, resolved: boolean): number {
  if (resolved && (recorded >= 0.98 || recorded <= 0.02)) return 0.2 + 0.6 * noise(seed);
  return clamp(Number.isFinite(recorded) ? recorded : 0.5, 0.002, 0.998);
}

/** `count` trades from `start`, one per equal slot (the k-th somewhere in slot k), so any window's are found without a scan. */
export interface Spread {
  seed: number;
  start: number;
  slot: number;
  count: number;
  /** The last time any of them can have happened (the market's end, or now). */
  until: number;
}

export function spreadAt(spread: Spread, k: number): number {
  return Math.floor(spread.start + (k + 0.05 + 0.9 * noiseAt(spread.seed, k)) * spread.slot);
}

/** Indexes of the events within [from, to] (any units the spread is in), ascending. */
export function spreadRange(spread: Spread, from: number, to: number): [number, number] {
  const hi = Math.min(to, spread.until);
  let first = clamp(Math.floor((from - spread.start) / spread.slot), 0, spread.count);
  while (first < spread.count && spreadAt(spread, first) < from) first += 1;
  let last = clamp(Math.floor((hi - spread.start) / spread.slot), -1, spread.count - 1);
  while (last >= 0 && spreadAt(spread, last) > hi) last -= 1;
  return [first, last];
}

/** `count` trades over the planned life (an hour to two years), in seconds or, with `unit` 1e6, microseconds. */
export function tradeSpread(
  seed: number,
  start: number,
  plannedEnd: number | null,
  until: number,
  count: number,
  unit = 1,
) {
  const span = clamp((plannedEnd ?? start + 30 * DAY * unit) - start, HOUR * unit, 730 * DAY * unit);
  return { seed, start, slot: span / Math.max(1, count), count, until };
}

export interface PolymarketLife {
  path: PricePath;
  closed: boolean;
  /** The market's scheduled end, which spaces its trades. */
  plannedEnd: number | null;
}

export function polymarketLife(ref: PolymarketMarketRef, now: number): PolymarketLife | null {
  const { market, template } = ref;
  if (typeof market.outcomePrices !== "string") return null;
  const start = seconds(market.startDate) ?? seconds(market.createdAt);
  const closed = market.closed === true;
  const end = Math.min(now, closed ? (seconds(market.closedTime) ?? seconds(market.endDate) ?? now) : now);
  if (start === null || end <= start) return null;
  const yes = Number((JSON.parse(market.outcomePrices) as string[])[0]);
  const resolved = closed && (yes >= 0.99 || yes <= 0.01);
  const seed = hashSeed(String(market.conditionId));
  // The recorded price, not the moved one: history must not change when the catalog advances.
  const recordedYes = Number((JSON.parse(String(template.outcomePrices ?? "[]")) as string[])[0] ?? 0.5);
  const base = basePrice(recordedYes, seed, resolved);
  return {
    path: { seed, base, start, end, outcome: resolved ? Math.round(yes) : null },
    closed,
    plannedEnd: closed ? end : seconds(market.endDate),
  };
}

export interface KalshiLife {
  ticker: string;
  path: PricePath;
  legacy: boolean;
  archived: boolean;
  fractional: boolean;
  volume: number;
  openInterest: number;
  trades: Spread;
}

export function kalshiLife(context: Context, ref: KalshiMarketRef): KalshiLife | null {
  const { market, template } = ref;
  const ticker = String(market.ticker);
  // `created_time` is Go's zero time in nested listings; `open_time` is what trading starts at.
  const start = seconds(market.open_time) ?? seconds(market.created_time);
  const close = seconds(market.close_time);
  const end = Math.min(context.now, close ?? context.now);
  const volume = Number(template.volume_fp ?? template.volume ?? 0);
  if (start === null || end <= start || !(volume > 0)) return null;
  const seed = hashSeed(ticker);
  const outcome = market.result === "yes" ? 1 : market.result === "no" ? 0 : null;
  const base = basePrice(Number(template.last_price_dollars ?? 0.5), seed, outcome !== null);
  const count = clamp(Math.ceil(volume / 500), 2, 300);
  // The recorded close spaces a clone's trades (a past close must not move them), a turnover clone's its own.
  const plannedEnd = context.kalshi.plannedClose(ref.eventIndex) ?? seconds(template.close_time);
  const planned = plannedEnd === null ? null : plannedEnd * 1e6;
  const trades = tradeSpread(seed ^ 0x7ade, start * 1e6, planned, end * 1e6, count, 1e6);
  return {
    ticker,
    path: { seed, base, start, end, outcome },
    legacy: isLegacyKalshiMarket(ref.eventIndex, ref.position),
    archived: isArchived(market, context.cutoffs.markets),
    fractional: market.fractional_trading_enabled === true,
    volume,
    openInterest: Number(template.open_interest_fp ?? template.open_interest ?? 0),
    trades,
  };
}
