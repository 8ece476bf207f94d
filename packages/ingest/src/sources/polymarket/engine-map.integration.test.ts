/**
 * The engine's mapping (`engine-map.ts`, run by `page-batch.ts`) against the JavaScript
 * mapping (`map.ts`, the zod schemas' contract): the same rows, column for column, for every
 * Gamma object in the fixtures and for objects carrying the odd values the lenient readers
 * are tested with; the same objects rejected. The few documented differences are listed
 * in `KNOWN_DIFFERENCES`; objects that fall under one are left out of the comparison.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrateWarehouse, openWarehouse, type Warehouse } from "@epicenter/warehouse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Rejection } from "../../rejection";
import { fixtureObjects, type Json, mutations } from "../../testing/gamma-objects";
import { EVENT_COPIED, MARKET_COPIED, MARKET_READERS } from "./engine-map";
import { mapGammaEvent, type PolymarketEventRow, type PolymarketMarketRow } from "./map";
import { GammaBatchWriter } from "./page-batch";
import { loadPreviousMarketState } from "./sync";

let dir: string;
let warehouse: Warehouse;
let run = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "epicenter-engine-map-"));
  warehouse = openWarehouse({ path: join(dir, "warehouse"), poolSize: 2 });
  await migrateWarehouse(warehouse);
});

afterAll(async () => {
  await warehouse?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Mapped {
  events: Map<string, Json>;
  markets: Map<string, Json>;
  rejections: Rejection[];
}

/** One run of `events` (in pages of 50) through the engine, and the rows it wrote. */
async function mapInEngine(events: unknown[], syncTimestamp: string): Promise<Mapped> {
  const rejections: Rejection[] = [];
  const batches = new GammaBatchWriter(warehouse, {
    syncTimestamp,
    batchBytes: 256 * 1024,
    onRejection: ({ url: _url, ...rejected }) => rejections.push(rejected),
  });
  try {
    for (let i = 0; i < events.length; i += 50) {
      const body = new TextEncoder().encode(JSON.stringify({ events: events.slice(i, i + 50), next_cursor: null }));
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
      { params: { ts: syncTimestamp } },
    );
    return new Map(found.map((row) => [String(row.id), row]));
  };
  return {
    events: await rows("polymarket.events", ["sync_timestamp", ...EVENT_COPIED]),
    markets: await rows("polymarket.markets", ["sync_timestamp", ...MARKET_COPIED, "lastTradeTime"]),
    rejections,
  };
}

/** The JavaScript mapping of the same events, with the previous state the engine saw. */
async function mapInJavaScript(events: unknown[], syncTimestamp: string) {
  const previous = await loadPreviousMarketState(warehouse);
  const ctx = { syncTimestamp, previous: (id: string) => previous.get(id) };
  const rows = {
    events: [] as PolymarketEventRow[],
    markets: [] as PolymarketMarketRow[],
    rejections: [] as Rejection[],
  };
  for (const raw of events) {
    const mapped = mapGammaEvent(raw, ctx);
    if (mapped.event) rows.events.push(mapped.event);
    rows.markets.push(...mapped.markets);
    rows.rejections.push(...mapped.rejections);
  }
  return rows;
}

const nextTimestamp = () => {
  run += 1;
  return `2026-03-0${run} 12:00:00.000`;
};

/** A row as stored: `raw` as the object it holds. */
function comparable(row: Json): Json {
  const { raw, ...columns } = row;
  return { ...columns, raw: typeof raw === "string" ? JSON.parse(raw) : raw };
}

function expectSameRows(engine: Mapped, javascript: Awaited<ReturnType<typeof mapInJavaScript>>) {
  // Which objects were rejected shows in the rows compared below; keys of objects without a
  // usable id are spelled differently (JavaScript's String() of whatever the field held).
  const kinds = (rejections: Rejection[]) => rejections.map((r) => r.kind).sort();
  expect(kinds(engine.rejections)).toEqual(kinds(javascript.rejections));
  expect(engine.events.size).toBe(javascript.events.length);
  expect(engine.markets.size).toBe(javascript.markets.length);
  for (const event of javascript.events) {
    expect(comparable(engine.events.get(event.id) as Json), `event ${event.id}`).toEqual(comparable(event as never));
  }
  for (const market of javascript.markets) {
    expect(comparable(engine.markets.get(market.id) as Json), `market ${market.id}`).toEqual(
      comparable(market as never),
    );
  }
}

/** Gamma's bare markets (`/markets` fixtures), each under an event of its own. */
function asEvents(markets: unknown[], prefix: string): Json[] {
  return markets.map((market, i) => ({ id: `${prefix}-${i}`, title: "wrapper", markets: [market] }));
}

/**
 * Where the two mappings are allowed to differ, each with the reason (`engine-map.ts`):
 * the engine sees every field as text, so a value's JSON type is lost where its text is
 * the same ("12" and 12), and `Number()` reads hexadecimal where the engine does not.
 */
