/**
 * Kalshi's order books: `GET /markets/orderbooks?tickers=…` (1–100 tickers, each billed on
 * the token bucket like a request of its own; API_FORMATS §4), read into the archive's
 * shape (`../../books.ts`).
 *
 * Kalshi lists resting bids only, for yes and for no. The yes bids are the book's bids;
 * a no bid at p for q contracts is a yes ask at 1 − p for q, so the no bids become the
 * asks. Three shapes are read, per ticker:
 * - `orderbook_fp: {yes_dollars, no_dollars}`: `[price, count]` as dollar and
 *   fixed-point strings (current);
 * - `orderbook: {yes, no, yes_dollars?, no_dollars?}`: integer cents in `yes`/`no`
 *   (legacy), dollars in the `_dollars` keys where present (OpenAPI 3.3.0);
 * - a side empty, `null` or absent: no bids on it.
 */

import { BOOK_DEPTH } from "@epicenter/warehouse";
import { z } from "zod";
import {
  type Book,
  type BookAnswer,
  type BookTarget,
  bookSide,
  collectBooks,
  complementTicks,
  levelSize,
  priceTicks,
} from "../../books";
import type { PageFetcher } from "../../http/fetch-page";

/** Tickers per `/markets/orderbooks` request: the most it takes. */
export const KALSHI_BOOK_BATCH = 100;

const ZOrderbooksPage = z.object({ orderbooks: z.array(z.unknown()).nullish() }).passthrough();

type Side = { levels: unknown[]; unit: "dollars" | "cents" };

function sideOf(book: Record<string, unknown>, outcome: "yes" | "no"): Side {
  for (const [key, unit] of [
    [`${outcome}_dollars`, "dollars"],
    [`${outcome}_fp`, "dollars"],
    [outcome, "cents"],
  ] as const) {
    const levels = book[key];
    if (Array.isArray(levels) && levels.length > 0) return { levels, unit };
  }
  return { levels: [], unit: "dollars" };
}

function* pairs(side: Side, complement: boolean): Iterable<[number | null, number | null]> {
  for (const level of side.levels) {
    if (!Array.isArray(level)) continue;
    const ticks = priceTicks(level[0], side.unit);
    yield [complement ? complementTicks(ticks) : ticks, levelSize(level[1])];
  }
}

/**
 * The book of `ticker` from one entry of the answer (or a single market's answer), or a
 * reason it is none.
 */
export function readKalshiBook(ticker: string, entry: unknown): Book | string {
  if (!entry || typeof entry !== "object") return "not an object";
  const wrapper = entry as Record<string, unknown>;
  const inner = wrapper.orderbook_fp ?? wrapper.orderbook;
  const book = inner === undefined ? wrapper : inner;
  if (book === null) return { market: ticker, bookTimestamp: null, bids: [], asks: [] };
  if (typeof book !== "object" || Array.isArray(book)) return "orderbook is not an object";
  const sides = book as Record<string, unknown>;
  return {
    market: ticker,
    bookTimestamp: null,
    bids: bookSide(pairs(sideOf(sides, "yes"), false), true),
    asks: bookSide(pairs(sideOf(sides, "no"), true), false),
  };
}

/** One request's books; a ticker the answer leaves out, or whose entry is unreadable, is `failed`. */
export async function fetchKalshiBooks(
  host: { fetchPage: PageFetcher; baseUrl: string },
  targets: readonly BookTarget[],
  signal?: AbortSignal,
): Promise<BookAnswer> {
  const url = new URL(`${host.baseUrl.replace(/\/$/, "")}/markets/orderbooks`);
  url.searchParams.set("tickers", targets.map((target) => target.bookId).join(","));
  url.searchParams.set("depth", String(BOOK_DEPTH));
  const page = await host.fetchPage(url.toString(), ZOrderbooksPage, signal, targets.length);
  return collectBooks(targets, page.orderbooks ?? [], (entry) => entry.ticker, readKalshiBook);
}
