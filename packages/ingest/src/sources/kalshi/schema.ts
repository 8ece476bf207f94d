/**
 * The Kalshi Trade API v2 payloads as zod schemas, as lenient as the API is
 * (API_FORMATS.md §2).
 *
 * Kalshi moved to fixed-point fields on 2026-01-29 and removed the legacy integer ones on
 * 2026-03-12: prices went from integer cents (`yes_bid: 8`) to `*_dollars` strings
 * (`"0.0800"`), counts from integers (`volume`) to `*_fp` strings (`"60191.00"`). Both
 * shapes are accepted here and reconciled into one set of columns by the mapper.
 * Nested markets carry Go's zero time for unknown timestamps, read as null. Only
 * identity fields (`ticker`, `event_ticker`) are required; unknown fields are kept in
 * `raw` by the mapper.
 */
import { z } from "zod";
import { zFlag, zNumberish, zText, zTimestamp } from "../../upstream-values";

const zTicker = z.string().min(1);

export const ZKalshiMarket = z.object({
  ticker: zTicker,
  event_ticker: zText,
  market_type: zText,
  title: zText,
  subtitle: zText,
  yes_sub_title: zText,
  no_sub_title: zText,
  status: zText,
  result: zText,
  can_close_early: zFlag,
  fractional_trading_enabled: zFlag,
  is_provisional: zFlag,
  created_time: zTimestamp,
  updated_time: zTimestamp,
  open_time: zTimestamp,
  close_time: zTimestamp,
  expiration_time: zTimestamp,
  expected_expiration_time: zTimestamp,
  latest_expiration_time: zTimestamp,
  settlement_ts: zTimestamp,
  // Current fixed-point shape.
  yes_bid_dollars: zNumberish,
  yes_ask_dollars: zNumberish,
  no_bid_dollars: zNumberish,
  no_ask_dollars: zNumberish,
  last_price_dollars: zNumberish,
  previous_yes_bid_dollars: zNumberish,
  previous_yes_ask_dollars: zNumberish,
  previous_price_dollars: zNumberish,
  notional_value_dollars: zNumberish,
  settlement_value_dollars: zNumberish,
  liquidity_dollars: zNumberish,
  volume_fp: zNumberish,
  volume_24h_fp: zNumberish,
  open_interest_fp: zNumberish,
  yes_bid_size_fp: zNumberish,
  yes_ask_size_fp: zNumberish,
  // Legacy integer shape (cents and whole contracts), gone from responses since 2026-03-12.
  yes_bid: zNumberish,
  yes_ask: zNumberish,
  no_bid: zNumberish,
  no_ask: zNumberish,
  last_price: zNumberish,
  previous_yes_bid: zNumberish,
  previous_yes_ask: zNumberish,
  previous_price: zNumberish,
  notional_value: zNumberish,
  settlement_value: zNumberish,
  liquidity: zNumberish,
  volume: zNumberish,
  volume_24h: zNumberish,
  open_interest: zNumberish,
  expiration_value: zText,
  strike_type: zText,
  floor_strike: zNumberish,
  cap_strike: zNumberish,
  custom_strike: z.record(z.string(), z.unknown()).nullish(),
  price_level_structure: zText,
  tick_size: zNumberish,
  settlement_timer_seconds: zNumberish,
  rules_primary: zText,
  rules_secondary: zText,
  early_close_condition: zText,
  mve_collection_ticker: zText,
});
export type KalshiMarket = z.infer<typeof ZKalshiMarket>;

export const ZKalshiEvent = z.object({
  event_ticker: zTicker,
  series_ticker: zText,
  title: zText,
  sub_title: zText,
  category: zText,
  collateral_return_type: zText,
  mutually_exclusive: zFlag,
  available_on_brokers: zFlag,
  strike_date: zTimestamp,
  strike_period: zText,
  last_updated_ts: zTimestamp,
  /** Validated one by one by the mapper, so one bad market does not sink its event. */
  markets: z.array(z.unknown()).nullish(),
});
export type KalshiEvent = z.infer<typeof ZKalshiEvent>;

/** `GET /events`: `cursor` is `""` (or null, per some docs) on the last page. */
export const ZKalshiEventsPage = z.object({
  events: z.array(z.unknown()),
  cursor: z.string().nullish(),
  milestones: z.array(z.unknown()).nullish(),
});
export type KalshiEventsPage = z.infer<typeof ZKalshiEventsPage>;

/** `GET /markets` and `GET /historical/markets`. */
export const ZKalshiMarketsPage = z.object({
  markets: z.array(z.unknown()),
  cursor: z.string().nullish(),
});
export type KalshiMarketsPage = z.infer<typeof ZKalshiMarketsPage>;

export const ZKalshiHistoricalCutoff = z.object({ market_settled_ts: zTimestamp }).loose();
