import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Json, TURNOVER_LEAD_MS } from "./catalog";
import { type ReplayServer, startReplayServer } from "./server";

const START = Date.parse("2026-08-01T12:00:00Z");
const HOUR_MS = 3_600_000;
let now = START;
let replay: ReplayServer;

beforeAll(async () => {
  replay = await startReplayServer({
    catalogSize: 20_000,
    closedMarkets: 30_000,
    turnover: { from: START, marketsPerDay: 20_000 },
    now: () => now,
  });
});
afterAll(async () => {
  await replay?.close();
});

async function walk(url: (cursor: string) => string, list: "events" | "markets", next: string): Promise<Json[]> {
  const items: Json[] = [];
  let cursor = "";
  do {
    const body = (await (await fetch(url(cursor))).json()) as Json;
    items.push(...(body[list] as Json[]));
    cursor = String(body[next] ?? "");
  } while (cursor);
  return items;
}

const polymarketOpen = () =>
  walk(
    (cursor) =>
      `${replay.url.polymarket}/events/keyset?closed=false&limit=500${cursor ? `&after_cursor=${cursor}` : ""}`,
    "events",
    "next_cursor",
  );
const kalshiMarkets = (status: string) =>
  walk(
    (cursor) => `${replay.url.kalshi}/markets?status=${status}&mve_filter=exclude&limit=1000&cursor=${cursor}`,
    "markets",
    "cursor",
  );

// Each test walks tens of thousands of markets over HTTP: 4–6 s on this 2-core machine, alone.
describe("the replay's catalog at a venue's size", { timeout: 30_000 }, () => {
  it("serves the closed catalog beside the live one and leaves it out of open walks", async () => {
    now = START;
    const open = await polymarketOpen();
    const markets = open.flatMap((event) => event.markets as Json[]);
    expect(markets.length).toBeGreaterThan(15_000);
    expect(markets.length).toBeLessThanOrEqual(20_500);
    expect(open.every((event) => event.closed !== true)).toBe(true);
    const settled = await kalshiMarkets("settled");
    expect(settled.length).toBeGreaterThanOrEqual(30_000);
    expect(settled.every((market) => market.status === "finalized" && market.result)).toBe(true);
    const closes = settled.map((market) => Date.parse(String(market.close_time)));
    expect(Math.max(...closes)).toBeLessThan(START);
    // The closed catalog over the last three months (the rest settled in the recording).
    expect(closes.filter((close) => close > START - 92 * 24 * HOUR_MS).length).toBeGreaterThanOrEqual(30_000);
  });

  it("closes turnover markets one after another during the run, each listed open before with its planned close", async () => {
    now = START;
    const planned = (await kalshiMarkets("open")).filter((market) => {
      const close = Date.parse(String(market.close_time));
      return close >= START + TURNOVER_LEAD_MS && close < START + 24 * HOUR_MS;
    });
    // About 20,000 a day of the catalog's markets, at the lead time at the earliest.
    expect(planned.length).toBeGreaterThan(200);
    const within = (hours: number) =>
      planned.filter((market) => Date.parse(String(market.close_time)) < START + hours * HOUR_MS);
    // 20,000 a day for the 100 minutes from the lead on: about 1,400.
    expect(within(2).length).toBeGreaterThan(1_000);
    expect(within(2).length).toBeLessThan(2_000);
    for (const market of planned) {
      expect(Date.parse(String(market.open_time))).toBeLessThanOrEqual(
        Date.parse(String(market.close_time)) - 15 * 60_000,
      );
    }

    const first = within(2).sort((a, b) => Date.parse(String(a.close_time)) - Date.parse(String(b.close_time)))[0];
    now = Date.parse(String(first?.close_time)) + 1_000;
    const stillOpen = new Set((await kalshiMarkets("open")).map((market) => market.ticker));
    expect(stillOpen.has(first?.ticker)).toBe(false);
    const closed = (await kalshiMarkets("settled")).find((market) => market.ticker === first?.ticker);
    expect(closed).toMatchObject({ status: "finalized", close_time: first?.close_time, open_time: first?.open_time });
    expect(["yes", "no"]).toContain(closed?.result);
  });

  it("closes Polymarket turnover markets resolved at their planned end", async () => {
    now = START;
    const closing = (await polymarketOpen()).filter((event) => {
      const end = Date.parse(String(event.endDate));
      return end >= START + TURNOVER_LEAD_MS && end < START + 2 * HOUR_MS;
    });
    expect(closing.length).toBeGreaterThan(0);
    const event = closing[0] as Json;
    now = Date.parse(String(event.endDate)) + 1_000;
    expect((await polymarketOpen()).some((open) => open.id === event.id)).toBe(false);
    const market = replay.polymarket.findByCondition(String((event.markets as Json[])[0]?.conditionId))?.market;
    expect(market).toMatchObject({
      closed: true,
      endDate: event.endDate,
      startDate: (event.markets as Json[])[0]?.startDate,
    });
    expect(JSON.parse(String(market?.outcomePrices))).toEqual(expect.arrayContaining(["1", "0"]));
  });
});
