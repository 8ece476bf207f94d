/**
 * Generated snapshot history for the demo, so the spec's 1-day and 7-day sample queries
 * have data on a machine that has never synced for a week.
 *
 * The catalog is the replay server's (the recorded fixtures, optionally grown), mapped by
 * the real mappers into a seed table once; the history is then made inside the engine
 * with one `INSERT … SELECT` per table over `seed × numbers(steps)`, each step a
 * `sync_timestamp` 10 minutes apart ending before now, with prices wandering
 * deterministically per market, cumulative volumes growing, and `lastTradeTime` inside
 * the step's 10 minutes. Closed markets keep their final prices. `raw` is the seed's
 * recorded object (the moved numbers live in the typed columns). The last step is copied
 * into the latest-state tables, where any newer real snapshot still wins.
 */
import { toDateTime64, type Warehouse } from "@epicenter/warehouse";
import { type CatalogOptions, DEFAULT_FIXTURES_DIR, KalshiCatalog, PolymarketCatalog } from "./replay/catalog";
import { isComboEvent, mapKalshiEvent } from "./sources/kalshi/map";
import { mapGammaEvent } from "./sources/polymarket/map";
import { LATEST_COLUMNS, SOURCE_TABLES } from "./sync/run-history";

export interface DemoHistoryOptions {
  days?: number;
  intervalMinutes?: number;
  /** Markets per venue; the recorded catalog when absent. */
  catalogSize?: number;
  now?: number;
  fixturesDir?: string;
}

export interface DemoHistoryResult {
  steps: number;
  from: string;
  to: string;
  rows: Record<string, number>;
}

const SEED_TIME = "1970-01-01 00:00:00.000";

/**
 * The share of a market's final cumulative volume reached by step `n`, from 0 to 1 and
 * never falling. Trading follows a daily cycle (busy and quiet hours, 144 steps a day)
 * whose depth varies by market, and each market trades only every `k` steps (1 to 24,
 * fixed per market), so hourly volume and the number of markets traded both move the way
 * real ones do instead of growing in a straight line.
 */
function tradedShare(key: string): string {
  const k = `(1 + cityHash64(${key}, 'cadence') % 24)`;
  const q = `(intDiv(n, ${k}) * ${k})`;
  const depth = `(0.5 + (cityHash64(${key}, 'depth') % 50) / 100)`;
  // d/dq [q - 22.92 * depth * sin(2πq/144)] = 1 - depth * cos(…) ≥ 0: monotone.
  return `greatest(0, least(1, (${q} + 1 - 22.92 * ${depth} * sin(0.04363 * ${q})) / {steps:UInt32}))`;
}

/** Column rewrites per table: `sync_timestamp` plus the moving numbers. `n` is the step. */
const MOVES: Record<string, string> = {
  "polymarket.events": "",
  "polymarket.markets": `,
    if(ifNull(closed, false), yes_probability, round(greatest(0.001, least(0.999, coalesce(yes_probability, 0.5) + 0.06 * sin((cityHash64(id) % 1000) + n / 18.0))), 3)) AS yes_probability,
    if(ifNull(closed, false) OR empty(outcomePrices), outcomePrices, [ifNull(yes_probability, 0.5), round(1 - ifNull(yes_probability, 0.5), 3)]) AS outcomePrices,
    if(ifNull(closed, false), lastTradePrice, yes_probability) AS lastTradePrice,
    if(ifNull(closed, false), bestBid, greatest(0, yes_probability - 0.005)) AS bestBid,
    if(ifNull(closed, false), bestAsk, least(1, yes_probability + 0.005)) AS bestAsk,
    round(coalesce(volume, 0) * (0.7 + 0.3 * ${tradedShare("id")}), 2) AS volume,
    round(coalesce(volume24hr, 0) * (0.6 + 0.4 * abs(sin(n / 24.0 + cityHash64(id) % 7))), 2) AS volume24hr,
    if(ifNull(closed, false) OR ifNull(volume, 0) = 0, lastTradeTime, ts - toIntervalSecond(cityHash64(id, n) % 600)) AS lastTradeTime`,
  "kalshi.events": "",
  "kalshi.markets": `,
    if(status != 'active', last_price_dollars, round(greatest(0.01, least(0.99, coalesce(last_price_dollars, 0.5) + 0.06 * sin((cityHash64(ticker) % 1000) + n / 18.0))), 2)) AS last_price_dollars,
    if(status != 'active', yes_bid_dollars, greatest(0, last_price_dollars - 0.01)) AS yes_bid_dollars,
    if(status != 'active', yes_ask_dollars, least(1, last_price_dollars + 0.01)) AS yes_ask_dollars,
    if(status != 'active', no_bid_dollars, greatest(0, 1 - last_price_dollars - 0.01)) AS no_bid_dollars,
    if(status != 'active', no_ask_dollars, least(1, 1 - last_price_dollars + 0.01)) AS no_ask_dollars,
    round(coalesce(volume, 0) * (0.7 + 0.3 * ${tradedShare("ticker")}), 2) AS volume,
    round(coalesce(volume_24h, 0) * (0.6 + 0.4 * abs(sin(n / 24.0 + cityHash64(ticker) % 7))), 2) AS volume_24h,
    round(coalesce(open_interest, 0) * (0.8 + 0.2 * (n + 1) / {steps:UInt32}), 2) AS open_interest`,
};

