/**
 * Polymarket as a `Source`: the Gamma API (`client.ts`), its payloads (`schema.ts`), the
 * one mapping (`fields.ts` → `engine-map.ts`, run by `page-batch.ts`), the snapshot
 * (`sync.ts`), the closed-history backfill (`backfill.ts`), the price and trade history (`history.ts`) and the demo's seed
 * (`demo.ts`).
 */
import { windowUnder } from "../../http/rate-limiter";
import type { Source } from "../../source";
import { closedEvents } from "./backfill";
import { fetchPolymarketBooks, POLYMARKET_BOOK_BATCH } from "./books";
import { polymarketDemo } from "./demo";
import { polymarketHistory } from "./history";
import { polymarketLive } from "./live";
import { snapshotPolymarket } from "./sync";

export const polymarket: Source<"polymarket"> = {
  name: "polymarket",
  tables: [
    { database: "polymarket", name: "events", key: "id" },
    { database: "polymarket", name: "markets", key: "id" },
  ],
  // Gamma's `/events` (its keyset listing included) allows 500 requests per 10 s.
  rateLimit: () => windowUnder(500, 10_000),
  baseUrl: (config) => config.polymarket.apiUrl,
  snapshot: snapshotPolymarket,
  backfill: [closedEvents],
  openEventsSql: "SELECT count() FROM polymarket.events_latest FINAL WHERE closed = false",
  demo: polymarketDemo,
  history: polymarketHistory,
  books: {
    // The CLOB's batch `/books`: 500 requests per 10 s, a bucket of its own at the venue.
    host: {
      name: "polymarket-clob-books",
      rateLimit: () => windowUnder(500, 10_000),
      baseUrl: (config) => config.polymarket.clobUrl,
    },
    batch: POLYMARKET_BOOK_BATCH,
    costPerMarket: 1 / POLYMARKET_BOOK_BATCH,
    budgetShare: 0.8,
    targetsSql: `SELECT id AS market, clobTokenIds[1] AS book_id, coalesce(volume24hr, 0) > 0 AS active
      FROM polymarket.markets_latest FINAL
      WHERE sync_timestamp = {ts:DateTime64(3, 'UTC')} AND closed = false AND coalesce(active, true)
        AND coalesce(enableOrderBook, true) AND length(clobTokenIds) > 0
      ORDER BY coalesce(volume24hr, 0) DESC, id`,
    fetch: fetchPolymarketBooks,
  },
  live: polymarketLive,
};
