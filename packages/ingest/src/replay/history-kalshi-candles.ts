/**
 * Kalshi's candlestick endpoints on the replay server: one market's live and historical
 * candles and the batch route, with the period and range limits, the sparse periods (one
 * exists only if something happened, and only once it has ended), the synthetic
 * `include_latest_before_start` candle, and the three shapes (live `_dollars`, historical,
 * legacy integer cents). The recorded sample answers for its own ticker and series.
 */
import { type Json, noise, noiseAt } from "./catalog";
import { type Context, integer, kalshiError, type Reply } from "./history-context";
import { clamp, HOUR, isArchived, type KalshiLife, kalshiLife, pathPrice, round } from "./history-market-life";

const NOT_FOUND = kalshiError(404, "market not found");
const PERIODS = new Set([1, 60, 1440]);

interface CandleRequest {
  start: number;
  end: number;
  period: number;
}

/** The shared checks: period ∈ {1, 60, 1440} and at most 5,000 periods in the requested range. */
function candleRequest(url: URL, tickers = 1): CandleRequest | Reply {
  const start = integer(url, "start_ts");
  const end = integer(url, "end_ts");
  const period = integer(url, "period_interval");
  if (typeof period !== "number" || !PERIODS.has(period)) {
    return kalshiError(400, "invalid period_interval: must be one of 1, 60, 1440");
  }
  if (typeof start !== "number" || typeof end !== "number") return kalshiError(400, "start_ts and end_ts are required");
  if (end < start) return kalshiError(400, "end_ts must not be before start_ts");
  const periods = Math.floor((end - start) / (period * 60));
  if (periods > 5_000) {
    return kalshiError(400, `requested time range with candlesticks: ${periods}, max candlesticks: 5000`);
  }
  if (periods * tickers > 10_000) {
    return kalshiError(400, `requested time range with candlesticks: ${periods * tickers}, max candlesticks: 10000`);
  }
  return { start, end, period };
}

type CandleShape = "live" | "historical" | "legacy";

export function marketCandles(
  context: Context,
  url: URL,
  ticker: string,
  tier: "live" | "historical",
  series?: string,
) {
  const request = candleRequest(url);
  if ("status" in request) return request;
  if (ticker === context.recorded.candleTicker) {
    if (tier === "historical" || series !== context.recorded.candleSeries) return NOT_FOUND;
    return { status: 200, body: { ticker, candlesticks: recordedCandles(context, request) } };
  }
  const ref = context.kalshi.findMarket(ticker);
  if (!ref || (series !== undefined && series !== ref.event.series_ticker)) return NOT_FOUND;
  if (isArchived(ref.market, context.cutoffs.markets) !== (tier === "historical")) return NOT_FOUND;
  const life = kalshiLife(context, ref);
  return { status: 200, body: { ticker, candlesticks: life ? candles(context, life, request, false) : [] } };
}

/** `GET /markets/candlesticks?market_tickers=A,B&…`: ≤ 100 tickers, ≤ 10,000 candles judged on the range. */
export function batchCandles(context: Context, url: URL): Reply {
  const tickers = (url.searchParams.get("market_tickers") ?? "").split(",").filter(Boolean);
  if (tickers.length === 0) return kalshiError(400, "market_tickers is required");
  if (tickers.length > 100) return kalshiError(400, `too many market_tickers: ${tickers.length}, max 100`);
  const request = candleRequest(url, tickers.length);
  if ("status" in request) return request;
  const withLatest = url.searchParams.get("include_latest_before_start") === "true";
  const markets = tickers.map((ticker) => {
    if (ticker === context.recorded.candleTicker) {
      return { market_ticker: ticker, candlesticks: recordedCandles(context, request) };
    }
    const ref = context.kalshi.findMarket(ticker);
    const life = ref && !isArchived(ref.market, context.cutoffs.markets) ? kalshiLife(context, ref) : null;
    return { market_ticker: ticker, candlesticks: life ? candles(context, life, request, withLatest) : [] };
  });
  return { status: 200, body: { markets } };
}

function recordedCandles(context: Context, request: CandleRequest): Json[] {
  if (request.period !== 60) return [];
  return context.recorded.candles.filter((candle) => {
    const end = Number(candle.end_period_ts);
    return end >= request.start && end <= request.end && end <= context.now;
  });
}

interface CandleValues {
  end: number;
  /** Trade prices, or null for a period with quote changes but no trade. */
  trade: { open: number; high: number; low: number; close: number; mean: number } | null;
  previous: number | null;
  /** Best yes bid and ask at the period's open and close. */
  bid: [number, number];
  ask: [number, number];
  volume: number;
  openInterest: number;
  /** `include_latest_before_start`'s projected candle: trade prices null, not absent. */
  synthetic?: boolean;
}

