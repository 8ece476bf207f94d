import { describe, expect, it } from "vitest";
import { DEFAULT_FIXTURES_DIR, readFixture } from "../../replay/catalog";
import { gridWindows, type PriceSeries } from "./history";
import { mapPricePoints, mapTrades } from "./history-values";

const prices = readFixture(DEFAULT_FIXTURES_DIR, "polymarket/history/clob_prices_history_hourly_2026-05.json") as {
  _request: { token: string };
  history: unknown[];
};
const trades = readFixture(DEFAULT_FIXTURES_DIR, "polymarket/history/data_api_trades_2026.json") as Array<
  Record<string, unknown>
>;

describe("Polymarket price history", () => {
  const market = { id: "540816", conditionId: "0xc", tokens: ["1", prices._request.token], outcomes: ["Yes", "No"] };

  it("maps the recorded hourly points to the token's outcome", () => {
    const { rows, skipped } = mapPricePoints(market, prices._request.token, 60, prices);
    expect(skipped).toBe(0);
    expect(rows).toHaveLength(12);
    expect(rows[0]).toEqual({
      id: "540816",
      token_id: prices._request.token,
      outcome: "No",
      ts: 1779465615,
      price: 0.9705,
      fidelity_minutes: 60,
    });
    expect(rows[1]?.price).toBe(0.97);
  });

  it("counts a point without a time or with a price outside 0–1 out", () => {
    const { rows, skipped } = mapPricePoints(market, "1", 1, {
      history: [{ t: 1779465615, p: 1.5 }, { p: 0.5 }, { t: 1779465675, p: 0.5 }],
    });
    expect(skipped).toBe(2);
    expect(rows).toEqual([
      { id: "540816", token_id: "1", outcome: "Yes", ts: 1779465675, price: 0.5, fidelity_minutes: 1 },
    ]);
  });
});

describe("Polymarket trades", () => {
  const first = trades[0] as Record<string, unknown>;
  const market = {
    id: "9",
    conditionId: String(first.conditionId),
    tokens: [String(first.asset)],
    outcomes: ["No"],
  };

  it("maps a recorded trade", () => {
    const { rows, skipped } = mapTrades(market, [first]);
    expect(skipped).toBe(0);
    expect(rows[0]).toEqual({
      id: "9",
      condition_id: "0xace3c72c24fccb6731433483ece41c780432d84850edccd5a6bf3147ccea62a9",
      transaction_hash: "0x08ca97f515b68442551056509ad20022fe2442986d971a6f9321d286bd39dd8f",
      trade_index: 0,
      token_id: String(first.asset),
      outcome: "No",
      outcome_index: 1,
      ts: 1784327295,
      price: 0.968534758,
      size: 30974.624038,
      side: "BUY",
      proxy_wallet: "0xac482f27ac3d1144ca4f778af405eb5cac5d2feb",
    });
  });

  it("numbers the fills of one transaction the same way in whatever order they arrive", () => {
    const fills = [
      { ...first, size: 5, proxyWallet: "0xb" },
      { ...first, size: 3, proxyWallet: "0xa" },
      { ...first, size: 5, proxyWallet: "0xa" },
    ];
    const key = (rows: ReturnType<typeof mapTrades>["rows"]) =>
      rows.map((row) => `${row.trade_index}:${row.size}:${row.proxy_wallet}`).sort();
    const forward = mapTrades(market, fills).rows;
    const backward = mapTrades(market, [...fills].reverse()).rows;
    expect(forward.map((row) => row.trade_index).sort()).toEqual([0, 1, 2]);
    expect(key(forward)).toEqual(key(backward));
  });
});

describe("a first fetch's long price series", () => {
  const DAY = 86_400;
  const WINDOW = 15 * DAY;
  const series = (token: string, from: number, to: number): PriceSeries => ({
    market: { id: token, conditionId: "0xc", tokens: [token], outcomes: ["Yes"] },
    token,
    fidelity: 60,
    range: { from, to },
    window: { from, to },
  });
  const cohort = [
    series("a", 1_700_000_123, 1_700_000_123 + 400 * DAY),
    series("b", 1_700_000_123 + 40 * DAY, 1_700_000_123 + 90 * DAY),
    series("c", 1_690_000_000, 1_690_000_000 + 20 * DAY),
  ];
  const batches = gridWindows(cohort);

  it("walks them together, one request a window of the grid, in time order", () => {
    const cells = new Set(
      cohort.flatMap((one) => {
        const cells: number[] = [];
        for (let cell = Math.floor(one.range.from / WINDOW); cell <= Math.floor(one.range.to / WINDOW); cell += 1) {
          cells.push(cell);
        }
        return cells;
      }),
    );
    expect(batches).toHaveLength(cells.size);
    // Each token alone would take a request per 15-day window of its own: 28 + 4 + 2.
    expect(batches.length).toBeLessThan(28 + 4 + 2);
    const starts = batches.map((batch) => Math.min(...batch.map((one) => one.window.from)));
    expect(starts).toEqual([...starts].sort((x, y) => x - y));
    for (const batch of batches) {
      const from = Math.min(...batch.map((one) => one.window.from));
      const to = Math.max(...batch.map((one) => one.window.to));
      expect(to - from).toBeLessThan(WINDOW);
    }
  });

  it("gives each series its whole range, window after window, with no gap and no overlap", () => {
    for (const one of cohort) {
      const windows = batches.flatMap((batch) => batch.filter((x) => x.token === one.token).map((x) => x.window));
      expect(windows[0]?.from).toBe(one.range.from);
      expect(windows.at(-1)?.to).toBe(one.range.to);
      for (let i = 1; i < windows.length; i += 1) {
        expect(windows[i]?.from).toBe((windows[i - 1]?.to ?? 0) + 1);
      }
    }
  });
});
