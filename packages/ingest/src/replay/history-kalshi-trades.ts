/**
 * Kalshi's trade endpoints on the replay server: `/markets/trades` and `/historical/trades`,
 * one market's or the whole exchange's, newest first and keyset-paged on (created_time,
 * ticker), split into overlapping live and historical tiers at the trades cutoff, in the
 * live or legacy shape. The recorded sample answers for its own tickers, and the trades the
 * live feed served (`live-kalshi.ts`) are on the tape beside the generated ones, with their
 * ids, so a capture that missed some on the stream finds them here.
 */
import { hashSeed, hexOf, type Json, type KalshiMarketRef, noiseAt } from "./catalog";
import {
  byDay,
  bySecond,
  type Context,
  decodeCursor,
  encodeCursor,
  firstAtOrAfter,
  integer,
  kalshiError,
  keptPerCatalog,
  type Reply,
  tapeGroups,
} from "./history-context";
import {
  clamp,
  DAY,
  HOUR,
  type KalshiLife,
  kalshiLife,
  pathPrice,
  round,
  spreadAt,
  spreadRange,
} from "./history-market-life";
import { dollars, type ServedTrade } from "./live";

/** The live Kalshi trade feed reaches this far behind the trades cutoff: the tiers overlap. */
const LIVE_TRADES_OVERLAP_S = 21 * DAY;

/** A source of trades ascending in time, indexed 0…count-1, for one market. */
interface TradeFeed {
  ticker: string;
  range(fromUs: number, toUs: number): [number, number];
  timeUs(k: number): number;
  trade(k: number): Json;
}

function generatedFeed(life: KalshiLife): TradeFeed {
  return {
    ticker: life.ticker,
    range: (from, to) => spreadRange(life.trades, from, to),
    timeUs: (k) => spreadAt(life.trades, k),
    trade: (k) => kalshiTrade(life, k),
  };
}

function recordedFeed(trades: Json[]): TradeFeed {
  const sorted = [...trades].sort((a, b) => micros(a.created_time) - micros(b.created_time));
  const timeUs = (k: number) => micros(sorted[k]?.created_time);
  return {
    ticker: String(sorted[0]?.ticker),
    range(from, to) {
      const inside = sorted.map((_, k) => k).filter((k) => timeUs(k) >= from && timeUs(k) <= to);
      return inside.length ? [inside[0] as number, inside.at(-1) as number] : [0, -1];
    },
    timeUs,
    trade: (k) => sorted[k] as Json,
  };
}

/** The live feed's trades of one market, as the REST tape serves them. */
function servedFeed(ticker: string, trades: readonly ServedTrade[]): TradeFeed {
  const timeUs = (k: number) => (trades[k] as ServedTrade).at * 1000;
  return {
    ticker,
    range: (from, to) => [
      firstAtOrAfter(trades.length, timeUs, from),
      firstAtOrAfter(trades.length, timeUs, to + 1) - 1,
    ],
    timeUs,
    trade(k) {
      const trade = trades[k] as ServedTrade;
      return {
        count_fp: trade.size.toFixed(2),
        created_time: microsIso(timeUs(k)),
        is_block_trade: false,
        no_price_dollars: dollars(100 - trade.cents),
        taker_book_side: trade.side === "yes" ? "ask" : "bid",
        taker_outcome_side: trade.side,
        taker_side: trade.side,
        ticker,
        trade_id: trade.id,
        yes_price_dollars: dollars(trade.cents),
      };
    },
  };
}

const servedByTicker = tapeGroups((_, trade) => trade.market);

/** The live feed's trades by market, as feeds. */
function servedFeeds(context: Context): Map<string, TradeFeed> {
  const groups = servedByTicker(context, context.liveTape("kalshi"));
  return new Map([...groups].map(([ticker, trades]) => [ticker, servedFeed(ticker, trades)]));
}

