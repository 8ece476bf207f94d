/**
 * One market of either venue, as the market page and developers read it: its latest state
 * (`GET /api/markets/{venue}/{id}`), its price path and volume over any span at 1-minute,
 * 1-hour or 1-day resolution (`…/history`), and a search over both venues' markets. Every
 * panel's SQL travels with the answer as a `QueryNode`, so "Query in Editor" opens what
 * the server ran.
 */
import { z } from "zod";
import { defineEndpoint, type Endpoint } from "./endpoint";
import { errorResponse, UNAUTHORIZED } from "./errors";
import { ZQueryNode } from "./query-node";
import { ZVenue } from "./venues";

export const ZMarketParams = z.object({
  venue: ZVenue,
  id: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,120}$/, "a Polymarket market id or a Kalshi ticker")
    .describe("Polymarket's market id (numeric) or Kalshi's ticker"),
});

export const ZMarketStatus = z
  .enum(["open", "closed", "resolved"])
  .describe("open: trading; closed: trading stopped, outcome not final; resolved: the outcome is final");
export type MarketStatus = z.infer<typeof ZMarketStatus>;

export const ZMarketOutcome = z.object({
  label: z.string().describe("Yes, No, or the outcome's name"),
  token_id: z.string().nullable().describe("Polymarket's CLOB token id; null on Kalshi"),
  price: z.number().nullable().describe("The latest snapshot's price, 0–1"),
});

export const RESOLUTION_OUTCOME_TYPES = ["yes", "no", "split", "scalar", "void"] as const;

export const ZMarketResolution = z
  .object({
    outcome_type: z
      .enum(RESOLUTION_OUTCOME_TYPES)
      .describe(
        "yes or no (which outcome won whole), split (part to each), scalar (Kalshi: a value), void (cancelled)",
      ),
    winning_outcome: z.string().nullable().describe("The winning outcome's label; null when none won whole"),
    payouts: z.array(z.number()).describe("What one share of each outcome paid, in the order of outcomes"),
    scalar_value: z.number().nullable().describe("Kalshi scalar settlements: dollars per Yes contract"),
    source: z.string().describe("UMA, Polymarket (before UMA) or Kalshi"),
    source_detail: z.string().nullable().describe("The resolution source the rules name, where the venue gives one"),
    end_date: z.iso.datetime().nullable().describe("When the market was scheduled to end"),
    closed_at: z.iso.datetime().nullable().describe("When trading stopped"),
    resolved_at: z.iso.datetime().nullable().describe("When the outcome became final"),
    proposed_at: z.iso.datetime().nullable().describe("Polymarket: the first capture showing a UMA proposal"),
    disputed_at: z.iso.datetime().nullable().describe("The first capture showing a dispute"),
    disputed: z.boolean(),
    flipped: z.boolean().describe("Whether the archive saw it settled at more than one outcome"),
    status_history: z
      .array(z.object({ status: z.string(), at: z.iso.datetime() }))
      .describe("Each venue status after trading, with the first capture that showed it"),
    last_prices: z.array(z.number()).describe("The last captured price of each outcome before the close"),
    last_price_at: z.iso.datetime().nullable(),
    last_price_from: z.enum(["snapshot", "history"]).nullable(),
    event_winner: z
      .string()
      .nullable()
      .describe("The label of the one market of the event that settled yes; null when none or several did"),
  })
  .meta({ id: "MarketResolution" });
export type MarketResolution = z.infer<typeof ZMarketResolution>;

