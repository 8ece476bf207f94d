import { describe, expect, it } from "vitest";
import { windowsOf } from "../../history";
import { DEFAULT_FIXTURES_DIR, readFixture } from "../../replay/catalog";
import { batchSize } from "./history";
import { mapCandles, mapTrades } from "./history-values";

const live = readFixture(DEFAULT_FIXTURES_DIR, "kalshi/history/candlesticks_live_hourly_2026-06.json") as {
  ticker: string;
  candlesticks: unknown[];
};
const trades = readFixture(DEFAULT_FIXTURES_DIR, "kalshi/history/markets_trades_2026.json") as { trades: unknown[] };

describe("Kalshi candles", () => {
  it("maps the recorded live candles in dollars and contracts", () => {
    const { rows, skipped } = mapCandles(live.ticker, 60, live.candlesticks);
    expect(skipped).toBe(0);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({
      ticker: "KXNBAGAME-26JUN13NYKSAS-SAS",
      period_minutes: 60,
      end_period_ts: 1781301600,
      price_open: 0.65,
      price_close: 0.64,
      price_mean: 0.6498,
      price_previous: 0.65,
      yes_bid_close: 0.64,
      yes_ask_close: 0.65,
      volume: 73570.84,
      open_interest: 1558910.9,
    });
    expect(rows[2]?.volume).toBe(161410.9);
  });

  it("reads the historical tier's unsuffixed text and legacy integer cents as the same dollars", () => {
    const historical = {
      end_period_ts: 1730000000,
      open_interest: "75665260.00",
      volume: "35471.00",
      price: { open: "0.5900", high: "0.6100", low: "0.5800", close: "0.5900", mean: "0.5950", previous: "0.5900" },
      yes_bid: { open: "0.5800", high: "0.5900", low: "0.5700", close: "0.5800" },
      yes_ask: { open: "0.6000", high: "0.6100", low: "0.5900", close: "0.6000" },
    };
    const legacy = {
      end_period_ts: 1730000000,
      open_interest: 75665260,
      volume: 35471,
      price: { open: 59, high: 61, low: 58, close: 59, mean: 59.5, previous: 59 },
      yes_bid: { open: 58, high: 59, low: 57, close: 58 },
      yes_ask: { open: 60, high: 61, low: 59, close: 60 },
    };
    const [fromText] = mapCandles("T", 1440, [historical]).rows;
    const [fromCents] = mapCandles("T", 1440, [legacy]).rows;
    expect(fromText).toMatchObject({ price_close: 0.59, price_mean: 0.595, yes_ask_high: 0.61, volume: 35471 });
    expect(fromCents).toEqual(fromText);
  });

  it("keeps a period without a trade free of trade prices, not zero", () => {
    const quiet = {
      end_period_ts: 1781305200,
      open_interest_fp: "1603108.57",
      volume_fp: "0.00",
      price: { previous_dollars: "0.6400" },
      yes_bid: { open_dollars: "0.6300", high_dollars: "0.6400", low_dollars: "0.6300", close_dollars: "0.6400" },
      yes_ask: { open_dollars: "0.6500", high_dollars: "0.6500", low_dollars: "0.6500", close_dollars: "0.6500" },
    };
    const [row] = mapCandles("T", 60, [quiet]).rows;
    expect(row).toMatchObject({
      price_close: null,
      price_open: null,
      price_mean: null,
      price_previous: 0.64,
      volume: 0,
    });
    expect(row?.yes_bid_close).toBe(0.64);
  });

  it("counts a candle without its period end out instead of storing it", () => {
    const { rows, skipped } = mapCandles("T", 60, [{ volume_fp: "1.00" }, live.candlesticks[0]]);
    expect(skipped).toBe(1);
    expect(rows).toHaveLength(1);
  });
});

describe("Kalshi candle requests", () => {
  it("never asks for more than 5,000 candles: 8 days of minutes are cut into windows", () => {
    const from = Date.UTC(2026, 5, 1) / 1000;
    const windows = windowsOf(from, from + 8 * 86_400, 4_800 * 60);
    expect(windows.length).toBeGreaterThan(2);
    for (const window of windows) expect((window.to - window.from + 1) / 60).toBeLessThanOrEqual(5_000);
    // Contiguous and complete.
    expect(windows[0]?.from).toBe(from);
    expect(windows.at(-1)?.to).toBe(from + 8 * 86_400);
    for (let i = 1; i < windows.length; i += 1) expect(windows[i]?.from).toBe((windows[i - 1]?.to ?? 0) + 1);
  });

  it("batches at most 100 tickers and 10,000 candles in all", () => {
    expect(batchSize({ from: 0, to: 86_400 - 1 }, 60)).toBe(100);
    expect(batchSize({ from: 0, to: 86_400 - 1 }, 1)).toBe(6);
    expect(batchSize({ from: 0, to: 200 * 86_400 - 1 }, 60)).toBe(2);
  });
});

describe("Kalshi trades", () => {
  it("maps the recorded trades with their time to the microsecond", () => {
    const { rows, skipped } = mapTrades(trades.trades);
    expect(skipped).toBe(0);
    expect(rows[0]).toEqual({
      trade_id: "c174ce46-46d8-705a-6f03-2e1037bd1dd1",
      ticker: "KXETH15M-26JUL250200-00",
      created_time: "2026-07-25 05:51:39.54467",
      yes_price: 0.38,
      no_price: 0.62,
      count: 12.61,
      taker_side: "yes",
      taker_outcome_side: "yes",
      taker_book_side: "bid",
      is_block_trade: false,
    });
  });

  it("reads legacy trades in integer cents", () => {
    const [row] = mapTrades([
      {
        trade_id: "t1",
        ticker: "T",
        created_time: "2023-01-02T03:04:05Z",
        count: 10,
        yes_price: 37,
        no_price: 63,
        taker_side: "no",
      },
    ]).rows;
    expect(row).toMatchObject({ yes_price: 0.37, no_price: 0.63, count: 10, created_time: "2023-01-02 03:04:05" });
  });
});
