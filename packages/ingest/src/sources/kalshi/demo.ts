/**
 * Kalshi's part of the demo history (`demo-history.ts`): the replay catalog's events,
 * combos left out, mapped as a snapshot maps them into the seed tables, and how its
 * numbers move from one generated step to the next.
 */
import { KalshiCatalog } from "../../replay/catalog";
import type { DemoSeed } from "../../source";
import { isComboEvent, type KalshiEventRow, type KalshiMarketRow, mapKalshiEvent } from "./map";

/** The `sync_timestamp` of seed rows; each generated step replaces it. */
const SEED_TIME = "1970-01-01 00:00:00.000";

/**
 * An active market's last price at step `n`. The moves are a `REPLACE` list, where a name
 * is the seed's column, never another move: every quote written from it says it again.
 */
const MOVED_PRICE =
  "round(greatest(0.01, least(0.99, coalesce(last_price_dollars, 0.5) + 0.06 * sin((cityHash64(ticker) % 1000) + n / 18.0))), 2)";

export const kalshiDemo: DemoSeed = {
  books: {
    yes: "coalesce(last_price_dollars, 0.5)",
    open: "status IN ('active', 'open')",
    active: "coalesce(volume_24h, 0) > 0",
  },
  moves: {
    markets: (traded) => `,
    if(status != 'active', last_price_dollars, ${MOVED_PRICE}) AS last_price_dollars,
    if(status != 'active', yes_bid_dollars, round(greatest(0, ${MOVED_PRICE} - 0.01), 4)) AS yes_bid_dollars,
    if(status != 'active', yes_ask_dollars, round(least(1, ${MOVED_PRICE} + 0.01), 4)) AS yes_ask_dollars,
    if(status != 'active', no_bid_dollars, round(greatest(0, 1 - ${MOVED_PRICE} - 0.01), 4)) AS no_bid_dollars,
    if(status != 'active', no_ask_dollars, round(least(1, 1 - ${MOVED_PRICE} + 0.01), 4)) AS no_ask_dollars,
    round(coalesce(volume, 0) * (0.7 + 0.3 * ${traded("ticker")}), 2) AS volume,
    round(coalesce(volume_24h, 0) * (0.6 + 0.4 * abs(sin(n / 24.0 + cityHash64(ticker) % 7))), 2) AS volume_24h,
    round(coalesce(open_interest, 0) * (0.8 + 0.2 * (n + 1) / {steps:UInt32}), 2) AS open_interest`,
  },
  async seed(warehouse, tables, catalogOptions, fixturesDir) {
    const catalog = new KalshiCatalog(catalogOptions, fixturesDir);
    const events: KalshiEventRow[] = [];
    const markets: KalshiMarketRow[] = [];
    for (let i = 0; i < catalog.eventCount; i += 1) {
      const { event } = catalog.event(i);
      if (isComboEvent(event)) continue;
      const mapped = mapKalshiEvent(event, { syncTimestamp: SEED_TIME });
      if (mapped.event) events.push(mapped.event);
      markets.push(...mapped.markets);
    }
    await warehouse.insert(tables.events, events);
    await warehouse.insert(tables.markets, markets);
  },
};
