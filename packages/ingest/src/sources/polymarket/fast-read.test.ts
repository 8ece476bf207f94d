import { describe, expect, it } from "vitest";
import { fixtureObjects, type Json, mutations } from "../../testing/gamma-objects";
import { fastReadGammaEvent, fastReadGammaMarket } from "./fast-read";
import { mapGammaEvent, mapGammaEventForWrite, mapGammaMarket } from "./map";
import { ZGammaEvent, ZGammaMarket } from "./schema";

const ctx = {
  syncTimestamp: "2026-03-01 12:00:00.000",
  previous: (id: string) => (id.endsWith("2") ? { volume: 10, lastTradeTime: "2026-03-01 11:50:00.000" } : undefined),
};

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
