/**
 * The Gamma API payloads as zod schemas, as lenient as the API is (API_FORMATS.md §1).
 *
 * Only identity fields are required: an object without an `id` cannot be stored and is
 * rejected. Everything else may be absent (Gamma drops zero-valued fields), may be a
 * number sent as a string, or a JSON-encoded list. Unknown fields are ignored here and
 * kept verbatim in the `raw` column by the mapper. Objects are validated one at a time
 * (`ZGammaEvent`, `ZGammaMarket`) so one broken object is skipped and logged without
 * throwing away its page; the page envelope (`ZGammaEventsKeysetPage`) is strict, since a
 * page without its list is a truncated or garbled transfer.
 */
import { z } from "zod";
import { zFlag, zNumberish, zStringList, zText, zTimestamp } from "../../upstream-values";

const zId = z.union([z.string().min(1), z.number()]).transform(String);

export const ZGammaTag = z.object({ id: zText, label: zText, slug: zText });

export const ZGammaMarket = z.object({
  id: zId,
  question: zText,
  conditionId: zText,
  questionID: zText,
  slug: zText,
  groupItemTitle: zText,
  groupItemThreshold: zText,
  outcomes: zStringList,
  outcomePrices: zStringList,
  clobTokenIds: zStringList,
  umaResolutionStatuses: zStringList,
  umaResolutionStatus: zText,
  lastTradePrice: zNumberish,
  bestBid: zNumberish,
  bestAsk: zNumberish,
  spread: zNumberish,
  oneHourPriceChange: zNumberish,
  oneDayPriceChange: zNumberish,
  oneWeekPriceChange: zNumberish,
  oneMonthPriceChange: zNumberish,
  volume: zNumberish,
  volumeNum: zNumberish,
  volume24hr: zNumberish,
  volume1wk: zNumberish,
  volume1mo: zNumberish,
  volume1yr: zNumberish,
  volumeClob: zNumberish,
  volume24hrClob: zNumberish,
  liquidity: zNumberish,
  liquidityNum: zNumberish,
  liquidityClob: zNumberish,
  competitive: zNumberish,
  orderPriceMinTickSize: zNumberish,
  orderMinSize: zNumberish,
  umaBond: zNumberish,
  umaReward: zNumberish,
  makerRebatesFeeShareBps: zNumberish,
  active: zFlag,
  closed: zFlag,
  archived: zFlag,
  restricted: zFlag,
  acceptingOrders: zFlag,
  enableOrderBook: zFlag,
  negRisk: zFlag,
  negRiskOther: zFlag,
  negRiskMarketID: zText,
  feeType: zText,
  comboStatus: zText,
  startDate: zTimestamp,
  endDate: zTimestamp,
  createdAt: zTimestamp,
  updatedAt: zTimestamp,
  closedTime: zTimestamp,
  gameStartTime: zTimestamp,
  acceptingOrdersTimestamp: zTimestamp,
  /** Only on `/markets` responses: the parent event(s). */
  events: z.array(z.object({ id: zId }).loose()).nullish(),
});
export type GammaMarket = z.infer<typeof ZGammaMarket>;

export const ZGammaEvent = z.object({
  id: zId,
  ticker: zText,
  slug: zText,
  title: zText,
  description: zText,
  resolutionSource: zText,
  category: zText,
  seriesSlug: zText,
  startDate: zTimestamp,
  creationDate: zTimestamp,
  endDate: zTimestamp,
  createdAt: zTimestamp,
  updatedAt: zTimestamp,
  closedTime: zTimestamp,
  active: zFlag,
  closed: zFlag,
  archived: zFlag,
  new: zFlag,
  featured: zFlag,
  restricted: zFlag,
  enableOrderBook: zFlag,
  negRisk: zFlag,
  enableNegRisk: zFlag,
  negRiskAugmented: zFlag,
  negRiskMarketID: zText,
  liquidity: zNumberish,
  liquidityClob: zNumberish,
  volume: zNumberish,
  volume24hr: zNumberish,
  volume1wk: zNumberish,
  volume1mo: zNumberish,
  volume1yr: zNumberish,
  openInterest: zNumberish,
  competitive: zNumberish,
  commentCount: zNumberish,
  tags: z.array(ZGammaTag.loose()).nullish(),
  series: z.array(z.object({ id: zText, slug: zText }).loose()).nullish(),
  /** Validated one by one by the mapper, so one bad market does not sink its event. */
  markets: z.array(z.unknown()).nullish(),
});
export type GammaEvent = z.infer<typeof ZGammaEvent>;

/** `GET /events/keyset`: the list plus the cursor of the next page (absent on the last). */
export const ZGammaEventsKeysetPage = z.object({
  events: z.array(z.unknown()),
  next_cursor: z.string().nullish(),
});
export type GammaEventsKeysetPage = z.infer<typeof ZGammaEventsKeysetPage>;

/** Legacy `GET /events` and `GET /markets`: a bare array. */
export const ZGammaList = z.array(z.unknown());
