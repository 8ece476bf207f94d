import { describe, expect, it } from "vitest";
import { isMarketKey, marketKeyColumnOf, marketKeyColumns, marketPath, tablesNamed } from "./market-keys";

const columns = (...names: string[]) => names.map((name) => ({ name }));

describe("marketKeyColumns", () => {
  it("links a Polymarket id when the statement reads a market table", () => {
    expect(
      marketKeyColumns("SELECT id, question FROM polymarket.markets_latest FINAL", columns("id", "question")),
    ).toEqual(["polymarket", null]);
    expect(marketKeyColumns("select id from POLYMARKET.prices limit 5", columns("id"))).toEqual(["polymarket"]);
    expect(marketKeyColumns("SELECT id FROM `polymarket`.`markets`", columns("id"))).toEqual(["polymarket"]);
  });

  it("leaves an id alone when it may be an event's or nobody's", () => {
    expect(marketKeyColumns("SELECT id FROM polymarket.events_latest", columns("id"))).toEqual([null]);
    expect(
      marketKeyColumns(
        "SELECT e.id FROM polymarket.events e JOIN polymarket.markets m ON m.event_id = e.id",
        columns("id"),
      ),
    ).toEqual([null]);
    expect(marketKeyColumns("SELECT number AS id FROM numbers(3)", columns("id"))).toEqual([null]);
    expect(marketKeyColumns("SELECT id FROM kalshi.markets", columns("id"))).toEqual([null]);
  });

  it("reads table names only outside comments and strings", () => {
    expect(marketKeyColumns("-- from polymarket.markets\nSELECT 1 AS id", columns("id"))).toEqual([null]);
    expect(marketKeyColumns("SELECT 'polymarket.markets' AS id", columns("id"))).toEqual([null]);
    expect(marketKeyColumns("SELECT id /* polymarket.events */ FROM polymarket.markets", columns("id"))).toEqual([
      "polymarket",
    ]);
    expect(marketKeyColumns("SELECT id FROM polymarket.markets WHERE question LIKE '%--%'\n", columns("id"))).toEqual([
      "polymarket",
    ]);
  });

  it("links a ticker to Kalshi unless the statement reads only Polymarket", () => {
    expect(marketKeyColumns("SELECT ticker, title FROM kalshi.markets_latest", columns("ticker", "title"))).toEqual([
      "kalshi",
      null,
    ]);
    expect(marketKeyColumns("SELECT 'KXA' AS ticker", columns("ticker"))).toEqual(["kalshi"]);
    expect(marketKeyColumns("SELECT ticker FROM polymarket.events_latest", columns("ticker"))).toEqual([null]);
    expect(
      marketKeyColumns(
        "SELECT p.id, k.ticker FROM polymarket.markets_latest p, kalshi.markets_latest k",
        columns("id", "ticker"),
      ),
    ).toEqual(["polymarket", "kalshi"]);
  });

  it("matches column names exactly", () => {
    expect(marketKeyColumns("SELECT * FROM kalshi.markets", columns("event_ticker", "Ticker", "ticker"))).toEqual([
      null,
      null,
      "kalshi",
    ]);
  });
});

describe("tablesNamed", () => {
  it("finds quoted and spaced names, in lower case", () => {
    expect(tablesNamed('SELECT * FROM "kalshi"."candles" JOIN polymarket . Trades USING (x)')).toEqual([
      { venue: "kalshi", table: "candles" },
      { venue: "polymarket", table: "trades" },
    ]);
  });
});

describe("catalog tables", () => {
  it("knows the key column of the tables keyed by market", () => {
    expect(marketKeyColumnOf("polymarket", "markets")).toEqual({ venue: "polymarket", column: "id" });
    expect(marketKeyColumnOf("polymarket", "markets_latest")).toEqual({ venue: "polymarket", column: "id" });
    expect(marketKeyColumnOf("kalshi", "markets_latest")).toEqual({ venue: "kalshi", column: "ticker" });
    expect(marketKeyColumnOf("kalshi", "candles")).toEqual({ venue: "kalshi", column: "ticker" });
    expect(marketKeyColumnOf("polymarket", "events")).toBeNull();
    expect(marketKeyColumnOf("kalshi", "events_latest")).toBeNull();
  });
});

describe("market keys and paths", () => {
  it("accepts what the API accepts", () => {
    expect(isMarketKey("517310")).toBe(true);
    expect(isMarketKey("KXHIGHNY-25NOV21-B54.5")).toBe(true);
    expect(isMarketKey("")).toBe(false);
    expect(isMarketKey("a b")).toBe(false);
    expect(isMarketKey(517310)).toBe(false);
    expect(isMarketKey(null)).toBe(false);
  });

  it("builds the market page's path", () => {
    expect(marketPath("kalshi", "KXHIGHNY-25NOV21-B54.5")).toBe("/markets/kalshi/KXHIGHNY-25NOV21-B54.5");
    expect(marketPath("polymarket", "517310")).toBe("/markets/polymarket/517310");
  });
});
