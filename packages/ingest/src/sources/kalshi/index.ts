/**
 * Kalshi as a `Source`: the Trade API v2 (`client.ts`), its payloads (`schema.ts`), the
 * mapping (`map.ts`), the snapshot (`sync.ts`), the closed-history backfill
 * (`backfill.ts`), the price and trade history (`history.ts`) and the demo's seed
 * (`demo.ts`).
 */
import type { Source } from "../../source";
import { historicalMarkets, settledEvents } from "./backfill";
import { fetchKalshiBooks, KALSHI_BOOK_BATCH } from "./books";
import { kalshiRateLimit } from "./client";
import { kalshiDemo } from "./demo";
import { kalshiHistory } from "./history";
import { kalshiLive } from "./live";
import { snapshotKalshi } from "./sync";

export const kalshi: Source<"kalshi"> = {
  name: "kalshi",
  tables: [
    { database: "kalshi", name: "events", key: "event_ticker" },
    { database: "kalshi", name: "markets", key: "ticker" },
  ],
  rateLimit: kalshiRateLimit,
  baseUrl: (config) => config.kalshi.apiUrl,
  snapshot: snapshotKalshi,
  backfill: [settledEvents, historicalMarkets],
  openEventsSql:
    "SELECT uniqExact(event_ticker) FROM kalshi.markets_latest FINAL WHERE status IN ('active', 'inactive', 'initialized')",
  demo: kalshiDemo,
  history: kalshiHistory,
  books: {
    // Kalshi's one token bucket, shared with the snapshot and the history; each ticker of
    // a batch is billed as a request.
    host: { name: "kalshi", rateLimit: kalshiRateLimit, baseUrl: (config) => config.kalshi.apiUrl },
    batch: KALSHI_BOOK_BATCH,
    costPerMarket: 1,
    budgetShare: 0.4,
    targetsSql: `SELECT ticker AS market, ticker AS book_id, coalesce(volume_24h, 0) > 0 AS active
      FROM kalshi.markets_latest FINAL
      WHERE sync_timestamp = {ts:DateTime64(3, 'UTC')} AND status IN ('active', 'open')
      ORDER BY coalesce(volume_24h, 0) DESC, ticker`,
    fetch: fetchKalshiBooks,
  },
  live: kalshiLive,
};
