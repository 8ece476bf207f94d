import { endpoints, type HistoryInterval, type Venue } from "@epicenter/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { call } from "../../lib/api";

export function useMarket(venue: Venue, id: string, isEnabled = true) {
  return useQuery({
    queryKey: ["markets", venue, id],
    queryFn: ({ signal }) => call(endpoints.getMarket, { params: { venue, id } }, { signal }),
    enabled: isEnabled,
  });
}

/** One interval's prices and volume; the previous interval's chart stays up while the next one loads. */
export function useMarketHistory(
  venue: Venue,
  id: string,
  interval: HistoryInterval,
  span: { from: string; to: string } | undefined,
  isEnabled: boolean,
) {
  return useQuery({
    queryKey: ["markets", venue, id, "history", interval, span?.from ?? null, span?.to ?? null],
    queryFn: ({ signal }) =>
      call(endpoints.getMarketHistory, { params: { venue, id }, query: { interval, ...span } }, { signal }),
    enabled: isEnabled,
    placeholderData: keepPreviousData,
  });
}

/** Markets of both venues (or one) whose question, subtitle, id or ticker hold the words. */
export function useMarketSearch(q: string, venue: Venue | undefined, limit: number) {
  const words = q.trim();
  return useQuery({
    queryKey: ["markets", "search", words, venue ?? null, limit],
    queryFn: ({ signal }) =>
      call(endpoints.searchMarkets, { query: { q: words, limit, ...(venue ? { venue } : {}) } }, { signal }),
    enabled: words.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

/** The Yes book as of `at` (now when undefined), its fill prices and its spread over the week before. */
export function useMarketBook(venue: Venue, id: string, at: string | undefined) {
  return useQuery({
    queryKey: ["markets", venue, id, "book", at ?? "now"],
    queryFn: ({ signal }) =>
      call(endpoints.getMarketBook, { params: { venue, id }, query: at ? { at } : {} }, { signal }),
    placeholderData: keepPreviousData,
  });
}