export const ZMarket = z
  .object({
    venue: ZVenue,
    id: z.string(),
    question: z.string(),
    subtitle: z.string().nullable().describe("Kalshi's yes subtitle, or Polymarket's group item title"),
    event: z.object({ id: z.string(), title: z.string().nullable() }),
    status: ZMarketStatus,
    outcomes: z.array(ZMarketOutcome),
    result: z.string().nullable().describe("The winning outcome's label once resolved"),
    opened_at: z.iso.datetime().nullable(),
    closes_at: z.iso.datetime().nullable(),
    resolved_at: z.iso.datetime().nullable(),
    volume: z.number().nullable().describe("Lifetime volume: USDC on Polymarket, contracts on Kalshi"),
    liquidity: z.number().nullable(),
    open_interest: z.number().nullable().describe("Kalshi only: contracts open"),
    url: z.url().describe("The market on the venue's site"),
    snapshot_at: z.iso.datetime().describe("When the latest snapshot was taken"),
    history: z.object({
      points: z.number().int().nonnegative().describe("Price points (Polymarket) or candles (Kalshi) archived"),
      trades: z.number().int().nonnegative(),
      first: z.iso.datetime().nullable().describe("The oldest point or candle"),
      last: z.iso.datetime().nullable(),
      state: z
        .enum(["complete", "current", "upstream error", "not reached"])
        .describe(
          "Where the archive's history of the market stands (the coverage ledger): its whole life in, up to date, refused by the venue, or not fetched yet",
        ),
      until: z.iso.datetime().nullable().describe("Up to when its history is stored"),
      error: z.string().nullable().describe("The venue's answer when its requests failed"),
      retry_at: z.iso.datetime().nullable().describe("When a failed market is tried again"),
    }),
    resolution: ZMarketResolution.nullable().describe(
      "How the market settled, from the resolutions ledger; null until the archive has seen it settled",
    ),
    latest: z.record(z.string(), z.unknown()).describe("Every column of the latest snapshot"),
    queries: z
      .object({
        latest: ZQueryNode,
        prices: ZQueryNode,
        volume: ZQueryNode,
        trades: ZQueryNode,
        resolution: ZQueryNode,
      })
      .describe("The SQL behind each panel of the market page"),
  })
  .meta({ id: "Market" });
export type Market = z.infer<typeof ZMarket>;

export const HISTORY_INTERVALS = ["1m", "1h", "1d"] as const;
export const ZHistoryInterval = z.enum(HISTORY_INTERVALS);
export type HistoryInterval = z.infer<typeof ZHistoryInterval>;
/** The longest span one 1-minute request covers. */
export const MAX_MINUTE_SPAN_DAYS = 31;

export const ZMarketHistoryQuery = z.object({
  interval: ZHistoryInterval.default("1h").describe("Point spacing: 1m, 1h or 1d"),
  from: z.iso.datetime({ offset: true }).optional().describe("Start (ISO 8601); the market's first point by default"),
  to: z.iso.datetime({ offset: true }).optional().describe("End (ISO 8601); now by default"),
});

export const ZPricePoint = z.object({
  t: z.iso.datetime().describe("Start of the interval (UTC)"),
  open: z.number().nullable(),
  high: z.number().nullable(),
  low: z.number().nullable(),
  close: z.number().nullable().describe("The price at the end of the interval, 0–1"),
});
export type PricePoint = z.infer<typeof ZPricePoint>;

export const ZMarketHistory = z
  .object({
    venue: ZVenue,
    id: z.string(),
    interval: ZHistoryInterval,
    source: z
      .enum(["history", "snapshots", "none"])
      .describe(
        "history: the venue's own record; snapshots: Epicenter's 10-minute snapshots (no history archived yet)",
      ),
    outcomes: z.array(z.object({ label: z.string(), points: z.array(ZPricePoint) })),
    volume: z
      .array(z.object({ t: z.iso.datetime(), volume: z.number() }))
      .describe("Traded per interval: USDC on Polymarket, contracts on Kalshi; empty without trades or candles"),
    resolution: z.object({ at: z.iso.datetime(), outcome: z.string() }).nullable(),
    truncated: z.boolean().describe("True when the span held more points than one answer carries"),
    query: ZQueryNode.describe("The SQL of the price series"),
  })
  .meta({ id: "MarketHistory" });
export type MarketHistory = z.infer<typeof ZMarketHistory>;

export const ZMarketBookQuery = z.object({
  at: z.iso
    .datetime({ offset: true })
    .optional()
    .describe("The moment (ISO 8601): the book as last captured at or before it; now by default"),
});

export const ZBookLevel = z.object({
  price: z.number().describe("0–1: USDC on Polymarket, dollars on Kalshi"),
  size: z.number().describe("Shares on Polymarket, contracts on Kalshi"),
});

/** The order sizes, in USDC or dollars, the book's fill prices are given for. */
export const FILL_SIZES = [100, 1_000] as const;

export const ZBookFill = z.object({
  usd: z.number().describe("The order's size in USDC or dollars"),
  side: z.enum(["buy", "sell"]).describe("buy: Yes bought from the asks; sell: Yes sold into the bids"),
  price: z
    .number()
    .nullable()
    .describe("Average price per share of the part that fills (executable price); null on an empty side"),
  filled_usd: z.number().describe("How much of the order the book's ten levels take"),
  complete: z.boolean().describe("True when the whole order fills within the captured levels"),
});
export type BookFill = z.infer<typeof ZBookFill>;

