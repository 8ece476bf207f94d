/**
 * `search_markets`' answer: the markets service's search over both venues' latest tables
 * (the one `GET /api/markets` uses: open markets first, then by volume, venues taking
 * turns), with each market's current prices beside it, since an agent asks "what are the
 * odds" more often than anything. The prices, with the title and subtitle, are read from
 * each found market's latest row in one fixed query per venue, on the app's warehouse
 * connection like the search itself (no SQL from the caller; the ids travel as a typed
 * parameter).
 */
import type { MarketSummary, Venue } from "@epicenter/contracts";
import type { Warehouse } from "@epicenter/warehouse";
import { type MarketDeps, searchMarkets } from "../markets/markets";

export interface MarketFound {
  venue: Venue;
  id: string;
  title: string;
  subtitle: string | null;
  status: MarketSummary["status"];
  /** Each outcome's price, a probability from 0 to 1 (Kalshi: Yes at the last trade, No its complement). */
  outcomes: Array<{ label: string; price: number | null }>;
  volume: number | null;
  volume_unit: "USDC" | "contracts";
  closes_at: string | null;
}

const DETAILS: Record<Venue, string> = {
  polymarket: `SELECT id, question AS title, groupItemTitle AS subtitle, outcomes AS labels, outcomePrices AS prices
    FROM polymarket.markets_latest FINAL WHERE id IN {ids:Array(String)}`,
  kalshi: `SELECT ticker AS id, title, yes_sub_title AS subtitle, ['Yes', 'No'] AS labels,
      [last_price_dollars, if(isNull(last_price_dollars), NULL, round(1 - last_price_dollars, 4))] AS prices
    FROM kalshi.markets_latest FINAL WHERE ticker IN {ids:Array(String)}`,
};

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
      volume_unit: market.venue === "polymarket" ? "USDC" : "contracts",
      closes_at: market.closes_at,
    };
  });
}

function detailsOf(warehouse: Warehouse, venue: Venue, ids: string[]): Promise<DetailRow[]> {
  return warehouse.query<DetailRow>(DETAILS[venue], { params: { ids } });
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
