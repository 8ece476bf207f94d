/**
 * What the market page's book panel draws, from a `MarketBook`: the depth chart's rows
 * (cumulative size on each side, stepping away from the middle), the spread's rows, and
 * the words for a fill.
 */
import type { BookFill, MarketBook } from "@epicenter/contracts";

export interface DepthRow {
  price: number;
  /** Shares or contracts bid at this price or higher. */
  bids: number | null;
  /** Shares or contracts offered at this price or lower. */
  asks: number | null;
}

/** Cumulative depth by price, lowest price first: bids build up leftwards, asks rightwards. */
export function depthRows(book: Pick<MarketBook, "bids" | "asks">): DepthRow[] {
  const rows: DepthRow[] = [];
  let total = 0;
  for (const level of book.bids) {
    total += level.size;
    rows.push({ price: level.price, bids: round(total), asks: null });
  }
  rows.reverse();
  total = 0;
  for (const level of book.asks) {
    total += level.size;
    rows.push({ price: level.price, bids: null, asks: round(total) });
  }
  return rows;
}

/** Best bid and ask over time, and the spread between them (dollars, shown in cents). */
export function spreadRows(book: Pick<MarketBook, "spread">): Array<Record<string, unknown>> {
  return book.spread.map((point) => ({
    t: point.t,
    bid: point.bid,
    ask: point.ask,
    spread: point.bid !== null && point.ask !== null ? Math.round((point.ask - point.bid) * 10_000) / 10_000 : null,
  }));
}

/** The price axis of the spread chart: the prices drawn, a cent of room each side, within 0–1. */
export function spreadDomain(book: Pick<MarketBook, "spread">): [number, number] | undefined {
  const prices = book.spread.flatMap((point) => [point.bid, point.ask]).filter((p): p is number => p !== null);
  if (prices.length === 0) return undefined;
  const low = Math.max(0, Math.floor((Math.min(...prices) - 0.01) * 100) / 100);
  const high = Math.min(1, Math.ceil((Math.max(...prices) + 0.01) * 100) / 100);
  return [low, high];
}

/** "0.523 for the whole $1,000" or "0.61 for $340 of $1,000 (the 10 levels run out)". */
export function fillText(fill: BookFill): string {
  if (fill.price === null) return "no orders on this side";
  const price = fill.price.toFixed(3);
  if (fill.complete) return `${price} a share`;
  return `${price} a share for $${fill.filled_usd.toLocaleString("en-US")} (the 10 levels run out)`;
}

/** `<input type="datetime-local">` text in the reader's zone for an ISO moment, and back. */
export function localInputOf(iso: string): string {
  const date = new Date(iso);
  const offset = date.getTimezoneOffset() * 60_000;
  return new Date(date.getTime() - offset).toISOString().slice(0, 16);
}

export function isoOfLocalInput(text: string): string | undefined {
  if (!text) return undefined;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
