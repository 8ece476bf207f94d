/**
 * The Polymarket mapping's one declaration: every typed column of `polymarket.markets` and
 * `polymarket.events` that is read from an upstream field, with the reader that reads it.
 * Everything else is generated from this table: the engine's SQL and its input tables
 * (`engine-map.ts`), the zod schemas that document the upstream shapes (`schema.ts`), and
 * the columns the run's views copy. Adding a column is a line here, plus its migration
 * (`packages/warehouse/src/migrations/`) and its catalog description
 * (`apps/server/src/services/catalog/descriptions.ts`).
 *
 * The readers follow `upstream-values.ts`: absent or null is NULL (an empty text for
 * `text`, an empty list for `list`), and a value that cannot be read rejects its object.
 * The few fields that are not one column each (`id`, a market's `outcomePrices` and parent
 * `events`, an event's `tags`, `series` and `markets`) and the derived columns
 * (`yes_probability`, `lastTradeTime`, `event_id`, `market_count`) are written out in
 * `engine-map.ts` and `page-batch.ts`.
 */

/** How one column is read from its upstream field(s). */
export type Reader =
  | { kind: "text"; field: string }
  | { kind: "number"; fields: string[] }
  | { kind: "count"; field: string }
  | { kind: "flag"; field: string }
  | { kind: "list"; field: string }
  | { kind: "time"; field: string };

export const text = (field: string): Reader => ({ kind: "text", field });
/** The first field that is present wins (`volumeNum ?? volume`). */
export const number = (...fields: string[]): Reader => ({ kind: "number", fields });
export const flag = (field: string): Reader => ({ kind: "flag", field });
/** A whole number of things: negative is no count (NULL), a fraction is cut. */
export const count = (field: string): Reader => ({ kind: "count", field });
export const list = (field: string): Reader => ({ kind: "list", field });
export const time = (field: string): Reader => ({ kind: "time", field });

const same = (reader: (field: string) => Reader, ...names: string[]) =>
  Object.fromEntries(names.map((name) => [name, reader(name)]));

/** `polymarket.markets` columns read straight from a market object, in table order. */
export const MARKET_READERS: Record<string, Reader> = {
  question: text("question"),
  conditionId: text("conditionId"),
  questionID: text("questionID"),
  slug: text("slug"),
  groupItemTitle: text("groupItemTitle"),
  groupItemThreshold: text("groupItemThreshold"),
  outcomes: list("outcomes"),
  clobTokenIds: list("clobTokenIds"),
  ...same(number, "lastTradePrice", "bestBid", "bestAsk", "spread"),
  ...same(number, "oneHourPriceChange", "oneDayPriceChange", "oneWeekPriceChange", "oneMonthPriceChange"),
  volume: number("volumeNum", "volume"),
  ...same(number, "volume24hr", "volume1wk", "volume1mo", "volume1yr", "volumeClob", "volume24hrClob"),
  liquidity: number("liquidityNum", "liquidity"),
  ...same(number, "liquidityClob", "competitive", "orderPriceMinTickSize", "orderMinSize", "umaBond", "umaReward"),
  umaResolutionStatus: text("umaResolutionStatus"),
  umaResolutionStatuses: list("umaResolutionStatuses"),
  ...same(flag, "active", "closed", "archived", "restricted", "acceptingOrders", "enableOrderBook"),
  ...same(flag, "negRisk", "negRiskOther"),
  negRiskMarketID: text("negRiskMarketID"),
  feeType: text("feeType"),
  comboStatus: text("comboStatus"),
  makerRebatesFeeShareBps: number("makerRebatesFeeShareBps"),
  ...same(time, "startDate", "endDate", "createdAt", "updatedAt", "closedTime", "gameStartTime"),
  acceptingOrdersTimestamp: time("acceptingOrdersTimestamp"),
};

/** `polymarket.events` columns read straight from an event object. */
export const EVENT_READERS: Record<string, Reader> = {
  ...same(text, "ticker", "slug", "title", "description", "resolutionSource", "category", "seriesSlug"),
  ...same(time, "startDate", "creationDate", "endDate", "createdAt", "updatedAt", "closedTime"),
  ...same(flag, "active", "closed", "archived", "new", "featured", "restricted", "enableOrderBook"),
  ...same(flag, "negRisk", "enableNegRisk", "negRiskAugmented"),
  negRiskMarketID: text("negRiskMarketID"),
  ...same(number, "liquidity", "liquidityClob", "volume", "volume24hr", "volume1wk", "volume1mo", "volume1yr"),
  ...same(number, "openInterest", "competitive"),
  commentCount: count("commentCount"),
};

/** Upstream fields a market is read from, beyond its columns' own. */
export const MARKET_EXTRA_FIELDS = ["id", "outcomePrices", "events"] as const;
/** Upstream fields an event is read from, beyond its columns' own (its `markets` are read apart). */
export const EVENT_EXTRA_FIELDS = ["id", "tags", "series"] as const;

/** The upstream fields `readers` read, and `extra`, once each, in order. */
export function fieldsOf(readers: Record<string, Reader>, extra: readonly string[]): string[] {
  const names = new Set(extra);
  for (const reader of Object.values(readers)) {
    if (reader.kind === "number") for (const name of reader.fields) names.add(name);
    else names.add(reader.field);
  }
  return [...names];
}

/** The upstream field each reader reads, with the reader's kind (a `number` column may read two). */
export function upstreamFields(readers: Record<string, Reader>): Map<string, Reader["kind"]> {
  const kinds = new Map<string, Reader["kind"]>();
  for (const reader of Object.values(readers)) {
    for (const name of reader.kind === "number" ? reader.fields : [reader.field]) kinds.set(name, reader.kind);
  }
  return kinds;
}
