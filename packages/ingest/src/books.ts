/**
 * An order book as the archive keeps it, whichever venue it came from: the yes outcome's
 * bids (best first, descending) and asks (best first, ascending), at most `BOOK_DEPTH`
 * levels a side, prices in dollars (0–1, exact to 1/10,000) and sizes in shares or
 * contracts. Each venue's reader (`sources/<venue>/books.ts`) turns its answer into this;
 * the capture (`sync/books.ts`) writes it to `<venue>.books`.
 *
 * The venues do not promise an order (Polymarket's CLOB lists bids ascending; Kalshi's
 * recorded answers are ascending and sometimes unsorted), so levels are sorted here, a
 * price listed twice is one level with the sizes added, and levels that cannot be a
 * resting order (no price, a price outside (0, 1), no size) are dropped.
 */
import { BOOK_DEPTH } from "@epicenter/warehouse";
import { Invalid, readNumberish, readTimestamp } from "./upstream-values";

export interface BookLevel {
  /** Dollars, 0–1, rounded to 1/10,000 (the finest tick either venue quotes). */
  price: number;
  size: number;
}

export interface Book {
  /** The market's key (`polymarket.markets.id`, `kalshi.markets.ticker`). */
  market: string;
  /** The venue's own time of the book (epoch ms), where it gives one. */
  bookTimestamp: number | null;
  bids: BookLevel[];
  asks: BookLevel[];
}

/** A market whose book is asked for: its key and what the venue knows it by (a token id, a ticker). */
export interface BookTarget {
  market: string;
  bookId: string;
}

const TICKS = 10_000;

/** A price in ticks (1/10,000 of a dollar), or null when it is no price. */
export function priceTicks(value: unknown, unit: "dollars" | "cents"): number | null {
  const read = readNumberish(value);
  if (read === null || read instanceof Invalid) return null;
  const ticks = Math.round(unit === "cents" ? read * (TICKS / 100) : read * TICKS);
  return ticks > 0 && ticks < TICKS ? ticks : null;
}

/** A size, or null when it is not a positive number. */
export function levelSize(value: unknown): number | null {
  const read = readNumberish(value);
  return read === null || read instanceof Invalid || read <= 0 ? null : read;
}

/**
 * One side from `(ticks, size)` pairs: merged by price, sorted best first, cut to the
 * depth kept. `descending` for bids.
 */
export function bookSide(levels: Iterable<[number | null, number | null]>, descending: boolean): BookLevel[] {
  const byPrice = new Map<number, number>();
  for (const [ticks, size] of levels) {
    if (ticks === null || size === null) continue;
    byPrice.set(ticks, (byPrice.get(ticks) ?? 0) + size);
  }
  return [...byPrice.entries()]
    .sort(([a], [b]) => (descending ? b - a : a - b))
    .slice(0, BOOK_DEPTH)
    .map(([ticks, size]) => ({ price: ticks / TICKS, size }));
}

/** The complement of a price in ticks: a no bid at p is a yes ask at 1 − p. */
export function complementTicks(ticks: number | null): number | null {
  return ticks === null ? null : TICKS - ticks;
}

/** The venue's time of a book: ISO text, or epoch seconds or milliseconds as a number or text. */
export function bookTime(value: unknown): number | null {
  if (value === null || value === undefined || value === "") return null;
  const numeric =
    typeof value === "number" ? value : typeof value === "string" && /^\d+$/.test(value) ? Number(value) : null;
  if (numeric !== null) return numeric > 1e12 ? numeric : numeric * 1000;
  const read = readTimestamp(value);
  return read === null || read instanceof Invalid ? null : read;
}

/** What one request of books answered: the books read, the targets without one, the entries unreadable. */
export interface BookAnswer {
  books: Book[];
  failed: BookTarget[];
  skipped: number;
}

/**
 * The books of `targets` from a venue's answer, its entries keyed by what the venue knows
 * each book by: a target the answer leaves out, or whose entry `read` refuses (a reason
 * instead of a book), is failed; a refused entry is also counted as skipped.
 */
export function collectBooks(
  targets: readonly BookTarget[],
  entries: readonly unknown[],
  idOf: (entry: Record<string, unknown>) => unknown,
  read: (market: string, entry: unknown) => Book | string,
): BookAnswer {
  const byId = new Map<string, unknown>();
  for (const entry of entries) {
    const id = entry && typeof entry === "object" ? idOf(entry as Record<string, unknown>) : undefined;
    if (typeof id === "string") byId.set(id, entry);
  }
  const answer: BookAnswer = { books: [], failed: [], skipped: 0 };
  for (const target of targets) {
    const entry = byId.get(target.bookId);
    const book = entry === undefined ? "missing from the answer" : read(target.market, entry);
    if (typeof book !== "string") answer.books.push(book);
    else {
      answer.failed.push(target);
      if (entry !== undefined) answer.skipped += 1;
    }
  }
  return answer;
}

/** One row of `<venue>.books`, as JSONEachRow. */
export function bookRow(
  key: string,
  syncTimestamp: string,
  state: "active" | "hourly" | "closed",
  book: Book,
  toWarehouseTime: (ms: number | null) => string | null,
): Record<string, unknown> {
  return {
    sync_timestamp: syncTimestamp,
    [key]: book.market,
    book_timestamp: toWarehouseTime(book.bookTimestamp),
    state,
    bid_price: book.bids.map((level) => level.price.toFixed(4)),
    bid_size: book.bids.map((level) => level.size),
    ask_price: book.asks.map((level) => level.price.toFixed(4)),
    ask_size: book.asks.map((level) => level.size),
  };
}
