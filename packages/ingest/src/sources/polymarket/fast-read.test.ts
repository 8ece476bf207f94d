import { describe, expect, it } from "vitest";
import { fixture, fixtureLines } from "../../testing/fixtures";
import { fastReadGammaEvent, fastReadGammaMarket } from "./fast-read";
import { mapGammaEvent, mapGammaEventForWrite, mapGammaMarket } from "./map";
import { ZGammaEvent, ZGammaMarket } from "./schema";

type Json = Record<string, unknown>;
const ctx = {
  syncTimestamp: "2026-03-01 12:00:00.000",
  previous: (id: string) => (id.endsWith("2") ? { volume: 10, lastTradeTime: "2026-03-01 11:50:00.000" } : undefined),
};

/** Every Gamma object in every Polymarket fixture: events (with nested markets) and bare markets. */
function fixtureObjects(): { events: unknown[]; markets: unknown[] } {
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
const ODD_VALUES: unknown[] = [
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

function mutations(object: Json, seed: number): Json[] {
  const keys = [...Object.keys(object), "id", "tags", "series", "events", "markets", "volumeNum"];
  return keys.map((key, i) => ({ ...object, [key]: ODD_VALUES[(seed + i) % ODD_VALUES.length] }));
}

function expectSameAsZod(raw: unknown, fast: unknown, zod: { success: boolean; data?: unknown }) {
  if (zod.success) expect(fast).toStrictEqual(zod.data);
  else expect(fast, JSON.stringify(raw).slice(0, 200)).toBeUndefined();
}

describe("fast Gamma reader = zod schema", () => {
  const { events, markets } = fixtureObjects();

  it("reads every fixture market exactly as ZGammaMarket does", () => {
    expect(markets.length).toBeGreaterThan(800);
    for (const raw of markets) {
      const zod = ZGammaMarket.safeParse(raw);
      expect(zod.success).toBe(true);
      expectSameAsZod(raw, fastReadGammaMarket(raw), zod);
    }
  });

  it("reads every fixture event exactly as ZGammaEvent does", () => {
    for (const raw of events) {
      const zod = ZGammaEvent.safeParse(raw);
      expect(zod.success).toBe(true);
      expectSameAsZod(raw, fastReadGammaEvent(raw), zod);
    }
  });

  it("agrees with zod on mutated objects: same value or same rejection", () => {
    let rejected = 0;
    markets.slice(0, 40).forEach((raw, seed) => {
      for (const mutated of mutations(raw as Json, seed)) {
        const zod = ZGammaMarket.safeParse(mutated);
        if (!zod.success) rejected += 1;
        expectSameAsZod(mutated, fastReadGammaMarket(mutated), zod);
      }
    });
    events.slice(0, 25).forEach((raw, seed) => {
      for (const mutated of mutations(raw as Json, seed)) {
        const zod = ZGammaEvent.safeParse(mutated);
        if (!zod.success) rejected += 1;
        expectSameAsZod(mutated, fastReadGammaEvent(mutated), zod);
      }
    });
    for (const odd of [null, 1, "x", [], [{ id: "1" }]]) {
      expect(fastReadGammaMarket(odd)).toBeUndefined();
      expect(ZGammaMarket.safeParse(odd).success).toBe(false);
    }
    expect(rejected).toBeGreaterThan(100);
  }, 30_000);

  it("maps every fixture event to the same rows as the zod path, raw included", () => {
    for (const raw of events) {
      const reference = mapGammaEvent(raw, ctx);
      const fast = mapGammaEventForWrite(raw, ctx);
      expect(fast.rejections).toStrictEqual(reference.rejections);
      expect(fast.event && { ...fast.event, raw: JSON.stringify(fast.event.raw) }).toStrictEqual(reference.event);
      expect(fast.markets.map((row) => ({ ...row, raw: JSON.stringify(row.raw) }))).toStrictEqual(reference.markets);
    }
    for (const raw of markets) {
      const reference = mapGammaMarket(raw, "77", ctx);
      const fast = mapGammaEventForWrite({ id: "77", markets: [raw] }, ctx).markets[0];
      expect("row" in reference && { ...reference.row }).toStrictEqual(
        fast && { ...fast, raw: JSON.stringify(fast.raw) },
      );
    }
  });

  it("rejects with zod's issues when the fast reader declines an object", () => {
    const broken = { id: "9", markets: [{ question: "no id" }, { id: "10", volume: "lots" }, { id: "11" }] };
    const fast = mapGammaEventForWrite(broken, ctx);
    const reference = mapGammaEvent(broken, ctx);
    expect(fast.rejections).toStrictEqual(reference.rejections);
    expect(fast.rejections).toHaveLength(2);
    expect(fast.markets.map((row) => row.id)).toEqual(["11"]);
    expect(mapGammaEventForWrite({ title: "no id" }, ctx)).toStrictEqual({
      event: null,
      markets: [],
      rejections: mapGammaEvent({ title: "no id" }, ctx).rejections,
    });
  });
});
