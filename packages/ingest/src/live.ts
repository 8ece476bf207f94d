/**
 * The venues' live feeds as the archive reads them, whichever venue they came from
 * (issue 46; API_FORMATS §5): each venue's frame reader (`sources/<venue>/live.ts`) turns
 * one WebSocket text frame into a `LiveFrame` of normalised events, and the capture keeps
 * each book it follows in a `LiveBook` and each subscription's sequence in a
 * `SequenceCheck`, so a lost message is seen where the venue numbers them.
 *
 * Prices are in ticks (1/10,000 of a dollar, as `books.ts`), sizes exact as the venue sent
 * them. A book's id is what the venue knows it by (Polymarket's token id, Kalshi's ticker);
 * which market and outcome it is, the capture knows.
 *
 * Readers never throw on what a venue sends: a frame that is not what they read is a
 * `rejected` reason, an event of a kind they do not know is counted in `unknown`, and a
 * frame over `LIVE_FRAME_MAX_BYTES` is refused before it is parsed.
 */

import type { Warehouse } from "@epicenter/warehouse";

/**
 * From when (Unix seconds) a REST walker may meet a trade the live stream stored already:
 * the venue's first stream session, less a minute for the venue's clock; Infinity when the
 * stream never ran, so a walker over the archive's past asks nothing more.
 */
export async function streamedFrom(warehouse: Warehouse, database: string): Promise<number> {
  const [row] = await warehouse.query<{ second: number; sessions: number }>(
    `SELECT toUnixTimestamp(min(opened_at)) - 60 AS second, count() AS sessions FROM ${database}.stream_sessions`,
  );
  return row && Number(row.sessions) > 0 ? Number(row.second) : Number.POSITIVE_INFINITY;
}

/** The most text one frame may hold: Polymarket's first dump of 500 books is about 1 MB. */
export const LIVE_FRAME_MAX_BYTES = 8 * 1024 * 1024;

export type BookSide = "bid" | "ask";

/** A level of a book: its price in ticks and its resting size. */
export type LiveLevel = readonly [ticks: number, size: number];

export type LiveEvent =
  /** The whole book of `book` as the venue sent it: it replaces whatever was known. */
  | { kind: "book"; book: string; at: number | null; bids: LiveLevel[]; asks: LiveLevel[] }
  /** One level's new resting size (Polymarket's `price_change`): 0 removes it. */
  | { kind: "level"; book: string; at: number | null; side: BookSide; ticks: number; size: number }
  /** A signed change of one level's resting size (Kalshi's `orderbook_delta`). */
  | { kind: "delta"; book: string; at: number | null; side: BookSide; ticks: number; change: number }
  /** A trade: `side` is the taker's (`buy`/`sell` of the book's outcome; Kalshi's `yes`/`no`). */
  | {
      kind: "trade";
      book: string;
      at: number | null;
      ticks: number;
      size: number;
      side: string;
      /** The venue's id of the trade where it sends one (Kalshi's `trade_id`, Polymarket's transaction hash). */
      tradeId: string | null;
    }
  /** A market listed, closed, determined or settled; `books` are the ids it trades under. */
  | {
      kind: "lifecycle";
      market: string;
      at: number | null;
      change: string;
      books: string[];
      /** The outcome where it was decided: the winning token (Polymarket) or `yes`/`no` (Kalshi). */
      result: string | null;
    };

/** A trade the stream brought, with the market it is a trade of, for the venue's tape. */
export interface LiveTrade {
  market: string;
  trade: Extract<LiveEvent, { kind: "trade" }>;
  /** The capture's clock when it arrived (epoch microseconds). */
  received: number;
}

/** What one frame held. */
export interface LiveFrame {
  events: LiveEvent[];
  /** The subscription the frame belongs to and its place in it, where the venue numbers them. */
  sid?: number;
  seq?: number;
  /** An answer to a command (subscribed, ok, unsubscribed, error), where it was one. */
  control?: { type: string; id?: number; sid?: number; channel?: string; code?: number; message?: string };
  /** A heartbeat answer (Polymarket's text `PONG`). */
  pong?: boolean;
  /** Events of kinds the reader does not know, left out. */
  unknown: number;
  /** Why parts of the frame could not be read, each left out. */
  rejected: string[];
}

