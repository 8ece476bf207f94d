/**
 * Gamma payloads → warehouse rows for `polymarket.events` and `polymarket.markets`. Pure:
 * no I/O, no clock; the run passes its `sync_timestamp` and the previous state it needs.
 *
 * Two columns the spec names have no Gamma field and are derived here:
 *
 * - `yes_probability`: the price of the "Yes" outcome from `outcomePrices` (the outcome
 *   labelled "Yes", case-insensitive; otherwise the first outcome, which is the one
 *   Polymarket quotes a market by — "Up", the first team). Without `outcomePrices`
 *   (placeholder "Other" markets of neg-risk events) it falls back to the bid/ask
 *   midpoint when there is a real book (bid > 0, ask < 1), then to a positive
 *   `lastTradePrice`, else NULL: an empty book (bid 0, ask 1) is no estimate. Resolved
 *   markets carry "1"/"0" prices, so their value is the settled outcome.
 * - `lastTradeTime`: Gamma exposes no trade timestamp, so it is observed: the
 *   `sync_timestamp` of the first snapshot in which the market's cumulative volume
 *   (`volumeNum`, else `volume`) is higher than in the previous snapshot, carried
 *   forward while the volume stands still. A trade therefore happened in the 10 minutes
 *   before that timestamp. A market seen for the first time has NULL (its trades
 *   predate our observation and their time is unknown), as does one never traded.
 */
import { type Rejection, rejection } from "../../rejection";
import { toWarehouseTime } from "../../upstream-values";
import { fastReadGammaEvent, fastReadGammaMarket } from "./fast-read";
import { type GammaEvent, type GammaMarket, ZGammaEvent, ZGammaMarket } from "./schema";

export interface PolymarketEventRow {
  sync_timestamp: string;
  id: string;
  ticker: string;
  slug: string;
  title: string;
  description: string;
  resolutionSource: string;
  category: string;
  seriesSlug: string;
  startDate: string | null;
  creationDate: string | null;
  endDate: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  closedTime: string | null;
  active: boolean | null;
  closed: boolean | null;
  archived: boolean | null;
  new: boolean | null;
  featured: boolean | null;
  restricted: boolean | null;
  enableOrderBook: boolean | null;
  negRisk: boolean | null;
  enableNegRisk: boolean | null;
  negRiskAugmented: boolean | null;
  negRiskMarketID: string;
  liquidity: number | null;
  liquidityClob: number | null;
  volume: number | null;
  volume24hr: number | null;
  volume1wk: number | null;
  volume1mo: number | null;
  volume1yr: number | null;
  openInterest: number | null;
  competitive: number | null;
  commentCount: number | null;
  tags: string[];
  tag_ids: string[];
  series_ids: string[];
  market_count: number;
  raw: string;
}

export interface PolymarketMarketRow {
  sync_timestamp: string;
  id: string;
  event_id: string;
  question: string;
  conditionId: string;
  questionID: string;
  slug: string;
  groupItemTitle: string;
  groupItemThreshold: string;
  outcomes: string[];
  outcomePrices: number[];
  clobTokenIds: string[];
  yes_probability: number | null;
  lastTradePrice: number | null;
  bestBid: number | null;
  bestAsk: number | null;
  spread: number | null;
  oneHourPriceChange: number | null;
  oneDayPriceChange: number | null;
  oneWeekPriceChange: number | null;
  oneMonthPriceChange: number | null;
  volume: number | null;
  volume24hr: number | null;
  volume1wk: number | null;
  volume1mo: number | null;
  volume1yr: number | null;
  volumeClob: number | null;
  volume24hrClob: number | null;
  liquidity: number | null;
  liquidityClob: number | null;
  competitive: number | null;
  orderPriceMinTickSize: number | null;
  orderMinSize: number | null;
  umaBond: number | null;
  umaReward: number | null;
  umaResolutionStatus: string;
  umaResolutionStatuses: string[];
  active: boolean | null;
  closed: boolean | null;
  archived: boolean | null;
  restricted: boolean | null;
  acceptingOrders: boolean | null;
  enableOrderBook: boolean | null;
  negRisk: boolean | null;
  negRiskOther: boolean | null;
  negRiskMarketID: string;
  feeType: string;
  comboStatus: string;
  makerRebatesFeeShareBps: number | null;
  startDate: string | null;
  endDate: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  closedTime: string | null;
  gameStartTime: string | null;
  acceptingOrdersTimestamp: string | null;
  lastTradeTime: string | null;
  raw: string;
}

/** What the previous snapshot knew about a market: enough to derive `lastTradeTime`. */
export interface PreviousMarketState {
  volume: number | null;
  lastTradeTime: string | null;
}

export interface PolymarketMapContext {
  /** The run's one `sync_timestamp`, as warehouse text. */
  syncTimestamp: string;
  previous?: (id: string) => PreviousMarketState | undefined;
}

