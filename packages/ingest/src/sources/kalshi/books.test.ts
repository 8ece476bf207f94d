import { describe, expect, it } from "vitest";
import type { Book } from "../../books";
import type { PageFetcher } from "../../http/fetch-page";
import { fixture } from "../../testing/fixtures";
import { fetchKalshiBooks, readKalshiBook } from "./books";

const shapes = fixture<Record<string, unknown>>("kalshi/orderbooks/shapes.json");
const read = (name: string) => readKalshiBook("T", shapes[name]) as Book;

describe("Kalshi order books", () => {
  it("turns yes bids into bids and no bids into yes asks at 1 − p, best first", () => {
    expect(read("orderbook_fp_current")).toEqual({
      market: "T",
      bookTimestamp: null,
      bids: [
        { price: 0.036, size: 78 },
        { price: 0.034, size: 1400 },
      ],
      asks: [
        { price: 0.039, size: 3.5 },
        { price: 0.047, size: 1656.9 },
        { price: 0.05, size: 12 },
      ],
    });
  });

  it("reads the legacy integer-cent shape and the OpenAPI 3.3.0 shape with a null side", () => {
    expect(read("orderbook_legacy_cents")).toMatchObject({
      bids: [
        { price: 0.45, size: 20 },
        { price: 0.4, size: 100 },
      ],
      asks: [{ price: 0.5, size: 10 }],
    });
    expect(read("orderbook_openapi_3_3_0")).toMatchObject({ bids: [{ price: 0.15, size: 100 }], asks: [] });
    expect(read("orderbook_dollars_inside_legacy_key")).toMatchObject({
      bids: [
        { price: 0.35, size: 5 },
        { price: 0.32, size: 10 },
      ],
      asks: [
        { price: 0.42, size: 7 },
        { price: 0.46, size: 12 },
      ],
    });
  });

  it("keeps empty and one-sided books as such", () => {
    expect(read("orderbook_fp_empty_sides")).toMatchObject({ bids: [], asks: [] });
    expect(read("orderbook_fp_side_absent")).toMatchObject({ bids: [], asks: [{ price: 0.4, size: 1 }] });
  });

  it("keeps the ten best levels of a deeper, unsorted book, a price listed twice as one level", () => {
    const { bids } = read("orderbook_fp_deep_unsorted");
    expect(bids).toHaveLength(10);
    expect(bids[0]).toEqual({ price: 0.44, size: 10 });
    expect(bids.map((level) => level.price)).toEqual([0.44, 0.43, 0.42, 0.41, 0.4, 0.39, 0.38, 0.37, 0.36, 0.35]);
  });

  it("reads a batch by ticker and counts a ticker the answer leaves out as failed", async () => {
    const page = shapes.orderbooks_batch;
    const urls: string[] = [];
    const fetchPage = (async (
      request: string,
      envelope: { parse(v: unknown): unknown },
      _signal?: AbortSignal,
      cost?: number,
    ) => {
      urls.push(`${request} cost=${cost}`);
      return envelope.parse(page);
    }) as unknown as PageFetcher;
    const targets = ["KXHIGHNY-24JAN01-T60", "KXBTC15M-WINDOW", "KXNOTLISTED-1"].map((t) => ({ market: t, bookId: t }));
    const answer = await fetchKalshiBooks({ fetchPage, baseUrl: "https://api/trade-api/v2/" }, targets);
    expect(urls).toEqual([
      "https://api/trade-api/v2/markets/orderbooks?tickers=KXHIGHNY-24JAN01-T60%2CKXBTC15M-WINDOW%2CKXNOTLISTED-1&depth=10 cost=3",
    ]);
    expect(answer.books.map((book) => [book.market, book.bids[0]?.price, book.asks[0]?.price])).toEqual([
      ["KXHIGHNY-24JAN01-T60", 0.07, 0.08],
      ["KXBTC15M-WINDOW", 0.49, 0.51],
    ]);
    expect(answer.failed.map((target) => target.market)).toEqual(["KXNOTLISTED-1"]);
  });
});