/** The sparse candles of one market: a period exists only if something happened, and only once it has ended. */
function candles(context: Context, life: KalshiLife, request: CandleRequest, withLatest: boolean): Json[] {
  const step = request.period * 60;
  const seed = life.path.seed ^ request.period;
  const first = Math.ceil(life.path.start / step) * step + (life.path.start % step === 0 ? step : 0);
  const last = Math.min(Math.ceil(life.path.end / step) * step, Math.floor(context.now / step) * step);
  const quiet = 0.3 + 0.3 * noise(seed);
  const present = (end: number) =>
    end >= first && end <= last && (end === first || noiseAt(seed ^ 0xca11, end / step) >= quiet);
  const traded = (end: number) => end === first || noiseAt(seed ^ 0x7ade, end / step) >= 0.05;
  const close = (end: number) => round(clamp(pathPrice(life.path, end), 0.01, 0.99), 2);
  /** The close of the last candle with a trade before `end`, walking back (a few steps on average). */
  const previousClose = (end: number): number | null => {
    for (let e = end - step, steps = 0; e >= first; e -= step, steps += 1) {
      if (steps > 400) return close(e);
      if (present(e) && traded(e)) return close(e);
    }
    return null;
  };
  const values = (end: number, previous: number | null): CandleValues => {
    const r = (n: number) => noiseAt(seed ^ (0xc0 + n), end / step);
    const progress = clamp((end - life.path.start) / (life.path.end - life.path.start), 0.02, 1);
    const openInterest = life.openInterest * progress * (0.95 + 0.1 * r(0));
    const spread = r(1) < 0.8 ? 0.01 : 0.02;
    const quote = (at: number) => round(clamp(at - spread / 2, 0, 1 - spread), 2);
    const quotes = (open: number, closing: number) => ({
      bid: [quote(open), quote(closing)] as [number, number],
      ask: [round(quote(open) + spread, 2), round(quote(closing) + spread, 2)] as [number, number],
    });
    if (!traded(end) && previous !== null) {
      return { end, trade: null, previous, ...quotes(previous, previous), volume: 0, openInterest };
    }
    const closing = close(end);
    const open = previous ?? round(clamp(pathPrice(life.path, end - step), 0.01, 0.99), 2);
    const high = round(Math.min(0.99, Math.max(open, closing) + (r(2) < 0.3 ? 0.01 : 0)), 2);
    const low = round(Math.max(0.01, Math.min(open, closing) - (r(3) < 0.3 ? 0.01 : 0)), 2);
    const mean = round(low + (high - low) * r(4), 4);
    const rate = life.volume / Math.max(HOUR, life.path.end - life.path.start);
    const volume = Math.max(1, rate * step * (0.2 + 1.6 * r(5)));
    const trade = { open, high, low, close: closing, mean };
    return { end, trade, previous, ...quotes(open, closing), volume, openInterest };
  };
  const from = Math.ceil(Math.max(request.start, first) / step) * step;
  const to = Math.min(request.end, last);
  const result: CandleValues[] = [];
  let previous = from <= to ? previousClose(from) : null;
  for (let end = from; end <= to; end += step) {
    if (!present(end)) continue;
    const candle = values(end, previous);
    result.push(candle);
    if (candle.trade) previous = candle.trade.close;
  }
  const boundary = Math.ceil(request.start / step) * step;
  if (withLatest && boundary <= last && result[0]?.end !== boundary) {
    // The synthetic first candle: no trade prices, `previous` the last close before the range.
    const before = previousClose(boundary);
    const latest = before === null ? null : values(boundary, before);
    if (latest) result.unshift({ ...latest, trade: null, volume: 0, synthetic: true });
  }
  const shape: CandleShape = life.archived ? "historical" : life.legacy ? "legacy" : "live";
  return result.map((candle) => formatCandle(candle, shape, life.fractional));
}

function formatCandle(candle: CandleValues, shape: CandleShape, fractional: boolean): Json {
  const legacy = shape === "legacy";
  const price = (value: number | null) => (value === null ? null : legacy ? Math.round(value * 100) : value.toFixed(4));
  const count = (value: number) => {
    const amount = fractional ? round(value, 2) : Math.round(value);
    return legacy ? Math.round(amount) : amount.toFixed(2);
  };
  const suffix = shape === "live" ? "_dollars" : "";
  const ohlc = (open: number | null, high: number | null, low: number | null, close: number | null) => ({
    [`close${suffix}`]: price(close),
    [`high${suffix}`]: price(high),
    [`low${suffix}`]: price(low),
    [`open${suffix}`]: price(open),
  });
  const { trade, previous } = candle;
  const prices: Json = trade
    ? { ...ohlc(trade.open, trade.high, trade.low, trade.close), [`previous${suffix}`]: price(previous) }
    : { [`previous${suffix}`]: price(previous) };
  if (trade) prices[`mean${suffix}`] = legacy ? Math.round(trade.mean * 100) : trade.mean.toFixed(4);
  if (candle.synthetic) Object.assign(prices, ohlc(null, null, null, null), { [`mean${suffix}`]: null });
  const side = ([open, close]: [number, number]) => ohlc(open, Math.max(open, close), Math.min(open, close), close);
  const counts = shape === "live" ? ["open_interest_fp", "volume_fp"] : ["open_interest", "volume"];
  return {
    end_period_ts: candle.end,
    [counts[0] as string]: count(candle.openInterest),
    price: sortKeys(prices),
    [counts[1] as string]: count(candle.volume),
    yes_ask: side(candle.ask),
    yes_bid: side(candle.bid),
  };
}

function sortKeys(object: Json): Json {
  return Object.fromEntries(Object.entries(object).sort(([a], [b]) => (a < b ? -1 : 1)));
}
