/**
 * Kalshi payloads → warehouse rows for `kalshi.events` and `kalshi.markets`. Pure: no
 * I/O, no clock; the run passes its `sync_timestamp`.
 *
 * Both payload generations map to one set of columns, the fixed-point form winning when
 * both are present (legacy integers may have been truncated before their removal):
 * prices in dollars (`yes_bid_dollars`, else legacy cents ÷ 100), counts in contracts
 * (`volume` from `volume_fp`, else the legacy integer). `liquidity` keeps the spec's
 * legacy meaning, cents and possibly negative: the legacy integer when sent, else
 * `liquidity_dollars` × 100. Since Kalshi deprecated the figure (always "0.0000" since
 * spec 3.29) both columns are NULL when neither form is present rather than a made-up 0.
 *
 * Combo events (ticker prefix `KXMVE`, or a market with an `mve_collection_ticker`) are
 * never stored: `isComboEvent` / `isComboMarket` are applied on every path, even where
 * the endpoint already excludes them, because that filter has regressed before.
 */
import { type Rejection, rejection } from "../../rejection";
import { sum, toWarehouseTime } from "../../upstream-values";
import { type KalshiEvent, type KalshiMarket, ZKalshiEvent, ZKalshiMarket } from "./schema";

export interface KalshiEventRow {
  sync_timestamp: string;
  event_ticker: string;
  series_ticker: string;
  title: string;
  sub_title: string;
  category: string;
  collateral_return_type: string;
  mutually_exclusive: boolean | null;
  available_on_brokers: boolean | null;
  strike_date: string | null;
  strike_period: string;
  last_updated_ts: string | null;
  total_open_interest: number | null;
  total_volume: number | null;
  market_count: number | null;
  raw: string;
}

export interface KalshiMarketRow {
  sync_timestamp: string;
  ticker: string;
  event_ticker: string;
  market_type: string;
  title: string;
  subtitle: string;
  yes_sub_title: string;
  no_sub_title: string;
  status: string;
  result: string;
  can_close_early: boolean | null;
  fractional_trading_enabled: boolean | null;
  is_provisional: boolean | null;
  created_time: string | null;
  updated_time: string | null;
  open_time: string | null;
  close_time: string | null;
  expiration_time: string | null;
  expected_expiration_time: string | null;
  latest_expiration_time: string | null;
  settlement_ts: string | null;
  yes_bid_dollars: number | null;
  yes_ask_dollars: number | null;
  no_bid_dollars: number | null;
  no_ask_dollars: number | null;
  last_price_dollars: number | null;
  previous_yes_bid_dollars: number | null;
  previous_yes_ask_dollars: number | null;
  previous_price_dollars: number | null;
  notional_value_dollars: number | null;
  settlement_value_dollars: number | null;
  yes_bid_size: number | null;
  yes_ask_size: number | null;
  volume: number | null;
  volume_24h: number | null;
  open_interest: number | null;
  liquidity: number | null;
  liquidity_dollars: number | null;
  expiration_value: string;
  strike_type: string;
  floor_strike: number | null;
  cap_strike: number | null;
  custom_strike: string;
  price_level_structure: string;
  tick_size: number | null;
  settlement_timer_seconds: number | null;
  rules_primary: string;
  rules_secondary: string;
  early_close_condition: string;
  raw: string;
}

export interface KalshiMapContext {
  syncTimestamp: string;
}

export interface MappedKalshiEvent {
  event: KalshiEventRow | null;
  markets: KalshiMarketRow[];
  rejections: Rejection[];
  /** Combo objects dropped on purpose (not errors). */
  combosExcluded: number;
}

const COMBO_PREFIX = "KXMVE";

export function isComboEvent(event: { event_ticker?: unknown; series_ticker?: unknown }): boolean {
  return startsWithCombo(event.event_ticker) || startsWithCombo(event.series_ticker);
}

export function isComboMarket(market: {
  ticker?: unknown;
  event_ticker?: unknown;
  mve_collection_ticker?: unknown;
}): boolean {
  return (
    startsWithCombo(market.ticker) ||
    startsWithCombo(market.event_ticker) ||
    (typeof market.mve_collection_ticker === "string" && market.mve_collection_ticker !== "")
  );
}

function startsWithCombo(value: unknown): boolean {
  return typeof value === "string" && value.toUpperCase().startsWith(COMBO_PREFIX);
}

/** Fixed-point dollars when sent, else legacy cents converted. */
export function dollars(fixedPoint: number | null, legacyCents: number | null): number | null {
  if (fixedPoint !== null) return fixedPoint;
  return legacyCents === null ? null : Math.round(legacyCents * 100) / 10_000;
}

/** Fixed-point count when sent, else the legacy integer. */
export function contracts(fixedPoint: number | null, legacy: number | null): number | null {
  return fixedPoint ?? legacy;
}

export function liquidityCents(m: Pick<KalshiMarket, "liquidity" | "liquidity_dollars">): number | null {
  if (m.liquidity !== null) return Math.round(m.liquidity);
  return m.liquidity_dollars === null ? null : Math.round(m.liquidity_dollars * 100);
}

export function mapKalshiMarket(
  raw: unknown,
  ctx: KalshiMapContext,
): { row: KalshiMarketRow } | { rejection: Rejection } {
  const parsed = ZKalshiMarket.safeParse(raw);
  if (!parsed.success) return { rejection: rejection("market", raw, "ticker", parsed.error.issues) };
  return { row: marketRow(parsed.data, raw, ctx) };
}