export function emptyFrame(): LiveFrame {
  return { events: [], unknown: 0, rejected: [] };
}

/** The frame's JSON, or a reason it has none; refused unparsed past the bound. */
export function parseFrame(text: string, frame: LiveFrame): unknown {
  if (text.length > LIVE_FRAME_MAX_BYTES) {
    frame.rejected.push(`a frame of ${text.length} characters, over ${LIVE_FRAME_MAX_BYTES}`);
    return undefined;
  }
  try {
    return JSON.parse(text);
  } catch {
    frame.rejected.push(`not JSON: ${JSON.stringify(text.slice(0, 60))}`);
    return undefined;
  }
}

/** A book as the capture follows it: each side's levels by price, exact. */
export class LiveBook {
  readonly bids = new Map<number, number>();
  readonly asks = new Map<number, number>();
  /** The venue's time of the last event applied. */
  at: number | null = null;

  /** Applies one event of this book; answers the levels it set (size 0: removed), for storage. */
  apply(event: Extract<LiveEvent, { kind: "book" | "level" | "delta" }>): Array<[BookSide, number, number]> {
    this.at = event.at ?? this.at;
    if (event.kind === "book") {
      const changed: Array<[BookSide, number, number]> = [];
      for (const [side, levels] of [
        ["bid", event.bids],
        ["ask", event.asks],
      ] as const) {
        const map = this.side(side);
        const next = new Map<number, number>();
        for (const [ticks, size] of levels) if (size > 0) next.set(ticks, (next.get(ticks) ?? 0) + size);
        for (const ticks of map.keys()) if (!next.has(ticks)) changed.push([side, ticks, 0]);
        for (const [ticks, size] of next) if (map.get(ticks) !== size) changed.push([side, ticks, size]);
        map.clear();
        for (const [ticks, size] of next) map.set(ticks, size);
      }
      return changed;
    }
    const map = this.side(event.side);
    const size = event.kind === "level" ? event.size : exactSum(map.get(event.ticks) ?? 0, event.change);
    if (size > 0) map.set(event.ticks, size);
    else map.delete(event.ticks);
    return [[event.side, event.ticks, Math.max(size, 0)]];
  }

  /** Bids best first (descending), asks best first (ascending), at most `depth` a side. */
  levels(depth: number): { bids: LiveLevel[]; asks: LiveLevel[] } {
    const sorted = (map: Map<number, number>, descending: boolean) =>
      [...map.entries()].sort(([a], [b]) => (descending ? b - a : a - b)).slice(0, depth);
    return { bids: sorted(this.bids, true), asks: sorted(this.asks, false) };
  }

  private side(side: BookSide): Map<number, number> {
    return side === "bid" ? this.bids : this.asks;
  }
}

/**
 * A sum of two sizes the venue sends with at most a few decimals (Kalshi's `"0.11"`),
 * rounded to 1/10^6 so that adding and taking back a fraction leaves no phantom level.
 */
function exactSum(a: number, b: number): number {
  return Math.round((a + b) * 1e6) / 1e6;
}

/** What a frame's place in its subscription says. */
export type SequenceVerdict =
  | { kind: "next" }
  /** The first frame of a subscription seen: nothing before it to miss. */
  | { kind: "first" }
  /** At or below the last one seen: a duplicate or late frame, to drop. */
  | { kind: "stale" }
  /** Numbers `from`…`to` were never seen: every book of the subscription is unproven. */
  | { kind: "gap"; from: number; to: number };

/** Each subscription's last sequence number (Kalshi's `seq`, one counter per `sid`). */
export class SequenceCheck {
  private readonly last = new Map<number, number>();

  observe(sid: number, seq: number): SequenceVerdict {
    const last = this.last.get(sid);
    if (last === undefined) {
      this.last.set(sid, seq);
      return { kind: "first" };
    }
    if (seq <= last) return { kind: "stale" };
    this.last.set(sid, seq);
    return seq === last + 1 ? { kind: "next" } : { kind: "gap", from: last + 1, to: seq - 1 };
  }

  /** Forgets a subscription (unsubscribed, or its connection closed). */
  forget(sid: number): void {
    this.last.delete(sid);
  }
}