export async function generateDemoHistory(
  warehouse: Warehouse,
  options: DemoHistoryOptions = {},
): Promise<DemoHistoryResult> {
  const intervalMs = (options.intervalMinutes ?? 10) * 60_000;
  const steps = Math.ceil(((options.days ?? 7) * 24 * 60 * 60_000) / intervalMs);
  const now = options.now ?? Date.now();
  const last = Math.floor(now / intervalMs) * intervalMs - intervalMs;
  const first = last - (steps - 1) * intervalMs;
  const catalog: CatalogOptions = {
    now: () => now,
    ...(options.catalogSize ? { catalogSize: options.catalogSize } : {}),
  };
  const fixturesDir = options.fixturesDir ?? DEFAULT_FIXTURES_DIR;

  const seeds = seedRows(catalog, fixturesDir);
  const rows: Record<string, number> = {};
  for (const source of ["polymarket", "kalshi"] as const) {
    for (const table of SOURCE_TABLES[source]) {
      const target = `${table.database}.${table.name}`;
      const seed = `internal.demo_seed_${table.database}_${table.name}`;
      await warehouse.command(`DROP TABLE IF EXISTS ${seed}`);
      await warehouse.command(`CREATE TABLE ${seed} AS ${target} ENGINE = Memory`);
      try {
        await warehouse.insert(seed, seeds[target] ?? []);
        await warehouse.command(
          `INSERT INTO ${target}
           SELECT s.* REPLACE (ts AS sync_timestamp${MOVES[target] ?? ""})
           FROM ${seed} AS s
           CROSS JOIN (SELECT number AS n, fromUnixTimestamp64Milli(toInt64({first:Int64} + number * {interval:Int64}), 'UTC') AS ts
                       FROM numbers({steps:UInt32})) AS g`,
          { params: { first, interval: intervalMs, steps } },
        );
        await warehouse.command(
          `INSERT INTO ${target}_latest SELECT ${LATEST_COLUMNS} FROM ${target} WHERE sync_timestamp = {last:DateTime64(3, 'UTC')}`,
          { params: { last: toDateTime64(last) } },
        );
        rows[target] = (seeds[target]?.length ?? 0) * steps;
      } finally {
        await warehouse.command(`DROP TABLE IF EXISTS ${seed}`);
      }
    }
  }
  return { steps, from: toDateTime64(first), to: toDateTime64(last), rows };
}

function seedRows(catalog: CatalogOptions, fixturesDir: string): Record<string, object[]> {
  const seeds: Record<string, object[]> = {
    "polymarket.events": [],
    "polymarket.markets": [],
    "kalshi.events": [],
    "kalshi.markets": [],
  };
  const polymarket = new PolymarketCatalog(catalog, fixturesDir);
  for (let i = 0; i < polymarket.eventCount; i += 1) {
    const mapped = mapGammaEvent(polymarket.event(i), { syncTimestamp: SEED_TIME });
    if (mapped.event) seeds["polymarket.events"]?.push(mapped.event);
    seeds["polymarket.markets"]?.push(...mapped.markets);
  }
  const kalshi = new KalshiCatalog(catalog, fixturesDir);
  for (let i = 0; i < kalshi.eventCount; i += 1) {
    const { event } = kalshi.event(i);
    if (isComboEvent(event)) continue;
    const mapped = mapKalshiEvent(event, { syncTimestamp: SEED_TIME });
    if (mapped.event) seeds["kalshi.events"]?.push(mapped.event);
    seeds["kalshi.markets"]?.push(...mapped.markets);
  }
  return seeds;
}
