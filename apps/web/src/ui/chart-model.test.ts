import { describe, expect, it } from "vitest";
import { isLastBucketPartial, MAX_SERIES, pivotSeries, rightAxisSeries } from "./chart-model";

describe("rightAxisSeries", () => {
  it("puts a series orders of magnitude apart from the first on the right axis", () => {
    const data = [
      { trades: 12, volume: 250_000, price: 0.4 },
      { trades: 30, volume: 900_000, price: 0.7 },
    ];
    expect([...rightAxisSeries(["trades", "volume"], data)]).toEqual(["volume"]);
    expect([...rightAxisSeries(["trades", "price"], data)]).toEqual(["price"]);
    expect([...rightAxisSeries(["trades", "trades"], data)]).toEqual([]);
  });

  it("puts a series in another unit on the right axis whatever its scale", () => {
    const data = [{ a: 10, b: 20 }];
    expect([...rightAxisSeries(["a", "b"], data, { a: "count", b: "usd" })]).toEqual(["b"]);
  });
});

describe("isLastBucketPartial", () => {
  const now = Date.parse("2026-11-23T10:20:00Z");

  it("finds the hour and the day still running", () => {
    expect(isLastBucketPartial(["2026-11-23 08:00:00", "2026-11-23 09:00:00", "2026-11-23 10:00:00"], now)).toBe(true);
    expect(isLastBucketPartial(["2026-11-21", "2026-11-22", "2026-11-23"], now)).toBe(true);
  });

  it("leaves finished buckets and non-time axes alone", () => {
    expect(isLastBucketPartial(["2026-11-23 08:00:00", "2026-11-23 09:00:00"], now)).toBe(false);
    expect(isLastBucketPartial(["2026-11-21", "2026-11-22"], now)).toBe(false);
    expect(isLastBucketPartial(["Politics", "Crypto"], now)).toBe(false);
  });
});

describe("pivotSeries", () => {
  it("turns rows in long form into one column per series, in order of first appearance", () => {
    const rows = [
      { hour: "10:00", pair: "Spain", gap: 0.02 },
      { hour: "10:00", pair: "Brazil", gap: 0.01 },
      { hour: "11:00", pair: "Brazil", gap: 0.015 },
      { hour: "11:00", pair: "Spain", gap: 0.03 },
      { hour: "12:00", pair: "Spain", gap: 0.025 },
    ];
    expect(pivotSeries(rows, "hour", "pair", "gap")).toEqual({
      y: ["Spain", "Brazil"],
      rows: [
        { hour: "10:00", Spain: 0.02, Brazil: 0.01 },
        { hour: "11:00", Spain: 0.03, Brazil: 0.015 },
        // Brazil has no point at 12:00: a gap in its line, not a zero.
        { hour: "12:00", Spain: 0.025 },
      ],
    });
  });

  it("draws at most as many series as the palette has colours", () => {
    const rows = Array.from({ length: MAX_SERIES + 3 }, (_, i) => ({ x: 1, name: `s${i}`, value: i }));
    const pivoted = pivotSeries(rows, "x", "name", "value");
    expect(pivoted.y).toHaveLength(MAX_SERIES);
    expect(pivoted.rows[0]).not.toHaveProperty(`s${MAX_SERIES}`);
  });
});
