/**
 * `search_markets`' answer: the markets service's search over both venues' latest tables
 * (the one `GET /api/markets` uses: open markets first, then by volume, venues taking
 * turns), with each market's current prices beside it, since an agent asks "what are the
 * odds" more often than anything. The prices, with the title and subtitle, are read from
 * each found market's latest row in one fixed query per venue, on the app's warehouse
 * connection like the search itself (no SQL from the caller; the ids travel as a typed
 * parameter).
 */
import { type MarketSummary, VENUE_FACTS, type Venue } from "@epicenter/contracts";
import type { Warehouse } from "@epicenter/warehouse";
import { type MarketDeps, searchMarkets } from "../markets/markets";
import { VENUE_READERS } from "../venues";

export interface MarketFound {
  venue: Venue;
  id: string;
  title: string;
  subtitle: string | null;
  status: MarketSummary["status"];
  /** Each outcome's price, a probability from 0 to 1 (as each venue's reader gives it). */
  outcomes: Array<{ label: string; price: number | null }>;
  volume: number | null;
  /** What the volume counts: "USDC", "contracts". */
  volume_unit: string;
  closes_at: string | null;
}

interface DetailRow {
  id: string;
  title: string;
  subtitle: string;
  labels: string[];
  prices: Array<number | string | null>;
}

export async function searchMarketsWithPrices(
  deps: MarketDeps,
  query: { q: string; venue?: Venue | undefined; limit: number },
): Promise<MarketFound[]> {
  const found = await searchMarkets(deps, query);
  const venues = [...new Set(found.map((market) => market.venue))];
  const details = new Map<string, DetailRow>();
  await Promise.all(
    venues.map(async (venue) => {
      const ids = found.filter((market) => market.venue === venue).map((market) => market.id);
      for (const row of await detailsOf(deps.warehouse, venue, ids)) details.set(`${venue}:${row.id}`, row);
    }),
  );
  return found.map((market) => {
    const row = details.get(`${market.venue}:${market.id}`);
    return {
      venue: market.venue,
      id: market.id,
      title: row?.title || market.question,
      subtitle: row?.subtitle || market.subtitle,
      status: market.status,
      outcomes: row ? row.labels.map((label, index) => ({ label, price: numberOf(row.prices[index]) })) : [],
      volume: market.volume,
      volume_unit: VENUE_FACTS[market.venue].volumeName,
      closes_at: market.closes_at,
    };
  });
}

function detailsOf(warehouse: Warehouse, venue: Venue, ids: string[]): Promise<DetailRow[]> {
  return warehouse.query<DetailRow>(VENUE_READERS[venue].panels.outcomePrices, { params: { ids } });
}

function numberOf(value: unknown): number | null {
  if (value === null || value === undefined || value === "") return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}

/** One line per market, for the text of the tool's answer. */
export function marketLine(market: MarketFound): string {
  const prices = market.outcomes
    .map((outcome) => `${outcome.label} ${outcome.price === null ? "?" : outcome.price.toFixed(3)}`)
    .join(", ");
  const title = market.subtitle ? `${market.title} — ${market.subtitle}` : market.title;
  const volume = market.volume === null ? "" : `, volume ${Math.round(market.volume)} ${market.volume_unit}`;
  return `${market.venue} ${market.id} [${market.status}] ${title} (${prices || "no price"}${volume})`;
}
