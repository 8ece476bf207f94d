/**
 * Polymarket's part of the demo history (`demo-history.ts`): the replay catalog's events
 * mapped by the engine, as a snapshot maps them, into the seed tables, and how its
 * numbers move from one generated step to the next.
 */
import { PolymarketCatalog } from "../../replay/catalog";
import type { DemoSeed } from "../../source";
import { defaultFeed } from "../../write/spool";
import { POLYMARKET_PAGE_LIMIT } from "./client";
import { GammaBatchWriter } from "./page-batch";

/** The `sync_timestamp` of seed rows; each generated step replaces it. */
const SEED_TIME = "1970-01-01 00:00:00.000";

/**
 * An open market's Yes price at step `n`. The moves are a `REPLACE` list, where a name is
 * the seed's column, never another move: every price written from it says it again.
 */
const MOVED_YES =
  "round(greatest(0.001, least(0.999, coalesce(yes_probability, 0.5) + 0.06 * sin((cityHash64(id) % 1000) + n / 18.0))), 3)";

export const polymarketDemo: DemoSeed = {
  books: {
    yes: "coalesce(yes_probability, 0.5)",
    open: "NOT ifNull(closed, false) AND length(clobTokenIds) > 0",
    active: "coalesce(volume24hr, 0) > 0",
  },
  moves: {
    markets: (traded) => `,
    if(ifNull(closed, false), yes_probability, ${MOVED_YES}) AS yes_probability,
    if(ifNull(closed, false) OR empty(outcomePrices), outcomePrices, [${MOVED_YES}, round(1 - ${MOVED_YES}, 3)]) AS outcomePrices,
    if(ifNull(closed, false), lastTradePrice, ${MOVED_YES}) AS lastTradePrice,
    if(ifNull(closed, false), bestBid, round(greatest(0, ${MOVED_YES} - 0.005), 4)) AS bestBid,
    if(ifNull(closed, false), bestAsk, round(least(1, ${MOVED_YES} + 0.005), 4)) AS bestAsk,
    round(coalesce(volume, 0) * (0.7 + 0.3 * ${traded("id")}), 2) AS volume,
    round(coalesce(volume24hr, 0) * (0.6 + 0.4 * abs(sin(n / 24.0 + cityHash64(id) % 7))), 2) AS volume24hr,
    if(ifNull(closed, false) OR ifNull(volume, 0) = 0, lastTradeTime, ts - toIntervalSecond(cityHash64(id, n) % 600)) AS lastTradeTime`,
  },
  async seed(warehouse, tables, catalogOptions, fixturesDir) {
    const catalog = new PolymarketCatalog(catalogOptions, fixturesDir);
    const batches = new GammaBatchWriter(warehouse, {
      syncTimestamp: SEED_TIME,
      feed: defaultFeed(warehouse),
      targets: { events: tables.events, markets: tables.markets, latest: false, previousState: false },
      helperPrefix: "internal.demo_polymarket_",
    });
    try {
      for (let first = 0; first < catalog.eventCount; first += POLYMARKET_PAGE_LIMIT) {
        const events = [];
        for (let i = first; i < Math.min(first + POLYMARKET_PAGE_LIMIT, catalog.eventCount); i += 1) {
          events.push(catalog.event(i));
        }
        const body = new TextEncoder().encode(JSON.stringify({ events }));
        await batches.add({ url: `demo-catalog?page=${first / POLYMARKET_PAGE_LIMIT}`, body, nextCursor: null });
      }
      await batches.flush();
    } finally {
      await batches.close();
    }
  },
};
