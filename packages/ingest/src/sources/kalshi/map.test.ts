import { describe, expect, it } from "vitest";
import { fixture } from "../../testing/fixtures";
import { dollars, isComboMarket, liquidityCents, mapKalshiEvent, mapKalshiMarket } from "./map";
import { ZKalshiEventsPage, ZKalshiMarketsPage } from "./schema";

const ctx = { syncTimestamp: "2026-03-01 12:00:00.000" };
type Json = Record<string, unknown>;

describe("Kalshi events with nested markets → rows", () => {
  const events = fixture<Json[]>("kalshi/events/events_nested_iran_38ev_763mkts_2026-03-01.json");
  const mapped = events.map((event) => mapKalshiEvent(event, ctx));
  const markets = mapped.flatMap((m) => m.markets);

  it("maps all 38 events and 763 markets", () => {
    expect(mapped.flatMap((m) => m.rejections)).toEqual([]);
    expect(mapped.filter((m) => m.event)).toHaveLength(38);
    expect(markets).toHaveLength(763);
  });

  it("maps legacy cents and fixed-point strings to the same columns", () => {
    expect(markets[0]).toMatchObject({
      ticker: "KXNEXTIRANLEADER-45JAN01-MARA",
      event_ticker: "KXNEXTIRANLEADER-45JAN01",
      yes_sub_title: "Mohsen Araki",
      status: "active",
      last_price_dollars: 0.01,
      yes_bid_dollars: 0,
      yes_ask_dollars: 0.01,
      volume: 60191,
      volume_24h: 52183,
      open_interest: 42202,
      liquidity: 0,
      liquidity_dollars: 0,
      custom_strike: '{"Individual":"Mohsen Araki"}',
    });
  });

  it("treats Go's zero time on nested markets as unknown", () => {
    expect(markets.every((m) => m.created_time === null && m.updated_time === null)).toBe(true);
    expect(markets[0]?.close_time).toBe("2045-01-01 15:00:00.000");
  });

  it("keeps settled results and totals open interest per event", () => {
    expect(markets.find((m) => m.ticker === "KXWHVISIT-27-LLOO")).toMatchObject({
      status: "finalized",
      result: "yes",
      settlement_value_dollars: 1,
    });
    expect(mapped[0]?.event).toMatchObject({
      event_ticker: "KXNEXTIRANLEADER-45JAN01",
      total_open_interest: 1630534,
      market_count: 15,
      last_updated_ts: "2026-03-01 04:21:58.468",
    });
  });
});

describe("Kalshi event pages without nested markets", () => {
  it("maps the 200-event page; totals stay unknown without markets", () => {
    const page = ZKalshiEventsPage.parse(fixture("kalshi/events/events_page_200_no_nested_2026-02-26.json"));
    const rows = page.events.map((event) => mapKalshiEvent(event, ctx).event);
    expect(rows.filter(Boolean)).toHaveLength(200);
    expect(rows[0]).toMatchObject({ event_ticker: "KXELONMARS-99", total_open_interest: null, market_count: null });
    expect(page.cursor).toBe("CgYI8PuC-AYSC1NFTkFURUlOLTI4");
  });

  it("maps the 100-event page saved with a UTF-8 BOM", () => {
    const page = ZKalshiEventsPage.parse(fixture("kalshi/events/events_page_no_nested_2026-02.json"));
    const rows = page.events.map((event) => mapKalshiEvent(event, ctx).event);
    expect(rows.filter(Boolean)).toHaveLength(100);
    expect(rows[0]).toMatchObject({ title: "Will Elon Musk visit Mars in his lifetime?", category: "World" });
  });

  it("maps the golden 5-event page", () => {
    const golden = fixture<{ response: unknown }>("kalshi/events/golden_events_limit5_2026-01-12.json");
    const page = ZKalshiEventsPage.parse(golden.response);
    expect(page.events.map((event) => mapKalshiEvent(event, ctx).event?.event_ticker)).toEqual([
      "KXELONMARS-99",
      "KXNEWPOPE-70",
      "KXWARMING-50",
      "KXMARSVRAIL-50",
      "KXERUPTSUPER-0",
    ]);
  });
});

describe("combo (KXMVE) objects are never mapped", () => {
  it("drops every multivariate event", () => {
    const golden = fixture<{ response: unknown }>(
      "kalshi/events/multivariate/golden_events_multivariate_limit5_2026-01-14.json",
    );
    const page = ZKalshiEventsPage.parse(golden.response);
    const mapped = page.events.map((event) => mapKalshiEvent(event, ctx));
    expect(page.events).toHaveLength(5);
    expect(mapped.every((m) => m.event === null && m.combosExcluded > 0)).toBe(true);
  });

  it("recognises every market of the unfiltered page and the golden page as a combo", () => {
    const page = ZKalshiMarketsPage.parse(fixture("kalshi/markets/markets_page1_unfiltered_all_KXMVE_2026-02-13.json"));
    expect(page.markets).toHaveLength(200);
    expect(page.markets.every((m) => isComboMarket(m as Json))).toBe(true);
    const golden = fixture<{ response: unknown }>("kalshi/markets/golden_markets_open_limit5_2026-01-12.json");
    expect(ZKalshiMarketsPage.parse(golden.response).markets.every((m) => isComboMarket(m as Json))).toBe(true);
  });

  it("flags a combo by its collection ticker even under an innocent ticker", () => {
    expect(isComboMarket({ ticker: "KXNBA-1", mve_collection_ticker: "KXMVESPORTS-R" })).toBe(true);
    expect(isComboMarket({ ticker: "KXNBA-1", mve_collection_ticker: "" })).toBe(false);
  });

  it("still maps the mid-2026 fixed-point-only market shape (when asked directly)", () => {
    const raw = fixture<Json>("kalshi/markets/market_single_KXMVE_no_legacy_int_fields_2026-06-26.json");
    const mapped = mapKalshiMarket(raw, ctx);
    expect(mapped).toMatchObject({ row: { yes_bid_dollars: 0, volume: 0, liquidity: 0, last_price_dollars: 0 } });
  });
});

describe("unit reconciliation", () => {
  it("prefers fixed-point dollars and falls back to legacy cents", () => {
    expect(dollars(0.08, 8)).toBe(0.08);
    expect(dollars(null, 8)).toBe(0.08);
    expect(dollars(null, null)).toBeNull();
  });

  it("keeps liquidity in cents, negative allowed", () => {
    expect(liquidityCents({ liquidity: -1250, liquidity_dollars: null })).toBe(-1250);
    expect(liquidityCents({ liquidity: null, liquidity_dollars: -12.5 })).toBe(-1250);
    expect(liquidityCents({ liquidity: null, liquidity_dollars: null })).toBeNull();
  });
});
