/**
 * `raw` must give back the upstream object, whichever way its bytes reach the engine
 * (`spool.ts`: a spooled file, or a streamed body). Polymarket's `raw` is the object's own
 * text, cut from the page by the engine's mapping; Kalshi's is JSON text the mapper made,
 * written by the row writer. For every object of every fixture, what the warehouse returns
 * parses to the object that came in (an event without its nested markets).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mapKalshiEvent } from "../sources/kalshi/map";
import { fixture } from "../testing/fixtures";
import { fixtureObjects, type Json, mapInEngine } from "../testing/gamma-objects";
import { type Harness, startHarness } from "../testing/harness";
import { DEFAULT_WRITER_LIMITS, SnapshotWriter } from "./snapshot-writer";

// Escapes, unicode and a line separator, in text and in a nested object.
const TRICKY = 'quote " backslash \\ tab \t nl \n é 💥 \u2028';

function withoutMarkets(object: Json): Json {
  const { markets: _nested, ...rest } = object;
  return rest;
}

describe("raw round-trips", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  for (const [feed, syncTimestamp] of [
    ["file", "2026-03-01 12:00:00.000"],
    ["stream", "2026-03-01 12:10:00.000"],
  ] as const) {
    it(`keeps every Polymarket fixture object as sent (${feed})`, async () => {
      const { events, markets } = fixtureObjects();
      const seen = new Set((events as Json[]).flatMap((event) => (event.markets as Json[]).map((m) => String(m.id))));
      const bare = (markets as Json[]).filter((market) => !seen.has(String(market.id)) && seen.add(String(market.id)));
      const tricky = { id: "900001", question: TRICKY, nested: { a: [1, null], text: TRICKY } };
      const all = [...(events as Json[]), { id: "900000", title: TRICKY, markets: [...bare, tricky] }];
      const rows = await mapInEngine(h.warehouse, all, { syncTimestamp, feed });
      expect(rows.rejections).toEqual([]);

      expect(rows.markets.size).toBeGreaterThan(700);
      for (const event of all) {
        expect(JSON.parse(String(rows.events.get(String(event.id))?.raw))).toStrictEqual(withoutMarkets(event));
        for (const market of event.markets as Json[]) {
          expect(JSON.parse(String(rows.markets.get(String(market.id))?.raw))).toStrictEqual(market);
        }
      }
      expect(rows.markets.get("900001")?.question).toBe(TRICKY);
      expect(rows.markets.get("3047949")).toMatchObject({
        outcomes: ["Up", "Down"],
        feeType: "crypto_fees_v2",
        closedTime: "2026-07-24 00:00:16.000",
      });
    }, 60_000);

    it(`keeps every Kalshi fixture object as sent through the row writer (${feed})`, async () => {
      const events = fixture<Json[]>("kalshi/events/events_nested_iran_38ev_763mkts_2026-03-01.json");
      const tricky = { ...(events[0] as Json), event_ticker: "TRICKY-1", title: TRICKY, markets: [] };
      const writer = new SnapshotWriter(
        h.warehouse,
        { ...DEFAULT_WRITER_LIMITS, maxRows: 97, maxBytes: 1 << 20 },
        feed,
      );
      const expectedEvents = new Map<string, unknown>();
      const expectedMarkets = new Map<string, unknown>();
      for (const raw of [...events, tricky]) {
        const mapped = mapKalshiEvent(raw, { syncTimestamp });
        if (!mapped.event) throw new Error("event rejected");
        if (await writer.add("kalshi.events", mapped.event.event_ticker, mapped.event))
          expectedEvents.set(mapped.event.event_ticker, withoutMarkets(raw));
        for (const market of mapped.markets) {
          const source = (raw.markets as Json[]).find((m) => m.ticker === market.ticker);
          if (await writer.add("kalshi.markets", market.ticker, market)) expectedMarkets.set(market.ticker, source);
        }
      }
      // A row may also carry `raw` as the object itself, stored as its text.
      const inline = { ...(events[1] as Json), event_ticker: "INLINE-1", title: TRICKY };
      const row = mapKalshiEvent(inline, { syncTimestamp }).event;
      if (!row) throw new Error("event rejected");
      await writer.add("kalshi.events", "INLINE-1", { ...row, raw: withoutMarkets(inline) });
      expectedEvents.set("INLINE-1", withoutMarkets(inline));
      await writer.flush();

      const read = (table: string, key: string) =>
        h.warehouse.query<{ key: string; raw: string }>(
          `SELECT ${key} AS key, raw FROM ${table} WHERE sync_timestamp = {ts:DateTime64(3, 'UTC')}`,
          { params: { ts: syncTimestamp } },
        );
      const storedMarkets = await read("kalshi.markets", "ticker");
      expect(storedMarkets).toHaveLength(expectedMarkets.size);
      expect(expectedMarkets.size).toBeGreaterThan(700);
      for (const stored of storedMarkets) expect(JSON.parse(stored.raw)).toStrictEqual(expectedMarkets.get(stored.key));
      const storedEvents = await read("kalshi.events", "event_ticker");
      expect(storedEvents).toHaveLength(expectedEvents.size);
      for (const stored of storedEvents) expect(JSON.parse(stored.raw)).toStrictEqual(expectedEvents.get(stored.key));
    }, 60_000);
  }
});