function marketRow(m: KalshiMarket, raw: unknown, ctx: KalshiMapContext): KalshiMarketRow {
  return {
    sync_timestamp: ctx.syncTimestamp,
    ticker: m.ticker,
    event_ticker: m.event_ticker,
    market_type: m.market_type,
    title: m.title,
    subtitle: m.subtitle,
    yes_sub_title: m.yes_sub_title,
    no_sub_title: m.no_sub_title,
    status: m.status,
    result: m.result,
    can_close_early: m.can_close_early,
    fractional_trading_enabled: m.fractional_trading_enabled,
    is_provisional: m.is_provisional,
    created_time: toWarehouseTime(m.created_time),
    updated_time: toWarehouseTime(m.updated_time),
    open_time: toWarehouseTime(m.open_time),
    close_time: toWarehouseTime(m.close_time),
    expiration_time: toWarehouseTime(m.expiration_time),
    expected_expiration_time: toWarehouseTime(m.expected_expiration_time),
    latest_expiration_time: toWarehouseTime(m.latest_expiration_time),
    settlement_ts: toWarehouseTime(m.settlement_ts),
    yes_bid_dollars: dollars(m.yes_bid_dollars, m.yes_bid),
    yes_ask_dollars: dollars(m.yes_ask_dollars, m.yes_ask),
    no_bid_dollars: dollars(m.no_bid_dollars, m.no_bid),
    no_ask_dollars: dollars(m.no_ask_dollars, m.no_ask),
    last_price_dollars: dollars(m.last_price_dollars, m.last_price),
    previous_yes_bid_dollars: dollars(m.previous_yes_bid_dollars, m.previous_yes_bid),
    previous_yes_ask_dollars: dollars(m.previous_yes_ask_dollars, m.previous_yes_ask),
    previous_price_dollars: dollars(m.previous_price_dollars, m.previous_price),
    notional_value_dollars: dollars(m.notional_value_dollars, m.notional_value),
    settlement_value_dollars: dollars(m.settlement_value_dollars, m.settlement_value),
    yes_bid_size: m.yes_bid_size_fp,
    yes_ask_size: m.yes_ask_size_fp,
    volume: contracts(m.volume_fp, m.volume),
    volume_24h: contracts(m.volume_24h_fp, m.volume_24h),
    open_interest: contracts(m.open_interest_fp, m.open_interest),
    liquidity: liquidityCents(m),
    liquidity_dollars: m.liquidity_dollars ?? (m.liquidity === null ? null : m.liquidity / 100),
    expiration_value: m.expiration_value,
    strike_type: m.strike_type,
    floor_strike: m.floor_strike,
    cap_strike: m.cap_strike,
    custom_strike: m.custom_strike ? JSON.stringify(m.custom_strike) : "",
    price_level_structure: m.price_level_structure,
    tick_size: m.tick_size,
    settlement_timer_seconds: m.settlement_timer_seconds,
    rules_primary: m.rules_primary,
    rules_secondary: m.rules_secondary,
    early_close_condition: m.early_close_condition,
    raw: JSON.stringify(raw),
  };
}

/**
 * One event with its nested markets (when the page was fetched `with_nested_markets`).
 * `total_open_interest` sums the nested markets' open interest; without nested markets
 * it is NULL rather than a misleading 0.
 */
export function mapKalshiEvent(raw: unknown, ctx: KalshiMapContext): MappedKalshiEvent {
  if (raw && typeof raw === "object" && isComboEvent(raw as Record<string, unknown>)) {
    const nested = (raw as { markets?: unknown }).markets;
    return {
      event: null,
      markets: [],
      rejections: [],
      combosExcluded: 1 + (Array.isArray(nested) ? nested.length : 0),
    };
  }
  const parsed = ZKalshiEvent.safeParse(raw);
  if (!parsed.success) {
    return {
      event: null,
      markets: [],
      rejections: [rejection("event", raw, "event_ticker", parsed.error.issues)],
      combosExcluded: 0,
    };
  }
  const e = parsed.data;
  const markets: KalshiMarketRow[] = [];
  const rejections: Rejection[] = [];
  let combosExcluded = 0;
  for (const market of e.markets ?? []) {
    if (market && typeof market === "object" && isComboMarket(market as Record<string, unknown>)) {
      combosExcluded += 1;
      continue;
    }
    const mapped = mapKalshiMarket(market, ctx);
    if ("row" in mapped) markets.push(mapped.row);
    else rejections.push(mapped.rejection);
  }
  return { event: eventRow(e, raw, markets, ctx), markets, rejections, combosExcluded };
}

function eventRow(e: KalshiEvent, raw: unknown, markets: KalshiMarketRow[], ctx: KalshiMapContext): KalshiEventRow {
  const { markets: nested, ...withoutMarkets } = raw as Record<string, unknown>;
  const hasNested = Array.isArray(nested);
  return {
    sync_timestamp: ctx.syncTimestamp,
    event_ticker: e.event_ticker,
    series_ticker: e.series_ticker,
    title: e.title,
    sub_title: e.sub_title,
    category: e.category,
    collateral_return_type: e.collateral_return_type,
    mutually_exclusive: e.mutually_exclusive,
    available_on_brokers: e.available_on_brokers,
    strike_date: toWarehouseTime(e.strike_date),
    strike_period: e.strike_period,
    last_updated_ts: toWarehouseTime(e.last_updated_ts),
    total_open_interest: hasNested ? sum(markets.map((m) => m.open_interest)) : null,
    total_volume: hasNested ? sum(markets.map((m) => m.volume)) : null,
    market_count: hasNested ? markets.length : null,
    raw: JSON.stringify(withoutMarkets),
  };
}
