/**
 * Gamma API paging. The snapshot and the backfill both list events through
 * `/events/keyset`, which pages with an opaque cursor: the response's `next_cursor` is
 * sent back as `after_cursor` (a parameter named `cursor` is silently ignored and returns
 * page 1 forever), every page re-sends the same filters, and `offset` is never sent
 * (HTTP 422 on keyset endpoints). `closed` is always explicit because omitting it returns
 * closed events despite the documented default.
 */
import type { PageFetcher } from "../../http/fetch-page";
import { ZGammaEventsKeysetPage } from "./schema";

export const POLYMARKET_PAGE_LIMIT = 500;

export interface GammaEventFilters {
  closed: boolean;
  /** ISO timestamps; windows for the backfill and the pending-closed pass. */
  end_date_min?: string;
  end_date_max?: string;
}

export interface GammaEventsPage {
  url: string;
  events: unknown[];
  /** Cursor of the following page; null when this was the last. */
  nextCursor: string | null;
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

/** Every page of `/events/keyset` for `filters`, starting after `startCursor` when resuming. */
export async function* listGammaEvents(
  fetchPage: PageFetcher,
  baseUrl: string,
  filters: GammaEventFilters,
  options: { startCursor?: string | null; signal?: AbortSignal } = {},
): AsyncGenerator<GammaEventsPage> {
  let cursor = options.startCursor ?? null;
  for (;;) {
    const url = gammaEventsUrl(baseUrl, filters, cursor);
    const page = await fetchPage(url, ZGammaEventsKeysetPage, options.signal);
    const next = page.next_cursor ? page.next_cursor : null;
    yield { url, events: page.events, nextCursor: next };
    if (!next || next === cursor) return;
    cursor = next;
  }
}
