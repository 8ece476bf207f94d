/**
 * Web search for Seismo, offered to the model only when `SEARCH_API_URL` is set.
 *
 * The provider contract is SearXNG's JSON API, which many search services also speak:
 * `GET <SEARCH_API_URL>?q=<query>&format=json`, with `Authorization: Bearer
 * <SEARCH_API_KEY>` when a key is set, answered with `{"results": [{"title", "url",
 * "content"}]}` (`snippet` or `description` are read in place of `content`). A self-hosted
 * SearXNG works as is: SEARCH_API_URL=http://localhost:8888/search.
 */
import { z } from "zod";
import type { Config } from "../../config";

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

const ZSearchAnswer = z.object({
  results: z
    .array(
      z
        .object({
          title: z.string().catch(""),
          url: z.string().catch(""),
          content: z.string().optional().catch(undefined),
          snippet: z.string().optional().catch(undefined),
          description: z.string().optional().catch(undefined),
        })
        .loose(),
    )
    .catch([]),
});

const MAX_RESULTS = 6;
const SNIPPET_CHARS = 400;

export async function webSearch(search: Config["search"], query: string, signal: AbortSignal): Promise<SearchResult[]> {
  if (!search.url) throw new Error("Web search is not configured (SEARCH_API_URL).");
  const url = new URL(search.url);
  url.searchParams.set("q", query);
  url.searchParams.set("format", "json");
  const response = await fetch(url, {
    headers: { accept: "application/json", ...(search.apiKey ? { authorization: `Bearer ${search.apiKey}` } : {}) },
    signal: AbortSignal.any([signal, AbortSignal.timeout(15_000)]),
  });
  if (!response.ok) throw new Error(`The search provider answered ${response.status}.`);
  const parsed = ZSearchAnswer.safeParse(await response.json());
  if (!parsed.success) throw new Error("The search provider's answer was not the expected JSON.");
  return parsed.data.results
    .filter((result) => result.url)
    .slice(0, MAX_RESULTS)
    .map((result) => ({
      title: result.title,
      url: result.url,
      snippet: (result.content ?? result.snippet ?? result.description ?? "").slice(0, SNIPPET_CHARS),
    }));
}
