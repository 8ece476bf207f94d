/**
 * `raw` must give back the upstream object. The writer sends it inline as a JSON object
 * (Polymarket fast path) or as JSON text (Kalshi, the zod path), through the file insert
 * of `insert-lines.ts`; for every object of every Polymarket fixture, what the warehouse
 * returns parses to the object that came in (the event without its nested markets).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mapGammaEventForWrite } from "../sources/polymarket/map";
import { fixture, fixtureLines } from "../testing/fixtures";
import { type Harness, startHarness } from "../testing/harness";
import { DEFAULT_WRITER_LIMITS, SnapshotWriter } from "./snapshot-writer";

type Json = Record<string, unknown>;
const syncTimestamp = "2026-03-01 12:00:00.000";

describe("raw round-trips through the writer", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it("stores every fixture object so that JSON.parse(raw) is the upstream object", async () => {
    const events = [
      ...fixture<Json[]>("polymarket/events/gamma_events_active_100_nested_2025-06-24.json"),
      ...fixture<Json[]>("polymarket/events/gamma_events_default_order_old_2021.json"),
    ];
    const bare = [
      ...fixture<Json[]>("polymarket/markets/gamma_markets_active_2026-02-13.json"),
      ...fixture<{ markets: Json[] }>("polymarket/markets/gamma_markets_closed_false_limit200_wrapped_2026-02-13.json")
        .markets,
      ...fixtureLines<{ raw: Json }>("polymarket/markets/gamma_market_objects_btc5m_2026-07-24.jsonl.gz").map(
        (line) => line.raw,
      ),
    ];
    // Bare markets ride in synthetic events; a tricky object checks escapes and unicode.
    const tricky = {
      id: "900001",
      question: 'quote " backslash \\ tab \t nl \n é 💥 \u2028',
      nested: { a: [1, null] },
    };
    const all = [...events, { id: "900000", markets: [...bare, tricky] }];

    const writer = new SnapshotWriter(h.warehouse, { ...DEFAULT_WRITER_LIMITS, maxRows: 97, maxBytes: 1 << 20 });
    const expectedMarkets = new Map<string, unknown>();
    const expectedEvents = new Map<string, unknown>();
    for (const raw of all) {
      const mapped = mapGammaEventForWrite(raw, { syncTimestamp });
      expect(mapped.rejections).toEqual([]);
      if (!mapped.event) throw new Error("event rejected");
      const { markets: _nested, ...withoutMarkets } = raw as Json;
      if (await writer.add("polymarket.events", mapped.event.id, mapped.event))
        expectedEvents.set(mapped.event.id, withoutMarkets);
      for (const market of mapped.markets) {
        const source = ((raw as Json).markets as Json[]).find((m) => String(m.id) === market.id);
        if (await writer.add("polymarket.markets", market.id, market)) expectedMarkets.set(market.id, source);
      }
    }
    await writer.flush();

    const markets = await h.warehouse.query<{ id: string; raw: string }>(
      "SELECT id, raw FROM polymarket.markets WHERE sync_timestamp = {ts:DateTime64(3, 'UTC')}",
      { params: { ts: syncTimestamp } },
    );
    expect(markets).toHaveLength(expectedMarkets.size);
    expect(expectedMarkets.size).toBeGreaterThan(700);
    for (const row of markets) expect(JSON.parse(row.raw)).toStrictEqual(expectedMarkets.get(row.id));

    const stored = await h.warehouse.query<{ id: string; raw: string }>(
      "SELECT id, raw FROM polymarket.events WHERE sync_timestamp = {ts:DateTime64(3, 'UTC')}",
      { params: { ts: syncTimestamp } },
    );
    expect(stored).toHaveLength(expectedEvents.size);
    for (const row of stored) expect(JSON.parse(row.raw)).toStrictEqual(expectedEvents.get(row.id));

    // Typed columns next to raw are the mapped values.
    const [btc] = await h.warehouse.query<Json>(
      "SELECT outcomes, feeType, toString(closedTime) AS closedTime FROM polymarket.markets WHERE id = '3047949'",
    );
    expect(btc).toMatchObject({
      outcomes: ["Up", "Down"],
      feeType: "crypto_fees_v2",
      closedTime: "2026-07-24 00:00:16.000",
    });
  }, 60_000);
});
