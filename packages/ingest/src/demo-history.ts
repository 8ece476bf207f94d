/**
 * Generated snapshot history for the demo, so the spec's 1-day and 7-day sample queries
 * have data on a machine that has never synced for a week.
 *
 * The catalog is the replay server's (the recorded fixtures, optionally grown), mapped by
 * each source's own mapping into seed tables once (`Source.demo.seed`); the history is
 * then made inside the engine with one `INSERT … SELECT` per table over
 * `seed × numbers(steps)`, each step a `sync_timestamp` 10 minutes apart ending before
 * now, with prices wandering deterministically per market, cumulative volumes growing,
 * and `lastTradeTime` inside the step's 10 minutes (each source's `demo.moves`). Closed
 * markets keep their final prices. `raw` is the seed's
 * recorded object (the moved numbers live in the typed columns). The last step is copied
 * into the latest-state tables, where any newer real snapshot still wins, and the markets
 * settled in them are derived into the resolutions ledger.
 */
import { BOOK_DEPTH, toDateTime64, type Warehouse } from "@epicenter/warehouse";
import { type CatalogOptions, DEFAULT_FIXTURES_DIR } from "./replay/catalog";
import type { Source } from "./source";
import { SOURCE_LIST } from "./sources";
import { rebuildResolutions } from "./sync/resolutions";
import { LATEST_COLUMNS } from "./sync/run-history";

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

/**
 * Two insert streams, and the views of each block pushed in parallel: without them a
 * week's copy runs on one core (measured on 2 cores: 49.5 s → 32.7 s for the recorded
 * catalog's 1.4 million rows).
 */
const INSERT_SETTINGS = { max_insert_threads: "2", parallel_view_processing: 1 } as const;

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

  const rows: Record<string, number> = {};
  for (const source of SOURCE_LIST) {
    const seeds = Object.fromEntries(
      source.tables.map((table) => [table.name, `internal.demo_seed_${table.database}_${table.name}`]),
    ) as Record<"events" | "markets", string>;
    try {
      for (const table of source.tables) {
        const seed = seeds[table.name];
        await warehouse.command(`DROP TABLE IF EXISTS ${seed}`);
        await warehouse.command(`CREATE TABLE ${seed} AS ${table.database}.${table.name} ENGINE = Memory`);
      }
      await source.demo.seed(warehouse, seeds, catalog, fixturesDir);
      for (const table of source.tables) {
        const target = `${table.database}.${table.name}`;
        const seed = seeds[table.name];
        const moves = source.demo.moves[table.name]?.(tradedShare) ?? "";
        await warehouse.command(
          `INSERT INTO ${target}
           SELECT s.* REPLACE (ts AS sync_timestamp${moves})
           FROM ${seed} AS s
           CROSS JOIN (SELECT number AS n, fromUnixTimestamp64Milli(toInt64({first:Int64} + number * {interval:Int64}), 'UTC') AS ts
                       FROM numbers({steps:UInt32})) AS g`,
          { params: { first, interval: intervalMs, steps }, settings: INSERT_SETTINGS },
        );
        await warehouse.command(
          `INSERT INTO ${target}_latest SELECT ${LATEST_COLUMNS} FROM ${target} WHERE sync_timestamp = {last:DateTime64(3, 'UTC')}`,
          { params: { last: toDateTime64(last) } },
        );
        const [seeded] = await warehouse.query<{ n: string }>(`SELECT count() AS n FROM ${seed}`);
        rows[target] = Number(seeded?.n ?? 0) * steps;
      }
    } finally {
      for (const seed of Object.values(seeds)) await warehouse.command(`DROP TABLE IF EXISTS ${seed}`);
    }
    rows[`${source.name}.books`] = await generateBooks(warehouse, source, first, last);
  }
  // The markets these snapshots show settled, in the resolutions ledger as a sync run would put them.
  await rebuildResolutions(warehouse);
  return { steps, from: toDateTime64(first), to: toDateTime64(last), rows };
}

/**
 * Order books for the generated snapshots, as the capture would have taken them: around
 * each open market's Yes price, one level a cent, up to 15 levels a side cut to the 10
 * kept, some empty and some one-sided (the replay's mix, `replay/books.ts`); traded
 * markets every step, quiet ones in one step of six (`sync/books.ts`).
 */
async function generateBooks(warehouse: Warehouse, source: Source, first: number, last: number): Promise<number> {
  const key = source.tables.find((table) => table.name === "markets")?.key ?? "id";
  const { yes, open, active } = source.demo.books;
  const sizes = (prices: string, side: number) =>
    `arrayMap(k -> round(5 + (cityHash64(${key}, sync_timestamp, k * 2 + ${side}) % 200000) / 100, 2), arrayEnumerate(${prices}))`;
  await warehouse.command(
    `INSERT INTO ${source.name}.books (sync_timestamp, ${key}, book_timestamp, state, bid_price, bid_size, ask_price, ask_size)
     SELECT sync_timestamp, ${key}, NULL, if(traded, 'active', 'hourly'),
            arrayMap(k -> toDecimal32((mid - k) / 100, 4), range(1, least(depth, mid - 1, ${BOOK_DEPTH}) + 1)) AS bids,
            ${sizes("bids", 0)},
            if(h % 7 = 5, [], arrayMap(k -> toDecimal32((mid + k) / 100, 4), range(1, least(depth, 99 - mid, ${BOOK_DEPTH}) + 1))) AS asks,
            ${sizes("asks", 1)}
     FROM (
       SELECT sync_timestamp, ${key}, ${active} AS traded, cityHash64(${key}) AS h,
              toInt32(least(97, greatest(3, round(${yes} * 100)))) AS mid,
              if(h % 11 = 3, 0, toInt32(h % 15) + 1) AS depth
       FROM ${source.name}.markets
       WHERE sync_timestamp BETWEEN {first:DateTime64(3, 'UTC')} AND {last:DateTime64(3, 'UTC')} AND ${open}
     )
     WHERE traded OR intDiv(toUnixTimestamp(sync_timestamp), 600) % 6 = h % 6`,
    { params: { first: toDateTime64(first), last: toDateTime64(last) } },
  );
  const [row] = await warehouse.query<{ n: string }>(`SELECT count() AS n FROM ${source.name}.books`);
  return Number(row?.n ?? 0);
}
