/**
 * Gamma API paging. The snapshot and the backfill both list events through
 * `/events/keyset`, as page text for the engine to read (`gammaKeysetText`). It pages
 * with an opaque cursor: the response's `next_cursor` is sent back as `after_cursor` (a
 * parameter named `cursor` is silently ignored and returns page 1 forever), every page
 * re-sends the same filters, and `offset` is never sent (HTTP 422 on keyset endpoints).
 * `closed` is always explicit because omitting it returns closed events despite the
 * documented default.
 */
import type { BodyReader, PageFetcher } from "../../http/fetch-page";
import { ZGammaEventsKeysetPage } from "./schema";

export const POLYMARKET_PAGE_LIMIT = 500;

export interface GammaEventFilters {
  closed: boolean;
  /** ISO timestamps; windows for the backfill and the pending-closed pass. */
  end_date_min?: string;
  end_date_max?: string;
}

export function gammaEventsUrl(baseUrl: string, filters: GammaEventFilters, afterCursor: string | null): string {
  const url = new URL(`${baseUrl.replace(/\/$/, "")}/events/keyset`);
  url.searchParams.set("closed", String(filters.closed));
  url.searchParams.set("limit", String(POLYMARKET_PAGE_LIMIT));
  if (filters.end_date_min) url.searchParams.set("end_date_min", filters.end_date_min);
  if (filters.end_date_max) url.searchParams.set("end_date_max", filters.end_date_max);
  if (afterCursor) url.searchParams.set("after_cursor", afterCursor);
  return url.toString();
}

/** The keyset loop: follow `nextCursor` until it is empty or repeats. */
async function* keysetPages<Page extends { nextCursor: string | null }>(
  baseUrl: string,
  filters: GammaEventFilters,
  options: { startCursor?: string | null },
  fetchAt: (url: string) => Promise<Page>,
): AsyncGenerator<Page> {
  let cursor = options.startCursor ?? null;
  for (;;) {
    const page = await fetchAt(gammaEventsUrl(baseUrl, filters, cursor));
    yield page;
    if (!page.nextCursor || page.nextCursor === cursor) return;
    cursor = page.nextCursor;
  }
}

/** A keyset page as the upstream sent it, for the engine to read (`page-batch.ts`). */
export interface GammaPageText {
  url: string;
  /** The page's JSON, byte for byte (a BOM removed), or re-serialised when it had to be parsed here. */
  body: Uint8Array;
  nextCursor: string | null;
}

const HEAD = /^\s*\{\s*"events"\s*:\s*\[/;
const TAIL = /\]\s*(?:,\s*"next_cursor"\s*:\s*("(?:[^"\\]|\\.)*"|null))?\s*\}\s*$/;
const EDGE_BYTES = 512;

/**
 * Reads a keyset page without parsing its events: the engine parses them. The body must
 * open with the `events` list and close with it, optionally followed by `next_cursor`,
 * which is read from the tail. Any other layout (keys in another order, an error object,
 * a body cut short) is parsed whole with the strict envelope instead, so a page that is
 * not JSON is still retried and a cursor is never guessed. A page that passes the edge
 * checks yet is broken inside fails the engine's read, and with it the run, cleanly.
 */
export const gammaKeysetText: BodyReader<{ body: Uint8Array; nextCursor: string | null }> = {
  readBody(bytes) {
    const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
    const decoder = new TextDecoder();
    const head = decoder.decode(body.subarray(0, EDGE_BYTES));
    const tail = TAIL.exec(decoder.decode(body.subarray(Math.max(0, body.length - EDGE_BYTES))));
    if (HEAD.test(head) && tail) {
      const cursor = tail[1] ? (JSON.parse(tail[1]) as string | null) : null;
      return { body, nextCursor: cursor || null };
    }
    const page = ZGammaEventsKeysetPage.parse(JSON.parse(decoder.decode(body)));
    return {
      body: new TextEncoder().encode(JSON.stringify({ events: page.events })),
      nextCursor: page.next_cursor || null,
    };
  },
};

/**
 * Every page of `/events/keyset` for `filters` as text, for the engine's mapping, starting
 * after `startCursor` when resuming.
 */
export function listGammaEventPages(
  fetchPage: PageFetcher,
  baseUrl: string,
  filters: GammaEventFilters,
  options: { startCursor?: string | null; signal?: AbortSignal } = {},
): AsyncGenerator<GammaPageText> {
  return keysetPages(baseUrl, filters, options, async (url) => ({
    url,
    ...(await fetchPage(url, gammaKeysetText, options.signal)),
  }));
}
