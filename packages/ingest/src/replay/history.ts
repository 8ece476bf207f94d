/**
 * The replay server's history endpoints: Polymarket's CLOB price history and Data API
 * trades, Kalshi's candlesticks (live, batch and historical) and trades (live and
 * historical), for every market of the catalog, with the venues' limits, shapes and traps
 * as API_FORMATS §3 records them. It exists so the history worker, its tests, the
 * benchmark and the offline demo meet what production will send, without a network.
 *
 * Nothing is stored: every answer is computed on request from the market's seed (its
 * token, condition id or ticker), so the same request gives the same bytes and a
 * 150,000-market catalog costs nothing until asked. The recorded samples
 * (`fixtures/polymarket/history/`, `fixtures/kalshi/history/`) are served exactly for their
 * own token, conditions and tickers.
 *
 * This module lists which catalog markets have a history and routes requests; the price
 * paths and trade spreads are `history-market-life.ts`'s, the endpoints
 * `history-polymarket.ts`'s, `history-kalshi-candles.ts`'s and `history-kalshi-trades.ts`'s,
 * and what they share (context, recorded samples, parsing) `history-context.ts`'s.
 *
 * Choices where the notes are silent (guesses, kept in one place):
 * - Data API v2 envelope: `{"trades":[…],"next_cursor":"…"|null,"has_more":bool}`; fills
 *   of one transaction share `transactionHash` and `timestamp` and are listed together in
 *   a fixed order, so `trade_index` = a fill's position among its hash's fills in the feed;
 *   (transactionHash, asset, price, size) is unique too.
 * - Kalshi errors: `{"error":{"code":"bad_request"|"not_found","message":…}}`. A market
 *   settled before the market cutoff is 404 on the live candle routes and absent from the
 *   batch; a live market is 404 on `/historical/markets/{ticker}/candlesticks`; a series
 *   in the path that is not the market's is 404.
 * - Legacy (integer cents and counts) candles and trades: every 7th catalog market, the
 *   ones with (event index × 64 + position) mod 7 = 0 (`isLegacyKalshiMarket`).
 */
import { type Json, type KalshiCatalog, type PolymarketCatalog, tokenIdsOf } from "./catalog";
import { type Context, type HistoryOptions, kalshiCutoffs, type Reply, readRecorded } from "./history-context";
import { batchCandles, marketCandles } from "./history-kalshi-candles";
import { kalshiTrades } from "./history-kalshi-trades";
import { isArchived, isLegacyKalshiMarket } from "./history-market-life";
import { batchPricesHistory, polymarketTrades, pricesHistory } from "./history-polymarket";

export interface PolymarketHistoryKey {
  eventIndex: number;
  id: string;
  conditionId: string;
  tokenIds: string[];
  closed: boolean;
}

/** Every catalog market that has a history (placeholders without prices have none), lazily. */
export function* polymarketHistoryKeys(catalog: PolymarketCatalog): Generator<PolymarketHistoryKey> {
  for (let eventIndex = 0; eventIndex < catalog.eventCount; eventIndex += 1) {
    for (const market of catalog.event(eventIndex).markets as Json[]) {
      if (typeof market.outcomePrices !== "string" || typeof market.conditionId !== "string") continue;
      const key = { eventIndex, id: String(market.id), conditionId: market.conditionId };
      yield { ...key, tokenIds: tokenIdsOf(market), closed: market.closed === true };
    }
  }
}

export interface KalshiHistoryKey {
  eventIndex: number;
  ticker: string;
  seriesTicker: string;
  /** Settled before the market cutoff: served by `/historical/markets/{ticker}/candlesticks` only. */
  historical: boolean;
  /** The shape its live candles and trades come in. */
  shape: "live" | "legacy";
}

export function* kalshiHistoryKeys(catalog: KalshiCatalog, marketCutoff: number): Generator<KalshiHistoryKey> {
  for (let eventIndex = 0; eventIndex < catalog.eventCount; eventIndex += 1) {
    const { event } = catalog.event(eventIndex);
    for (const [position, market] of (event.markets as Json[]).entries()) {
      yield {
        eventIndex,
        ticker: String(market.ticker),
        seriesTicker: String(event.series_ticker),
        historical: isArchived(market, marketCutoff),
        shape: isLegacyKalshiMarket(eventIndex, position) ? "legacy" : "live",
      };
    }
  }
}

/** A history route; `body` is a POST's JSON. */
export type HistoryRoute = (url: URL, body?: unknown) => Reply | null;

/** The history routes; null for a path that is not one (the snapshot routes take it). */
export function createHistoryRoutes(
  catalogs: { polymarket: PolymarketCatalog; kalshi: KalshiCatalog },
  options: HistoryOptions,
): HistoryRoute {
  const recorded = readRecorded(options.fixturesDir);
  const context = (): Context => ({
    ...catalogs,
    recorded,
    now: Math.floor((options.now?.() ?? Date.now()) / 1000),
    cutoffs: kalshiCutoffs(options),
    liveTape: options.liveTape ?? (() => []),
  });
  return (url, body) => {
    const path = url.pathname;
    if (path.startsWith("/polymarket-clob/")) {
      if (path === "/polymarket-clob/prices-history") return pricesHistory(context(), url);
      if (path === "/polymarket-clob/batch-prices-history") return batchPricesHistory(context(), body);
      return { status: 404, body: { error: `no route ${path}` } };
    }
    if (path.startsWith("/polymarket-data/")) {
      if (path === "/polymarket-data/v2/trades") return polymarketTrades(context(), url);
      return { status: 404, body: { error: `no route ${path}` } };
    }
    const kalshi = path.replace(/^\/kalshi\/trade-api\/v2/, "");
    const series = /^\/series\/([^/]+)\/markets\/([^/]+)\/candlesticks$/.exec(kalshi);
    if (series) return marketCandles(context(), url, decodeURIComponent(series[2] ?? ""), "live", series[1]);
    const archived = /^\/historical\/markets\/([^/]+)\/candlesticks$/.exec(kalshi);
    if (archived) return marketCandles(context(), url, decodeURIComponent(archived[1] ?? ""), "historical");
    if (kalshi === "/markets/candlesticks") return batchCandles(context(), url);
    if (kalshi === "/markets/trades") return kalshiTrades(context(), url, "live");
    if (kalshi === "/historical/trades") return kalshiTrades(context(), url, "historical");
    return null;
  };
}
