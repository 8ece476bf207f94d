import { describe, expect, it } from "vitest";
import { depthRows, fillText, spreadDomain, spreadRows } from "./book-model";

describe("the book panel's model", () => {
  it("adds the sizes up away from the middle, lowest price first", () => {
    const rows = depthRows({
      bids: [
        { price: 0.48, size: 10 },
        { price: 0.47, size: 5 },
      ],
      asks: [
        { price: 0.5, size: 3 },
        { price: 0.52, size: 7 },
      ],
    });
    expect(rows).toEqual([
      { price: 0.47, bids: 15, asks: null },
      { price: 0.48, bids: 10, asks: null },
      { price: 0.5, bids: null, asks: 3 },
      { price: 0.52, bids: null, asks: 10 },
    ]);
  });

  it("gives the spread where both sides have a price", () => {
    expect(
      spreadRows({
        spread: [
          { t: "2026-11-20T12:00:00.000Z", bid: 0.47, ask: 0.5 },
          { t: "2026-11-20T12:10:00.000Z", bid: null, ask: 0.5 },
        ],
      }).map((row) => row.spread),
    ).toEqual([0.03, null]);
    expect(spreadDomain({ spread: [{ t: "x", bid: 0.84, ask: 0.97 }] })).toEqual([0.83, 0.98]);
    expect(spreadDomain({ spread: [] })).toBeUndefined();
  });

  it("says when the captured levels run out before the order fills", () => {
    expect(fillText({ usd: 100, side: "buy", price: 0.5, filled_usd: 100, complete: true })).toBe("0.500 a share");
    expect(fillText({ usd: 1000, side: "buy", price: 0.51, filled_usd: 340, complete: false })).toBe(
      "0.510 a share for $340 (the 10 levels run out)",
    );
    expect(fillText({ usd: 100, side: "sell", price: null, filled_usd: 0, complete: false })).toBe(
      "no orders on this side",
    );
  });
});
