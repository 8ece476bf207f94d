/**
 * Polymarket's order books: the CLOB's `POST /books` with a JSON array of `{token_id}`
 * (batch `/books` is limited to 500 requests per 10 s; the batch size is not documented
 * and client libraries send 25; API_FORMATS §4), read into the archive's shape
 * (`../../books.ts`).
 *
 * Each answer is `{market, asset_id, timestamp, hash, bids: [{price, size}], asks, …}`
 * with prices and sizes as strings, in no promised order (the CLOB lists bids ascending).
 * Only each market's first token (its "Yes") is asked for: the second token's book is the
 * same orders seen from the other side.
 */
import { z } from "zod";
import {
  type Book,
  type BookAnswer,
  type BookTarget,
  bookSide,
  bookTime,
  collectBooks,
  levelSize,
  priceTicks,
} from "../../books";
import type { PageFetcher } from "../../http/fetch-page";

export const POLYMARKET_BOOK_BATCH = 25;

const ZBooksPage = z.array(z.unknown());

function* pairs(levels: unknown): Iterable<[number | null, number | null]> {
  if (!Array.isArray(levels)) return;
  for (const level of levels) {
    if (!level || typeof level !== "object") continue;
    const { price, size } = level as { price?: unknown; size?: unknown };
    yield [priceTicks(price, "dollars"), levelSize(size)];
  }
}

/** The book of `market` from one CLOB book summary, or a reason it is none. */
export function readPolymarketBook(market: string, summary: unknown): Book | string {
  if (!summary || typeof summary !== "object") return "not an object";
  const { timestamp, bids, asks } = summary as Record<string, unknown>;
  if (
    (bids !== undefined && bids !== null && !Array.isArray(bids)) ||
    (asks !== undefined && asks !== null && !Array.isArray(asks))
  ) {
    return "bids or asks is not a list";
  }
  return {
    market,
    bookTimestamp: bookTime(timestamp),
    bids: bookSide(pairs(bids), true),
    asks: bookSide(pairs(asks), false),
  };
}

/** One request's books; a token the answer leaves out, or whose summary is unreadable, is `failed`. */
export async function fetchPolymarketBooks(
  host: { fetchPage: PageFetcher; baseUrl: string },
  targets: readonly BookTarget[],
  signal?: AbortSignal,
): Promise<BookAnswer> {
  const url = `${host.baseUrl.replace(/\/$/, "")}/books`;
  const body = targets.map((target) => ({ token_id: target.bookId }));
  const page = await host.fetchPage({ url, body }, ZBooksPage, signal);
  return collectBooks(targets, page, (summary) => summary.asset_id, readPolymarketBook);
}
