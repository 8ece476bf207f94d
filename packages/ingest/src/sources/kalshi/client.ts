/**
 * Kalshi Trade API v2 paging. Every listing pages with `cursor`, which comes back as `""`
 * (or null, per some docs) on the last page; both mean done. The snapshot reads
 * `/events?with_nested_markets=true` (which already excludes combo events); the backfill
 * also reads `/markets` and `/historical/markets`, always with `mve_filter=exclude`, and
 * `/historical/cutoff` to know which of the two holds a settled market.
 */
import type { PageFetcher } from "../../http/fetch-page";
import { bucketUnder, type RateLimit } from "../../http/rate-limiter";
import type { IngestConfig } from "../../source";
import { ZKalshiEventsPage, ZKalshiHistoricalCutoff, ZKalshiMarketsPage } from "./schema";

export const KALSHI_EVENTS_LIMIT = 200;

/** Read tokens a second of the Basic tier, and what one request (or one batch item) costs. */
export const KALSHI_BASIC_TOKENS_PER_SECOND = 200;
export const KALSHI_TOKENS_PER_REQUEST = 10;

/**
 * Kalshi's one limit, a token bucket per account (API_FORMATS §4), counted in requests: the
 * snapshot, the backfill and the history spend one per request and one per item of a batch.
 */
export function kalshiRateLimit(config: IngestConfig): RateLimit {
  const tokens = config.kalshi.rateTokensPerSecond ?? KALSHI_BASIC_TOKENS_PER_SECOND;
  return bucketUnder(tokens, KALSHI_TOKENS_PER_REQUEST);
}
export const KALSHI_MARKETS_LIMIT = 1000;

export type KalshiEventStatus = "unopened" | "open" | "closed" | "settled";

export interface KalshiEventFilters {
  status: KalshiEventStatus;
  /** Unix seconds. */
  min_close_ts?: number;
}

export interface KalshiMarketFilters {
  status?: "unopened" | "open" | "paused" | "closed" | "settled";
  min_settled_ts?: number;
  max_settled_ts?: number;
}

export interface KalshiPage {
  url: string;
  items: unknown[];
  nextCursor: string | null;
}

function url(
  baseUrl: string,
  path: string,
  params: Record<string, string | number | undefined>,
  cursor: string | null,
) {
  const target = new URL(`${baseUrl.replace(/\/$/, "")}${path}`);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) target.searchParams.set(name, String(value));
  }
  if (cursor) target.searchParams.set("cursor", cursor);
  return target.toString();
}

export async function* listKalshiEvents(
  fetchPage: PageFetcher,
  baseUrl: string,
  filters: KalshiEventFilters,
  options: { startCursor?: string | null; signal?: AbortSignal } = {},
): AsyncGenerator<KalshiPage> {
  let cursor = options.startCursor ?? null;
  for (;;) {
    const pageUrl = url(
      baseUrl,
      "/events",
      {
        status: filters.status,
        with_nested_markets: "true",
        limit: KALSHI_EVENTS_LIMIT,
        min_close_ts: filters.min_close_ts,
      },
      cursor,
    );
    const page = await fetchPage(pageUrl, ZKalshiEventsPage, options.signal);
    const next = page.cursor ? page.cursor : null;
    yield { url: pageUrl, items: page.events, nextCursor: next };
    if (!next || next === cursor) return;
    cursor = next;
  }
}

export async function* listKalshiMarkets(
  fetchPage: PageFetcher,
  baseUrl: string,
  path: "/markets" | "/historical/markets",
  filters: KalshiMarketFilters,
  options: { startCursor?: string | null; signal?: AbortSignal } = {},
): AsyncGenerator<KalshiPage> {
  let cursor = options.startCursor ?? null;
  for (;;) {
    const pageUrl = url(baseUrl, path, { ...filters, mve_filter: "exclude", limit: KALSHI_MARKETS_LIMIT }, cursor);
    const page = await fetchPage(pageUrl, ZKalshiMarketsPage, options.signal);
    const next = page.cursor ? page.cursor : null;
    yield { url: pageUrl, items: page.markets, nextCursor: next };
    if (!next || next === cursor) return;
    cursor = next;
  }
}

/** Epoch ms before which settled markets live only in `/historical/markets`; null if unknown. */
export async function historicalCutoff(fetchPage: PageFetcher, baseUrl: string, signal?: AbortSignal) {
  const page = await fetchPage(`${baseUrl.replace(/\/$/, "")}/historical/cutoff`, ZKalshiHistoricalCutoff, signal);
  return page.market_settled_ts;
}