export interface MappedEvent {
  event: PolymarketEventRow | null;
  markets: PolymarketMarketRow[];
  rejections: Rejection[];
}

export function yesProbability(
  market: Pick<GammaMarket, "outcomes" | "outcomePrices" | "bestBid" | "bestAsk" | "lastTradePrice">,
): number | null {
  const prices = market.outcomePrices.map(Number);
  if (prices.length > 0) {
    const yesIndex = market.outcomes.findIndex((label) => label.trim().toLowerCase() === "yes");
    const price = prices[Math.max(yesIndex, 0)];
    if (price !== undefined && Number.isFinite(price)) return price;
  }
  const { bestBid, bestAsk, lastTradePrice } = market;
  const hasBook = bestBid !== null && bestAsk !== null && bestBid > 0 && bestAsk < 1 && bestAsk >= bestBid;
  if (hasBook) return (bestBid + bestAsk) / 2;
  return lastTradePrice !== null && lastTradePrice > 0 ? lastTradePrice : null;
}

export function lastTradeTime(
  volume: number | null,
  previous: PreviousMarketState | undefined,
  syncTimestamp: string,
): string | null {
  if (!previous) return null;
  if (volume !== null && volume > (previous.volume ?? 0)) return syncTimestamp;
  return previous.lastTradeTime;
}

export function mapGammaMarket(
  raw: unknown,
  eventId: string,
  ctx: PolymarketMapContext,
): { row: PolymarketMarketRow } | { rejection: Rejection } {
  const parsed = ZGammaMarket.safeParse(raw);
  if (!parsed.success) return { rejection: rejection("market", raw, "id", parsed.error.issues) };
  return { row: marketRow(parsed.data, JSON.stringify(raw), eventId, ctx) };
}

/** One event with its nested markets; the event's `raw` leaves the markets out (they have their own). */
export function mapGammaEvent(raw: unknown, ctx: PolymarketMapContext): MappedEvent {
  const parsed = ZGammaEvent.safeParse(raw);
  if (!parsed.success)
    return { event: null, markets: [], rejections: [rejection("event", raw, "id", parsed.error.issues)] };
  const e = parsed.data;
  const markets: PolymarketMarketRow[] = [];
  const rejections: Rejection[] = [];
  for (const market of e.markets ?? []) {
    const mapped = mapGammaMarket(market, e.id, ctx);
    if ("row" in mapped) markets.push(mapped.row);
    else rejections.push(mapped.rejection);
  }
  return {
    event: eventRow(e, JSON.stringify(withoutMarkets(raw)), (e.markets ?? []).length, ctx),
    markets,
    rejections,
  };
}

/**
 * The ingest hot path: the rows `mapGammaEvent` produces, read with the fast reader
 * (`fast-read.ts`; zod only for objects it rejects, so rejections keep zod's issues),
 * and with `raw` left as the upstream object instead of JSON text. The snapshot writer
 * serialises each row once, with `raw` inline as a JSON object, and the engine stores the
 * object's text in the `raw` String column (`input_format_json_read_objects_as_strings`):
 * the same text `JSON.stringify` gives, without serialising it twice and escaping it.
 */
export function mapGammaEventForWrite(raw: unknown, ctx: PolymarketMapContext): MappedEventForWrite {
  let e = fastReadGammaEvent(raw);
  if (!e) {
    const parsed = ZGammaEvent.safeParse(raw);
    if (!parsed.success)
      return { event: null, markets: [], rejections: [rejection("event", raw, "id", parsed.error.issues)] };
    e = parsed.data;
  }
  const markets: PolymarketMarketRowForWrite[] = [];
  const rejections: Rejection[] = [];
  for (const market of e.markets ?? []) {
    let m = fastReadGammaMarket(market);
    if (!m) {
      const parsed = ZGammaMarket.safeParse(market);
      if (!parsed.success) {
        rejections.push(rejection("market", market, "id", parsed.error.issues));
        continue;
      }
      m = parsed.data;
    }
    markets.push(marketRow(m, market as RawObject, e.id, ctx));
  }
  return { event: eventRow(e, withoutMarkets(raw), (e.markets ?? []).length, ctx), markets, rejections };
}

export type RawObject = Record<string, unknown>;
export type PolymarketEventRowForWrite = Omit<PolymarketEventRow, "raw"> & { raw: RawObject };
export type PolymarketMarketRowForWrite = Omit<PolymarketMarketRow, "raw"> & { raw: RawObject };

export interface MappedEventForWrite {
  event: PolymarketEventRowForWrite | null;
  markets: PolymarketMarketRowForWrite[];
  rejections: Rejection[];
}

function withoutMarkets(raw: unknown): RawObject {
  const { markets: _nested, ...rest } = raw as RawObject;
  return rest;
}

