/**
 * Open markets of the replay's catalog as the live feeds know them, for tests that
 * subscribe to them: Polymarket's by their two tokens, Kalshi's by ticker.
 */
import { type Json, type KalshiCatalog, type PolymarketCatalog, tokenIdsOf } from "../replay/catalog";

export interface LivePolymarketMarket {
  /** The Gamma market id (the archive's key). */
  id: string;
  yes: string;
  no: string;
}

export function openPolymarketMarkets(catalog: PolymarketCatalog, count: number): LivePolymarketMarket[] {
  const found: LivePolymarketMarket[] = [];
  for (let index = 0; found.length < count && index < catalog.eventCount; index++) {
    for (const market of (catalog.event(index).markets as Json[] | undefined) ?? []) {
      const [yes, no] = tokenIdsOf(market);
      if (market.closed === true || !yes || !no || !catalog.findByToken(yes)) continue;
      found.push({ id: String(market.id), yes, no });
      if (found.length === count) break;
    }
  }
  return found;
}

export function openKalshiTickers(catalog: KalshiCatalog, count: number): string[] {
  const found: string[] = [];
  for (let index = 0; found.length < count && index < catalog.eventCount; index++) {
    const { event, status } = catalog.event(index);
    if (status !== "open") continue;
    for (const market of (event.markets as Json[] | undefined) ?? []) {
      if (market.status === "active" && found.length < count) found.push(String(market.ticker));
    }
  }
  return found;
}
