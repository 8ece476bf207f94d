import { describe, expect, it } from "vitest";
import type { Book } from "../../books";
import type { PageFetcher } from "../../http/fetch-page";
import { fixture } from "../../testing/fixtures";
import { fetchPolymarketBooks, readPolymarketBook } from "./books";

const summaries = fixture<Array<Record<string, unknown>>>("polymarket/books/books.json");
const read = (index: number) => readPolymarketBook("m", summaries[index]) as Book;

describe("Polymarket order books", () => {
  it("sorts the CLOB's worst-first levels best first and reads its millisecond timestamp", () => {
    expect(read(0)).toEqual({
      market: "m",
      bookTimestamp: 1763738401234,
      bids: [
        { price: 0.48, size: 30 },
        { price: 0.47, size: 1024.33 },
        { price: 0.45, size: 120.5 },
        { price: 0.01, size: 25000 },
      ],
      asks: [
        { price: 0.5, size: 210.12 },
        { price: 0.52, size: 88 },
        { price: 0.99, size: 5000 },
      ],
    });
  });

  it("keeps a one-sided book at a 0.001 tick, with an ISO timestamp", () => {
    expect(read(1)).toEqual({
      market: "m",
      bookTimestamp: Date.parse("2026-02-13T10:00:00.123Z"),
      bids: [],
      asks: [
        { price: 0.998, size: 2 },
        { price: 0.999, size: 10 },
      ],
    });
  });

  it("keeps the ten best of fourteen levels, drops levels that cannot rest, reads seconds", () => {
    const book = read(2);
    expect(book.bookTimestamp).toBe(1763738401000);
    expect(book.asks).toEqual([]);
    expect(book.bids.map((level) => level.price)).toEqual([0.41, 0.4, 0.39, 0.38, 0.37, 0.36, 0.35, 0.34, 0.33, 0.32]);
  });

  it("posts the token ids and counts a token the answer leaves out as failed", async () => {
    const bodies: unknown[] = [];
    const fetchPage = (async (request: { url: string; body: unknown }, envelope: { parse(v: unknown): unknown }) => {
      bodies.push(request);
      return envelope.parse(summaries);
    }) as unknown as PageFetcher;
    const targets = [
      { market: "1", bookId: String(summaries[0]?.asset_id) },
      { market: "2", bookId: "404" },
    ];
    const answer = await fetchPolymarketBooks({ fetchPage, baseUrl: "https://clob/" }, targets);
    expect(bodies).toEqual([
      { url: "https://clob/books", body: [{ token_id: targets[0]?.bookId }, { token_id: "404" }] },
    ]);
    expect(answer.books.map((book) => book.market)).toEqual(["1"]);
    expect(answer.failed).toEqual([targets[1]]);
  });
});