function marketRow<Raw>(
  m: GammaMarket,
  raw: Raw,
  eventId: string,
  ctx: PolymarketMapContext,
): Omit<PolymarketMarketRow, "raw"> & { raw: Raw } {
  const volume = m.volumeNum ?? m.volume;
  return {
    sync_timestamp: ctx.syncTimestamp,
    id: m.id,
    event_id: eventId || (m.events?.[0]?.id ?? ""),
    question: m.question,
    conditionId: m.conditionId,
    questionID: m.questionID,
    slug: m.slug,
    groupItemTitle: m.groupItemTitle,
    groupItemThreshold: m.groupItemThreshold,
    outcomes: m.outcomes,
    outcomePrices: m.outcomePrices.map(Number).filter(Number.isFinite),
    clobTokenIds: m.clobTokenIds,
    yes_probability: yesProbability(m),
    lastTradePrice: m.lastTradePrice,
    bestBid: m.bestBid,
    bestAsk: m.bestAsk,
    spread: m.spread,
    oneHourPriceChange: m.oneHourPriceChange,
    oneDayPriceChange: m.oneDayPriceChange,
    oneWeekPriceChange: m.oneWeekPriceChange,
    oneMonthPriceChange: m.oneMonthPriceChange,
    volume,
    volume24hr: m.volume24hr,
    volume1wk: m.volume1wk,
    volume1mo: m.volume1mo,
    volume1yr: m.volume1yr,
    volumeClob: m.volumeClob,
    volume24hrClob: m.volume24hrClob,
    liquidity: m.liquidityNum ?? m.liquidity,
    liquidityClob: m.liquidityClob,
    competitive: m.competitive,
    orderPriceMinTickSize: m.orderPriceMinTickSize,
    orderMinSize: m.orderMinSize,
    umaBond: m.umaBond,
    umaReward: m.umaReward,
    umaResolutionStatus: m.umaResolutionStatus,
    umaResolutionStatuses: m.umaResolutionStatuses,
    active: m.active,
    closed: m.closed,
    archived: m.archived,
    restricted: m.restricted,
    acceptingOrders: m.acceptingOrders,
    enableOrderBook: m.enableOrderBook,
    negRisk: m.negRisk,
    negRiskOther: m.negRiskOther,
    negRiskMarketID: m.negRiskMarketID,
    feeType: m.feeType,
    comboStatus: m.comboStatus,
    makerRebatesFeeShareBps: m.makerRebatesFeeShareBps,
    startDate: toWarehouseTime(m.startDate),
    endDate: toWarehouseTime(m.endDate),
    createdAt: toWarehouseTime(m.createdAt),
    updatedAt: toWarehouseTime(m.updatedAt),
    closedTime: toWarehouseTime(m.closedTime),
    gameStartTime: toWarehouseTime(m.gameStartTime),
    acceptingOrdersTimestamp: toWarehouseTime(m.acceptingOrdersTimestamp),
    lastTradeTime: lastTradeTime(volume, ctx.previous?.(m.id), ctx.syncTimestamp),
    raw,
  };
}

function eventRow<Raw>(
  e: GammaEvent,
  raw: Raw,
  marketCount: number,
  ctx: PolymarketMapContext,
): Omit<PolymarketEventRow, "raw"> & { raw: Raw } {
  return {
    sync_timestamp: ctx.syncTimestamp,
    id: e.id,
    ticker: e.ticker,
    slug: e.slug,
    title: e.title,
    description: e.description,
    resolutionSource: e.resolutionSource,
    category: e.category,
    seriesSlug: e.seriesSlug,
    startDate: toWarehouseTime(e.startDate),
    creationDate: toWarehouseTime(e.creationDate),
    endDate: toWarehouseTime(e.endDate),
    createdAt: toWarehouseTime(e.createdAt),
    updatedAt: toWarehouseTime(e.updatedAt),
    closedTime: toWarehouseTime(e.closedTime),
    active: e.active,
    closed: e.closed,
    archived: e.archived,
    new: e.new,
    featured: e.featured,
    restricted: e.restricted,
    enableOrderBook: e.enableOrderBook,
    negRisk: e.negRisk,
    enableNegRisk: e.enableNegRisk,
    negRiskAugmented: e.negRiskAugmented,
    negRiskMarketID: e.negRiskMarketID,
    liquidity: e.liquidity,
    liquidityClob: e.liquidityClob,
    volume: e.volume,
    volume24hr: e.volume24hr,
    volume1wk: e.volume1wk,
    volume1mo: e.volume1mo,
    volume1yr: e.volume1yr,
    openInterest: e.openInterest,
    competitive: e.competitive,
    // A UInt32 column: a negative count is no count, a fraction is cut.
    commentCount: e.commentCount !== null && e.commentCount >= 0 ? Math.trunc(e.commentCount) : null,
    tags: (e.tags ?? []).map((tag) => tag.label),
    tag_ids: (e.tags ?? []).map((tag) => tag.id),
    series_ids: (e.series ?? []).map((series) => series.id),
    market_count: marketCount,
    raw,
  };
}
