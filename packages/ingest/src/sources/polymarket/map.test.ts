import { describe, expect, it } from "vitest";
import { fixture, fixtureLines } from "../../testing/fixtures";
import { lastTradeTime, mapGammaEvent, mapGammaMarket, type PolymarketMarketRow, yesProbability } from "./map";

const ctx = { syncTimestamp: "2026-03-01 12:00:00.000" };
type Json = Record<string, unknown>;

function marketsOf(list: unknown[], eventId = ""): PolymarketMarketRow[] {
  return list.map((raw) => {
    const mapped = mapGammaMarket(raw, eventId, ctx);
    if (!("row" in mapped)) throw new Error(mapped.rejection.reason);
    return mapped.row;
  });
}

describe("Gamma events → rows", () => {
  it("maps the 100 active events with their 291 nested markets", () => {
    const events = fixture<Json[]>("polymarket/events/gamma_events_active_100_nested_2025-06-24.json");
    const mapped = events.map((event) => mapGammaEvent(event, ctx));
    expect(mapped.flatMap((m) => m.rejections)).toEqual([]);
    expect(mapped.filter((m) => m.event)).toHaveLength(100);
    expect(mapped.flatMap((m) => m.markets)).toHaveLength(291);

    const first = mapped[0];
    expect(first?.event).toMatchObject({ id: "14205", closed: false, market_count: 1, volume24hr: 5953.361 });
    expect(first?.event?.tags).toContain("U.S. Politics");
    expect(JSON.parse(first?.event?.raw ?? "{}")).not.toHaveProperty("markets");
    const market = first?.markets[0];
    expect(market).toMatchObject({
      id: "512272",
      event_id: "14205",
      question: "Will Trump jail Hillary Clinton?",
      outcomes: ["Yes", "No"],
      outcomePrices: [0.0015, 0.9985],
      yes_probability: 0.0015,
      volume: 1015033.948621,
      volume24hr: 5953.361,
      liquidity: 54502.0171,
      closed: false,
      endDate: "2025-06-30 12:00:00.000",
      lastTradeTime: null,
    });
    const all = mapped.flatMap((m) => m.markets);
    expect(all.some((row) => row.closedTime === "2025-04-01 08:21:16.000")).toBe(true);
    expect(all.some((row) => row.gameStartTime === "2025-02-20 18:31:00.000")).toBe(true);
    expect(JSON.parse(market?.raw ?? "{}").id).toBe("512272");
  });

  it("gives placeholder markets without prices no invented probability", () => {
    const events = fixture<Json[]>("polymarket/events/gamma_events_active_100_nested_2025-06-24.json");
    const market = events.flatMap((event) => mapGammaEvent(event, ctx).markets).find((row) => row.id === "515453");
    expect(market).toMatchObject({ outcomePrices: [], yes_probability: null, negRiskOther: false });
  });

  it("maps the oldest closed events of the default order", () => {
    const events = fixture<Json[]>("polymarket/events/gamma_events_default_order_old_2021.json");
    const mapped = events.map((event) => mapGammaEvent(event, ctx));
    expect(mapped.filter((m) => m.event?.closed)).toHaveLength(10);
    expect(mapped.flatMap((m) => m.markets)).toHaveLength(10);
    expect(mapped[0]?.markets[0]).toMatchObject({ id: "239826", event_id: "2890", closed: true });
    expect(mapped[0]?.markets[0]?.yes_probability).toBeCloseTo(0.0000004113679809846114, 12);
  });
});

describe("Gamma markets → rows", () => {
  it("maps the 100-market /markets page, taking the event id from events[]", () => {
    const rows = marketsOf(fixture<unknown[]>("polymarket/markets/gamma_markets_active_2026-02-13.json"));
    expect(rows).toHaveLength(100);
    expect(rows[0]).toMatchObject({ id: "517310", event_id: "16282", yes_probability: 0.058, volume: 1100779.902896 });
  });

  it("maps the wrapped 200-market page with absent zero fields", () => {
    const page = fixture<{ markets: unknown[] }>(
      "polymarket/markets/gamma_markets_closed_false_limit200_wrapped_2026-02-13.json",
    );
    const rows = marketsOf(page.markets);
    expect(rows).toHaveLength(200);
    expect(rows[0]).toMatchObject({ id: "517310", yes_probability: 0.054, closed: false });
    expect(rows.every((row) => row.raw.length > 0)).toBe(true);
  });

  it("maps the mid-2026 BTC 5-minute markets: Up/Down, Postgres times, new fee fields", () => {
    const lines = fixtureLines<{ raw: unknown }>("polymarket/markets/gamma_market_objects_btc5m_2026-07-24.jsonl.gz");
    const rows = marketsOf(lines.map((line) => line.raw));
    expect(rows).toHaveLength(292);
    expect(rows[0]).toMatchObject({
      id: "3047949",
      outcomes: ["Up", "Down"],
      yes_probability: 1,
      closed: true,
      closedTime: "2026-07-24 00:00:16.000",
      feeType: "crypto_fees_v2",
      volume: 79945.98005599984,
    });
  });

  it("rejects an object without an id instead of storing it", () => {
    const mapped = mapGammaMarket({ question: "no id" }, "1", ctx);
    expect(mapped).toMatchObject({ rejection: { kind: "market", key: "(no key)" } });
  });
});

describe("derived columns", () => {
  const base = { outcomes: [], outcomePrices: [], bestBid: null, bestAsk: null, lastTradePrice: null };

  it("yes_probability prefers the Yes outcome, then the first outcome, then the book, then the last trade", () => {
    expect(yesProbability({ ...base, outcomes: ["No", "Yes"], outcomePrices: ["0.3", "0.7"] })).toBe(0.7);
    expect(yesProbability({ ...base, outcomes: ["Up", "Down"], outcomePrices: ["0.4", "0.6"] })).toBe(0.4);
    expect(yesProbability({ ...base, bestBid: 0.2, bestAsk: 0.3 })).toBeCloseTo(0.25);
    expect(yesProbability({ ...base, bestBid: 0, bestAsk: 1, lastTradePrice: 0.35 })).toBe(0.35);
    expect(yesProbability(base)).toBeNull();
  });

  it("lastTradeTime is the first snapshot that saw the volume grow, carried forward otherwise", () => {
    const at = "2026-03-01 12:10:00.000";
    expect(lastTradeTime(100, undefined, at)).toBeNull();
    expect(lastTradeTime(120, { volume: 100, lastTradeTime: null }, at)).toBe(at);
    expect(lastTradeTime(120, { volume: 120, lastTradeTime: "2026-03-01 11:00:00.000" }, at)).toBe(
      "2026-03-01 11:00:00.000",
    );
  });
});
