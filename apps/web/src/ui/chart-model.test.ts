import { describe, expect, it } from "vitest";
import { isLastBucketPartial, rightAxisSeries } from "./chart-model";

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
