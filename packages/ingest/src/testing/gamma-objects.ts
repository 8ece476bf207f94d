/**
 * Test helper: every Gamma object in the Polymarket fixtures, the odd values the lenient
 * readers are tested with, and a way to run objects through the engine's mapping
 * (`page-batch.ts`) and read back the rows it wrote.
 */
import type { Warehouse } from "@epicenter/warehouse";
import type { Rejection } from "../rejection";
import { EVENT_COPIED, MARKET_COPIED } from "../sources/polymarket/engine-map";
import { GammaBatchWriter } from "../sources/polymarket/page-batch";
import type { Feed } from "../write/spool";
import { fixture, fixtureLines } from "./fixtures";

export type Json = Record<string, unknown>;

/** Every Gamma object in every Polymarket fixture: events (with nested markets) and bare markets. */
export function fixtureObjects(): { events: unknown[]; markets: unknown[] } {
  const events = [
    ...fixture<unknown[]>("polymarket/events/gamma_events_active_100_nested_2025-06-24.json"),
    ...fixture<unknown[]>("polymarket/events/gamma_events_default_order_old_2021.json"),
  ];
  const nested = events.flatMap((event) => ((event as Json).markets as unknown[] | undefined) ?? []);
  const markets = [
    ...nested,
    ...fixture<unknown[]>("polymarket/markets/gamma_markets_active_2026-02-13.json"),
    ...fixture<{ markets: unknown[] }>("polymarket/markets/gamma_markets_closed_false_limit200_wrapped_2026-02-13.json")
      .markets,
    ...fixtureLines<{ raw: unknown }>("polymarket/markets/gamma_market_objects_btc5m_2026-07-24.jsonl.gz").map(
      (line) => line.raw,
    ),
  ];
  return { events, markets };
}

/** Values that trip lenient readers: every one is tried in every field of some objects. */
export const ODD_VALUES: unknown[] = [
  null,
  undefined,
  "",
  " 12.5 ",
  "abc",
  "0x10",
  "1e3",
  0,
  -1.5,
  true,
  "true",
  "false",
  "yes",
  [],
  ["a", 1],
  '["x", "y"]',
  "[not json",
  "{}",
  {},
  { id: 5 },
  "2026-01-23 20:56:36+00",
  "2026-01-23",
  "0001-01-01T00:00:00Z",
  "9999-12-31T00:00:00Z",
  1_700_000_000,
];

export function mutations(object: Json, seed: number): Json[] {
  const keys = [...Object.keys(object), "id", "tags", "series", "events", "markets", "volumeNum"];
  return keys.map((key, i) => ({ ...object, [key]: ODD_VALUES[(seed + i) % ODD_VALUES.length] }));
}

export interface EngineRows {
  events: Map<string, Json>;
  markets: Map<string, Json>;
  rejections: Rejection[];
}

/**
 * One run of `events` (in pages of `pageSize`) through the engine's mapping into the
 * snapshot tables, and the rows it wrote with `sync_timestamp`, `raw` and every mapped column.
 */
export async function mapInEngine(
  warehouse: Warehouse,
  events: unknown[],
  options: { syncTimestamp: string; feed?: Feed; pageSize?: number },
): Promise<EngineRows> {
  const rejections: Rejection[] = [];
  const pageSize = options.pageSize ?? 50;
  const batches = new GammaBatchWriter(warehouse, {
    syncTimestamp: options.syncTimestamp,
    feed: options.feed ?? "file",
    batchBytes: 256 * 1024,
    onRejection: ({ url: _url, ...rejected }) => rejections.push(rejected),
  });
  try {
    for (let i = 0; i < events.length; i += pageSize) {
      const body = new TextEncoder().encode(
        JSON.stringify({ events: events.slice(i, i + pageSize), next_cursor: null }),
      );
      await batches.add({ url: `page-${i}`, body, nextCursor: null });
    }
    await batches.flush();
  } finally {
    await batches.close();
  }
  const rows = async (table: string, columns: string[]) => {
    const selected = columns.map((name) => `\`${name}\``).join(", ");
    const found = await warehouse.query<Json>(
      `SELECT ${selected}, raw FROM ${table} WHERE sync_timestamp = {ts:DateTime64(3, 'UTC')}`,
      { params: { ts: options.syncTimestamp } },
    );
    return new Map(found.map((row) => [String(row.id), row]));
  };
  return {
    events: await rows("polymarket.events", ["sync_timestamp", ...EVENT_COPIED]),
    markets: await rows("polymarket.markets", ["sync_timestamp", ...MARKET_COPIED, "lastTradeTime"]),
    rejections,
  };
}
