/**
 * What every history endpoint of the replay server is handed and answers with: the request
 * context (catalogs, clock, Kalshi's cutoffs), the recorded samples served verbatim, the
 * venues' error bodies, and the query and cursor parsing the endpoints share. Kept apart
 * from the routing in `history.ts` so the endpoint modules depend on it without a cycle.
 */
import { type Json, type KalshiCatalog, type PolymarketCatalog, readFixture } from "./catalog";
import type { LiveVenue, ServedTrade } from "./live";

export interface Reply {
  status: number;
  body: unknown;
}

export interface HistoryOptions {
  fixturesDir: string;
  now?: () => number;
  /** Epoch ms of Kalshi's market cutoff (`market_settled_ts`). */
  historicalCutoff?: number;
  /** Epoch ms of Kalshi's trades cutoff (`trades_created_ts`); the market cutoff when absent. */
  historicalTradesCutoff?: number;
  /** The trades the live feeds served so far, oldest first: the REST tapes hold them too. */
  liveTape?: (venue: LiveVenue) => readonly ServedTrade[];
}

export interface Context {
  polymarket: PolymarketCatalog;
  kalshi: KalshiCatalog;
  recorded: Recorded;
  /** Epoch seconds. */
  now: number;
  cutoffs: { markets: number; trades: number };
  /** The trades the live feeds served so far, oldest first. */
  liveTape: (venue: LiveVenue) => readonly ServedTrade[];
}

const DEFAULT_MARKET_CUTOFF = Date.parse("2025-01-01T00:00:00Z");

/** Kalshi's cutoffs, epoch ms, as `/historical/cutoff` reports them. */
export function kalshiCutoffs(options: Omit<HistoryOptions, "fixturesDir">): { markets: number; trades: number } {
  const markets = options.historicalCutoff ?? DEFAULT_MARKET_CUTOFF;
  return { markets, trades: options.historicalTradesCutoff ?? markets };
}

export const polymarketError = (status: number, error: string): Reply => ({ status, body: { error } });
export const kalshiError = (status: number, message: string): Reply => ({
  status,
  body: { error: { code: status === 404 ? "not_found" : "bad_request", message } },
});

export function integer(url: URL, name: string): number | null | "invalid" {
  const text = url.searchParams.get(name);
  if (text === null || text === "") return null;
  return /^-?\d+$/.test(text) ? Number(text) : "invalid";
}

export function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

export function decodeCursor<T>(cursor: string | null, valid: (value: unknown) => value is T): T | null | "invalid" {
  if (!cursor) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString());
    return valid(value) ? value : "invalid";
  } catch {
    return "invalid";
  }
}

export interface Recorded {
  priceToken: string;
  prices: Array<{ t: number; p: number }>;
  polymarketTrades: Map<string, Json[]>;
  candleTicker: string;
  candleSeries: string;
  candles: Json[];
  kalshiTrades: Json[];
}

export function readRecorded(fixturesDir: string): Recorded {
  const prices = readFixture(fixturesDir, "polymarket/history/clob_prices_history_hourly_2026-05.json") as {
    _request: { token: string };
    history: Array<{ t: number; p: number }>;
  };
  const trades = readFixture(fixturesDir, "polymarket/history/data_api_trades_2026.json") as Json[];
  const polymarketTrades = new Map<string, Json[]>();
  for (const trade of [...trades].sort((a, b) => Number(b.timestamp) - Number(a.timestamp))) {
    const list = polymarketTrades.get(String(trade.conditionId)) ?? [];
    polymarketTrades.set(String(trade.conditionId), [...list, trade]);
  }
  const candles = readFixture(fixturesDir, "kalshi/history/candlesticks_live_hourly_2026-06.json") as {
    ticker: string;
    candlesticks: Json[];
  };
  const kalshiTrades = readFixture(fixturesDir, "kalshi/history/markets_trades_2026.json") as { trades: Json[] };
  return {
    priceToken: prices._request.token,
    prices: prices.history,
    polymarketTrades,
    candleTicker: candles.ticker,
    candleSeries: candles.ticker.split("-")[0] ?? "",
    candles: candles.candlesticks,
    kalshiTrades: kalshiTrades.trades,
  };
}

/** The ids the recorded samples answer for, beside the catalog's. */
export function recordedHistoryIds(fixturesDir: string) {
  const recorded = readRecorded(fixturesDir);
  return {
    polymarketToken: recorded.priceToken,
    polymarketConditions: [...recorded.polymarketTrades.keys()],
    kalshiCandleTicker: recorded.candleTicker,
    kalshiCandleSeries: recorded.candleSeries,
    kalshiTradeTickers: recorded.kalshiTrades.map((trade) => String(trade.ticker)),
  };
}

/**
 * A value built over a whole catalog, kept while its key holds (`bySecond`, `byDay`): the
 * tapes build their view of the catalog once per key, not once per page.
 */
export function keptPerCatalog<Value>() {
  const kept = new WeakMap<object, { key: string; value: Value }>();
  return (catalog: object, key: string, build: () => Value): Value => {
    const cached = kept.get(catalog);
    if (cached?.key === key) return cached.value;
    const value = build();
    kept.set(catalog, { key, value });
    return value;
  };
}

/** A catalog as of one second of the clock and one move: the markets' lives. */
export const bySecond = (context: Context, catalog: { tick: number }) => `${context.now} ${catalog.tick}`;

/**
 * A catalog as of one UTC day and one move: the markets themselves, whose state holds all
 * day (`closedDaysAgo`) but for turnover clones (`lifeOf`), whose close the tapes show
 * from the next move on (their trades stop at the close all the same: the lives are
 * built `bySecond`).
 */
export const byDay = (context: Context, catalog: { tick: number }) =>
  `${Math.floor(context.now / 86_400)} ${catalog.tick}`;

/** The first of `count` items in ascending order whose value (`valueAt`) is at or after `value`; `count` when none is. */
export function firstAtOrAfter(count: number, valueAt: (index: number) => number, value: number): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (valueAt(middle) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The live feed's trades grouped by `keyOf` (null leaves one out), kept up as the tape
 * grows (it only grows), so a walk paging through the REST tape does not regroup it.
 */
export function tapeGroups(
  keyOf: (context: Context, trade: ServedTrade) => string | null,
): (context: Context, tape: readonly ServedTrade[]) => Map<string, ServedTrade[]> {
  const indexes = new WeakMap<readonly ServedTrade[], { seen: number; groups: Map<string, ServedTrade[]> }>();
  return (context, tape) => {
    let index = indexes.get(tape);
    if (!index) {
      index = { seen: 0, groups: new Map() };
      indexes.set(tape, index);
    }
    for (; index.seen < tape.length; index.seen += 1) {
      const trade = tape[index.seen] as ServedTrade;
      const key = keyOf(context, trade);
      if (key === null) continue;
      const group = index.groups.get(key);
      if (group) group.push(trade);
      else index.groups.set(key, [trade]);
    }
    return index.groups;
  };
}
