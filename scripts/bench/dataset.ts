/**
 * The benchmark's archive: the demo dataset of `generateDemoHistory`, grown to the asked
 * number of market-snapshot rows.
 *
 * Why the demo generator rather than a second one: issue 5's figures are defined "on the
 * demo dataset grown to at least 20 million market-snapshot rows", and the demo generator
 * already does the expensive part inside the engine. The replay catalog (the recorded
 * Polymarket and Kalshi fixtures, cloned under new ids) is mapped by the real mappers into
 * a seed table once; the history is then one `INSERT … SELECT` per table over
 * `seed × numbers(steps)`, 10-minute steps over `days` up to now, so the 1-day and 7-day
 * sample queries have data. Prices wander per market, cumulative volumes grow in a daily
 * cycle, and closed markets keep their final prices; statuses, the many zero-volume
 * Kalshi markets, categories and regions (keywords in the questions) and every column's
 * shape come from the recorded objects. The last step is copied into the `*_latest`
 * tables, so they are consistent with the snapshots.
 *
 * `max_insert_threads = 2` on this handle only (the generator's own connections) roughly
 * halves the time on two cores; nothing else uses these connections.
 */
import { generateDemoHistory } from "@epicenter/ingest";
import { migrateWarehouse, openWarehouse, type Warehouse } from "@epicenter/warehouse";
import { categoryExpression } from "../../apps/server/src/services/queries/examples";

export interface DatasetOptions {
  /** Market-snapshot rows wanted (both venues together); the result has at least this many. */
  rows: number;
  days: number;
  warehousePath: string;
}

export interface DatasetProfile {
  steps: number;
  from: string;
  to: string;
  catalogSizePerVenue: number;
  generateMs: number;
  tables: Array<{ table: string; rows: number; bytesOnDisk: number; uncompressedBytes: number; parts: number }>;
  marketSnapshotRows: number;
  polymarketMarkets: number;
  kalshiMarkets: number;
  polymarketOpenShare: number;
  polymarketZeroVolumeShare: number;
  kalshiStatuses: Array<{ status: string; markets: number }>;
  kalshiZeroVolumeShare: number;
  categories: Array<{ category: string; markets: number }>;
  /** The most traded open Polymarket market: the point lookup's subject. */
  lookupId: string;
}

const INTERVAL_MINUTES = 10;

export async function generateDataset(options: DatasetOptions): Promise<DatasetProfile> {
  const steps = Math.ceil((options.days * 24 * 60) / INTERVAL_MINUTES);
  // Both venues grow to the same size; the catalog rounds up to whole recorded events.
  const catalogSizePerVenue = Math.ceil(options.rows / steps / 2);
  const warehouse = openWarehouse({
    path: options.warehousePath,
    poolSize: 2,
    settings: { max_insert_threads: "2" },
  });
  try {
    await migrateWarehouse(warehouse);
    const started = performance.now();
    const history = await generateDemoHistory(warehouse, {
      catalogSize: catalogSizePerVenue,
      days: options.days,
      intervalMinutes: INTERVAL_MINUTES,
    });
    const generateMs = performance.now() - started;
    return {
      ...(await profile(warehouse)),
      steps,
      from: history.from,
      to: history.to,
      catalogSizePerVenue,
      generateMs,
    };
  } finally {
    await warehouse.close();
  }
}

/** What the archive holds, measured rather than assumed. */
export async function profile(
  warehouse: Warehouse,
): Promise<Omit<DatasetProfile, "steps" | "from" | "to" | "catalogSizePerVenue" | "generateMs">> {
  const tables = await warehouse.query<{ table: string; rows: string; bytes: string; raw: string; parts: string }>(
    `SELECT database || '.' || table AS table, sum(rows) AS rows, sum(bytes_on_disk) AS bytes,
            sum(data_uncompressed_bytes) AS raw, count() AS parts
     FROM system.parts WHERE active AND database IN ('polymarket', 'kalshi')
     GROUP BY table ORDER BY table`,
  );
  const one = async (sql: string) => Number(Object.values((await warehouse.query(sql))[0] ?? {})[0] ?? 0);
  const kalshiStatuses = await warehouse.query<{ status: string; markets: string }>(
    "SELECT status, count() AS markets FROM kalshi.markets_latest FINAL GROUP BY status ORDER BY markets DESC",
  );
  const categories = await warehouse.query<{ category: string; markets: string }>(
    `SELECT ${categoryExpression("question")} AS category, count() AS markets
     FROM polymarket.markets_latest FINAL GROUP BY category ORDER BY markets DESC`,
  );
  const [lookup] = await warehouse.query<{ id: string }>(
    `SELECT id FROM polymarket.markets_latest FINAL WHERE NOT ifNull(closed, false)
     ORDER BY volume24hr DESC NULLS LAST, id LIMIT 1`,
  );
  const rowsOf = (name: string) => Number(tables.find((t) => t.table === name)?.rows ?? 0);
  return {
    tables: tables.map((t) => ({
      table: t.table,
      rows: Number(t.rows),
      bytesOnDisk: Number(t.bytes),
      uncompressedBytes: Number(t.raw),
      parts: Number(t.parts),
    })),
    marketSnapshotRows: rowsOf("polymarket.markets") + rowsOf("kalshi.markets"),
    polymarketMarkets: rowsOf("polymarket.markets_latest"),
    kalshiMarkets: rowsOf("kalshi.markets_latest"),
    polymarketOpenShare: await one("SELECT avg(NOT ifNull(closed, false)) FROM polymarket.markets_latest FINAL"),
    polymarketZeroVolumeShare: await one("SELECT avg(ifNull(volume, 0) = 0) FROM polymarket.markets_latest FINAL"),
    kalshiStatuses: kalshiStatuses.map((s) => ({ status: s.status, markets: Number(s.markets) })),
    kalshiZeroVolumeShare: await one("SELECT avg(ifNull(volume, 0) = 0) FROM kalshi.markets_latest FINAL"),
    categories: categories.map((c) => ({ category: c.category, markets: Number(c.markets) })),
    lookupId: lookup?.id ?? "",
  };
}