export const ZMarketBook = z
  .object({
    venue: ZVenue,
    id: z.string(),
    at: z.iso.datetime().describe("The moment asked for (UTC)"),
    captured_at: z.iso
      .datetime()
      .nullable()
      .describe(
        "The capture the book comes from, the last at or before `at`; null when none was (not captured, or closed)",
      ),
    book_timestamp: z.iso.datetime().nullable().describe("The venue's own time of the book, where it gives one"),
    bids: z.array(ZBookLevel).describe("Yes bids, best (highest) first, up to 10 levels"),
    asks: z.array(ZBookLevel).describe("Yes asks, best (lowest) first, up to 10 levels (Kalshi: its No bids at 1 − p)"),
    fills: z.array(ZBookFill).describe("Executable prices for orders of each size in FILL_SIZES, both sides"),
    spread: z
      .array(z.object({ t: z.iso.datetime(), bid: z.number().nullable(), ask: z.number().nullable() }))
      .describe("Best bid and ask of each capture in the 7 days up to `at`"),
    query: ZQueryNode.describe("The SQL of the book"),
  })
  .meta({ id: "MarketBook" });
export type MarketBook = z.infer<typeof ZMarketBook>;

export const ZMarketSearchQuery = z.object({
  q: z.string().trim().max(200).default("").describe("Words of the question, or an id or ticker"),
  venue: ZVenue.optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});

export const ZMarketSummary = z.object({
  venue: ZVenue,
  id: z.string(),
  question: z.string(),
  subtitle: z.string().nullable(),
  status: ZMarketStatus,
  volume: z.number().nullable(),
  closes_at: z.iso.datetime().nullable(),
});
export type MarketSummary = z.infer<typeof ZMarketSummary>;

export const ZMarketSearch = z.object({ markets: z.array(ZMarketSummary) }).meta({ id: "MarketSearch" });

const notFound = errorResponse("No market with that id in the archive");

/** The market endpoints; merged into `endpoints`. */
export const marketEndpoints = {
  searchMarkets: defineEndpoint({
    method: "get",
    path: "/api/markets",
    summary: "Find markets of both venues",
    description:
      "Markets whose question, subtitle, id or ticker contains the words of `q`, open ones and the most traded first.",
    tag: "Markets",
    auth: "session_or_key",
    query: ZMarketSearchQuery,
    responses: { 200: { description: "Markets", schema: ZMarketSearch }, 401: UNAUTHORIZED },
  }),
  getMarket: defineEndpoint({
    method: "get",
    path: "/api/markets/{venue}/{id}",
    summary: "One market's latest state",
    description:
      "The latest snapshot of a Polymarket market (by id) or a Kalshi market (by ticker), with how much history the archive holds for it and the SQL behind each panel of its page.",
    tag: "Markets",
    auth: "session_or_key",
    params: ZMarketParams,
    responses: {
      200: { description: "The market", schema: ZMarket },
      400: errorResponse("The venue or id is malformed"),
      401: UNAUTHORIZED,
      404: notFound,
    },
  }),
  getMarketHistory: defineEndpoint({
    method: "get",
    path: "/api/markets/{venue}/{id}/history",
    summary: "One market's price history",
    description: `Open, high, low and close of each outcome's price per interval, and volume per interval, from the venue's own history (Polymarket price points, Kalshi candles), falling back to Epicenter's snapshots where no history is archived yet. 1-minute points cover at most ${MAX_MINUTE_SPAN_DAYS} days per request.`,
    tag: "Markets",
    auth: "session_or_key",
    params: ZMarketParams,
    query: ZMarketHistoryQuery,
    responses: {
      200: { description: "The history", schema: ZMarketHistory },
      400: errorResponse("The interval, from or to is malformed, or the span is too long for the interval"),
      401: UNAUTHORIZED,
      404: notFound,
    },
  }),
  getMarketBook: defineEndpoint({
    method: "get",
    path: "/api/markets/{venue}/{id}/book",
    summary: "One market's order book at a moment",
    description:
      "The top 10 levels of each side of the market's Yes book as last captured at or before `at` (now by default), the executable price of a $100 and a $1,000 order on each side, and the best bid and ask of every capture in the 7 days before. Books are captured with each snapshot since the archive started: markets traded in the last day every snapshot, the rest hourly.",
    tag: "Markets",
    auth: "session_or_key",
    params: ZMarketParams,
    query: ZMarketBookQuery,
    responses: {
      200: { description: "The book", schema: ZMarketBook },
      400: errorResponse("The venue, id or moment is malformed"),
      401: UNAUTHORIZED,
      404: notFound,
    },
  }),
} satisfies Record<string, Endpoint>;