const KNOWN_DIFFERENCES: Array<{ why: string; applies: (field: string, value: unknown) => boolean }> = [
  {
    why: "a text field holding a list or object keeps its JSON text instead of being rejected",
    applies: (field, value) =>
      (field === "id" || MARKET_READERS[field]?.kind === "text" || TEXT_EVENT_FIELDS.has(field)) &&
      typeof value === "object" &&
      value !== null,
  },
  {
    why: "an id sent as true or false is read as the text 'true'/'false'",
    applies: (field, value) => field === "id" && typeof value === "boolean",
  },
  { why: "Number() reads hexadecimal text, the engine does not", applies: (_field, value) => value === "0x10" },
  {
    why: "a time sent as numeric text is read as Unix seconds (JavaScript reads only JSON numbers so)",
    applies: (field, value) =>
      TIME_FIELDS.has(field) && typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)),
  },
];

const TEXT_EVENT_FIELDS = new Set([
  "ticker",
  "slug",
  "title",
  "description",
  "resolutionSource",
  "category",
  "seriesSlug",
]);
const TIME_FIELDS = new Set([
  "startDate",
  "endDate",
  "createdAt",
  "updatedAt",
  "closedTime",
  "gameStartTime",
  "acceptingOrdersTimestamp",
  "creationDate",
]);

describe("the engine's Gamma mapping", () => {
  const { events, markets } = fixtureObjects();
  // Some markets are in several fixtures; a run stores a key once, so each is taken once.
  const nested = new Set(events.flatMap((event) => ((event as Json).markets as Json[]).map((m) => String(m.id))));
  const bare = markets.filter((market) => {
    const id = String((market as Json).id);
    if (nested.has(id)) return false;
    nested.add(id);
    return true;
  });
  const recorded = [...events, ...asEvents(bare, "bare")];

  it("writes every fixture object as the JavaScript mapping does, and derives lastTradeTime alike", async () => {
    const first = nextTimestamp();
    const javascript = await mapInJavaScript(recorded, first);
    expectSameRows(await mapInEngine(recorded, first), javascript);
    expect(javascript.markets.length).toBeGreaterThan(700);

    // A second snapshot where every other market traded: lastTradeTime comes from the first.
    const traded = recorded.map((event) => ({
      ...(event as Json),
      markets: ((event as Json).markets as Json[] | undefined)?.map((market, i) =>
        i % 2 === 0 ? { ...market, volumeNum: Number(market.volumeNum ?? market.volume ?? 0) + 100 } : market,
      ),
    }));
    const second = nextTimestamp();
    const javascriptSecond = await mapInJavaScript(traded, second);
    expect(javascriptSecond.markets.some((market) => market.lastTradeTime === second)).toBe(true);
    expectSameRows(await mapInEngine(traded, second), javascriptSecond);
  }, 60_000);

  it("agrees on odd values: the same value or the same rejection, but for the listed differences", async () => {
    const differing = new Set<string>();
    // An odd id is tried once: a second object with the same id would be the same key twice.
    const oddIds = new Set<string>();
    const fresh = (field: string, value: unknown) => {
      if (field !== "id") return true;
      const text = JSON.stringify(value) ?? "undefined";
      if (oddIds.has(text)) return false;
      oddIds.add(text);
      return true;
    };
    const mutatedEvents: Json[] = [];
    const baseEvents = events.slice(0, 20) as Json[];
    baseEvents.forEach((base, seed) => {
      mutations(base, seed).forEach((mutated, i) => {
        const field = Object.keys(mutated).find((key) => mutated[key] !== base[key]) ?? "";
        const id = field === "id" ? mutated.id : `event-${seed}-${i}`;
        const event = {
          ...mutated,
          id,
          markets: [{ ...((base.markets as Json[])[0] as Json), id: `of-${seed}-${i}` }],
        };
        if (KNOWN_DIFFERENCES.some((d) => d.applies(field, mutated[field]))) differing.add(`event ${field}`);
        else if (fresh(field, mutated[field])) mutatedEvents.push(event);
      });
    });
    (markets.slice(0, 40) as Json[]).forEach((base, seed) => {
      mutations(base, seed).forEach((mutated, i) => {
        const field = Object.keys(mutated).find((key) => mutated[key] !== base[key]) ?? "";
        const market = field === "id" ? mutated : { ...mutated, id: `m-${seed}-${i}` };
        if (KNOWN_DIFFERENCES.some((d) => d.applies(field, mutated[field]))) differing.add(`market ${field}`);
        else if (fresh(field, mutated[field])) mutatedEvents.push({ id: `holder-${seed}-${i}`, markets: [market] });
      });
    });
    const ts = nextTimestamp();
    const javascript = await mapInJavaScript(mutatedEvents, ts);
    expect(javascript.rejections.length).toBeGreaterThan(50);
    expectSameRows(await mapInEngine(mutatedEvents, ts), javascript);
    expect(differing.size).toBeGreaterThan(0);
  }, 60_000);
});