/** Microseconds since the epoch of "2026-07-25T05:51:39.54467Z". */
function micros(value: unknown): number {
  const match = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/.exec(String(value));
  if (!match) return 0;
  return Date.parse(`${match[1]}Z`) * 1000 + Number((match[2] ?? "").padEnd(6, "0").slice(0, 6));
}

/** Go's RFC 3339 with microseconds, trailing zeros trimmed, as Kalshi writes it. */
function microsIso(us: number): string {
  const fraction = String(us % 1_000_000)
    .padStart(6, "0")
    .replace(/0+$/, "");
  return `${new Date(Math.floor(us / 1000)).toISOString().slice(0, 19)}${fraction ? `.${fraction}` : ""}Z`;
}

function kalshiTrade(life: KalshiLife, k: number): Json {
  const r = (n: number) => noiseAt(life.path.seed ^ 0x71ade, k * 8 + n);
  const createdUs = spreadAt(life.trades, k);
  const yes = round(clamp(pathPrice(life.path, createdUs / 1e6) + (r(0) - 0.5) * 0.02, 0.01, 0.99), 2);
  const no = round(1 - yes, 2);
  const size = 1 + Math.exp(r(1) * 7);
  const count = life.fractional ? round(size, 2) : Math.floor(size);
  const taker = r(2) < 0.5 ? "yes" : "no";
  const hex = hexOf(hashSeed(`${life.ticker}|trade|${k}`), 32);
  const tradeId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${hex.slice(13, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  const created = microsIso(createdUs);
  if (life.legacy) {
    const cents = Math.round(yes * 100);
    return {
      count: Math.round(count),
      created_time: created,
      no_price: 100 - cents,
      taker_side: taker,
      ticker: life.ticker,
      trade_id: tradeId,
      yes_price: cents,
    };
  }
  return {
    count_fp: count.toFixed(2),
    created_time: created,
    is_block_trade: r(3) < 0.01,
    no_price_dollars: no.toFixed(4),
    taker_book_side: taker === "yes" ? "bid" : "ask",
    taker_outcome_side: taker,
    taker_side: taker,
    ticker: life.ticker,
    trade_id: tradeId,
    yes_price_dollars: yes.toFixed(4),
  };
}

/** Where a walk stands: the last trade served (µs, ticker) and the page number. */
type TradesCursor = [number, string, number];
const isTradesCursor = (value: unknown): value is TradesCursor =>
  Array.isArray(value) &&
  value.length === 3 &&
  Number.isSafeInteger(value[0]) &&
  typeof value[1] === "string" &&
  Number.isSafeInteger(value[2]);

/**
 * `GET /markets/trades` and `/historical/trades` (`ticker`, `min_ts`, `max_ts`, `limit` ≤ 1000,
 * `cursor`): newest first, keyset on (created_time, ticker). The live tier holds trades created
 * from 21 days before the trades cutoff on, the historical tier those before it. Every 5th
 * page of a walk is empty, its cursor going on.
 */
export function kalshiTrades(context: Context, url: URL, tier: "live" | "historical"): Reply {
  const limit = integer(url, "limit") ?? 100;
  const minTs = integer(url, "min_ts");
  const maxTs = integer(url, "max_ts");
  if (limit === "invalid" || limit < 1 || limit > 1000) return kalshiError(400, "limit must be between 1 and 1000");
  if (minTs === "invalid" || maxTs === "invalid") return kalshiError(400, "invalid min_ts or max_ts");
  const cursor = decodeCursor(url.searchParams.get("cursor"), isTradesCursor);
  if (cursor === "invalid") return kalshiError(400, "invalid cursor");
  const cutoffUs = context.cutoffs.trades * 1000;
  const tierFrom = tier === "live" ? cutoffUs - LIVE_TRADES_OVERLAP_S * 1e6 : 0;
  const tierTo = tier === "live" ? context.now * 1e6 : Math.min(context.now * 1e6, cutoffUs - 1);
  const from = Math.max(tierFrom, (minTs ?? 0) * 1e6);
  const to = Math.min(tierTo, maxTs === null ? Number.POSITIVE_INFINITY : maxTs * 1e6 + 999_999);
  const page = cursor?.[2] ?? 0;
  if (cursor && page % 5 === 4) {
    return { status: 200, body: { cursor: encodeCursor([cursor[0], cursor[1], page + 1]), trades: [] } };
  }
  const ticker = url.searchParams.get("ticker");
  const streamed = servedFeeds(context);
  const feeds =
    ticker === null
      ? [...allFeeds(context), ...streamed.values()]
      : [feedOf(context, ticker), streamed.get(ticker)].filter((f): f is TradeFeed => !!f);
  const below = (t: number, name: string) => !cursor || t < cursor[0] || (t === cursor[0] && name < cursor[1]);
  const found: Array<{ t: number; feed: TradeFeed; k: number }> = [];
  // Walk back in widening windows [lower, top) (the first one closed at the top, for ties
  // at the cursor) until more than a page is found or the range is done.
  let top = cursor ? Math.min(to, cursor[0]) : to;
  for (let width = 6 * HOUR * 1e6, first = true; top >= from; width *= 4, first = false) {
    const lower = Math.max(from, top - width);
    for (const feed of feeds) {
      const [oldest, newest] = feed.range(lower, top);
      for (let k = newest; k >= oldest; k -= 1) {
        const t = feed.timeUs(k);
        if ((first || t < top) && below(t, feed.ticker)) found.push({ t, feed, k });
      }
    }
    if (found.length > limit || lower <= from) break;
    top = lower;
  }
  found.sort((a, b) => b.t - a.t || (a.feed.ticker < b.feed.ticker ? 1 : -1));
  const served = found.slice(0, limit);
  const lastServed = served.at(-1);
  const next = found.length > limit && lastServed ? encodeCursor([lastServed.t, lastServed.feed.ticker, page + 1]) : "";
  return { status: 200, body: { cursor: next, trades: served.map(({ feed, k }) => feed.trade(k)) } };
}

function feedOf(context: Context, ticker: string): TradeFeed | null {
  const recorded = context.recorded.kalshiTrades.filter((trade) => trade.ticker === ticker);
  if (recorded.length) return recordedFeed(recorded);
  const ref = context.kalshi.findMarket(ticker);
  const life = ref && kalshiLife(context, ref);
  return life ? generatedFeed(life) : null;
}

const tapeFeeds = keptPerCatalog<TradeFeed[]>();
const tapeMarkets = keptPerCatalog<KalshiMarketRef[]>();

/**
 * Every market's feed, for the exchange-wide walk: the catalog's markets built once per day
 * and move of the catalog, their lives once per second, so a walk over a large catalog does
 * not hold up the replay's other requests page after page.
 */
function allFeeds(context: Context): TradeFeed[] {
  return tapeFeeds(context.kalshi, bySecond(context, context.kalshi), () => {
    const feeds: TradeFeed[] = [];
    for (const ref of catalogMarkets(context)) {
      const life = kalshiLife(context, ref);
      if (life) feeds.push(generatedFeed(life));
    }
    const tickers = new Set(context.recorded.kalshiTrades.map((trade) => String(trade.ticker)));
    for (const ticker of tickers) {
      feeds.push(recordedFeed(context.recorded.kalshiTrades.filter((trade) => trade.ticker === ticker)));
    }
    return feeds;
  });
}

/** The live catalog's markets, built once per day and move; the closed catalog's trades are served per market only. */
function catalogMarkets(context: Context): KalshiMarketRef[] {
  return tapeMarkets(context.kalshi, byDay(context, context.kalshi), () => {
    const refs: KalshiMarketRef[] = [];
    for (let eventIndex = 0; eventIndex < context.kalshi.liveEventCount; eventIndex += 1) {
      const { event } = context.kalshi.event(eventIndex);
      (event.markets as Json[]).forEach((market, position) => {
        const template = context.kalshi.templateMarket(eventIndex, position) ?? market;
        refs.push({ eventIndex, position, event, market, template });
      });
    }
    return refs;
  });
}
