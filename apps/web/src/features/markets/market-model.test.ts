import type { MarketHistory } from "@epicenter/contracts";
import { describe, expect, it } from "vitest";
import {
  chartDataOf,
  closeLine,
  coverageSentence,
  defaultInterval,
  FIELD_TEXT_LIMIT,
  formatMoney,
  latestFields,
  lifeDays,
  matchesField,
  minuteSpan,
  resolutionRow,
  sourceNote,
} from "./market-model";

const NOW = Date.parse("2026-03-10T12:00:00Z");

const life = (overrides: Partial<Parameters<typeof defaultInterval>[0]> = {}) => ({
  status: "open" as const,
  opened_at: "2026-03-01T00:00:00.000Z",
  closes_at: "2026-04-01T00:00:00.000Z",
  resolved_at: null,
  snapshot_at: "2026-03-10T11:50:00.000Z",
  history: {
    points: 0,
    trades: 0,
    first: null,
    last: null,
    state: "current" as const,
    until: null,
    error: null,
    retry_at: null,
  },
  ...overrides,
});

describe("the interval a market opens at", () => {
  it("is hours for a short life and days for a long one", () => {
    expect(lifeDays(life(), NOW)).toBeCloseTo(9.5, 1);
    expect(defaultInterval(life(), NOW)).toBe("1h");
    expect(defaultInterval(life({ opened_at: "2025-01-01T00:00:00.000Z" }), NOW)).toBe("1d");
  });

  it("counts a closed market's life to its end, not to today", () => {
    const closed = life({
      status: "resolved",
      opened_at: "2024-01-01T00:00:00.000Z",
      resolved_at: "2024-01-20T00:00:00.000Z",
    });
    expect(lifeDays(closed, NOW)).toBeCloseTo(19, 5);
    expect(defaultInterval(closed, NOW)).toBe("1h");
  });

  it("starts at the oldest archived point when there is one", () => {
    const market = life({
      opened_at: null,
      history: {
        points: 10,
        trades: 0,
        first: "2026-03-09T12:00:00.000Z",
        last: "2026-03-10T12:00:00.000Z",
        state: "current" as const,
        until: null,
        error: null,
        retry_at: null,
      },
    });
    expect(lifeDays(market, NOW)).toBeCloseTo(1, 5);
  });
});

describe("the span of 1-minute points", () => {
  it("is the API's default (the last days) while the market trades", () => {
    expect(minuteSpan(life(), NOW)).toBeUndefined();
  });

  it("ends just after a closed market stopped trading", () => {
    const span = minuteSpan(life({ status: "resolved", resolved_at: "2026-02-01T00:00:00.000Z" }), NOW);
    expect(span).toEqual({ from: "2026-01-29T01:00:00.000Z", to: "2026-02-01T01:00:00.000Z" });
  });

  it("never ends in the future", () => {
    const span = minuteSpan(life({ status: "closed", closes_at: "2026-03-10T11:30:00.000Z" }), NOW);
    expect(span?.to).toBe(new Date(NOW).toISOString());
  });
});

const history = (overrides: Partial<MarketHistory> = {}): MarketHistory => ({
  venue: "polymarket",
  id: "517310",
  interval: "1h",
  source: "history",
  outcomes: [
    {
      label: "Yes",
      points: [
        { t: "2026-03-01T00:00:00.000Z", open: 0.4, high: 0.5, low: 0.4, close: 0.45 },
        { t: "2026-03-01T01:00:00.000Z", open: 0.45, high: 0.6, low: 0.45, close: 0.6 },
      ],
    },
    { label: "No", points: [{ t: "2026-03-01T01:00:00.000Z", open: 0.55, high: 0.55, low: 0.4, close: 0.4 }] },
  ],
  volume: [
    { t: "2026-03-01T01:00:00.000Z", volume: 1200 },
    { t: "2026-03-01T02:00:00.000Z", volume: 50 },
  ],
  resolution: null,
  truncated: false,
  query: { kind: "sql", sql: "SELECT 1" },
  ...overrides,
});

describe("chartDataOf", () => {
  it("puts prices and volume on one time axis, a missing value as null", () => {
    const data = chartDataOf(history());
    expect(data.series).toEqual([
      { key: "o0", label: "Yes" },
      { key: "o1", label: "No" },
    ]);
    expect(data.rows).toEqual([
      { t: "2026-03-01T00:00:00.000Z", o0: 0.45, o1: null, volume: null },
      { t: "2026-03-01T01:00:00.000Z", o0: 0.6, o1: 0.4, volume: 1200 },
      { t: "2026-03-01T02:00:00.000Z", o0: null, o1: null, volume: 50 },
    ]);
    expect(data.hasVolume).toBe(true);
    expect(data.resolutionAt).toBeNull();
  });

  it("reads days as dates", () => {
    const data = chartDataOf(
      history({
        interval: "1d",
        outcomes: [{ label: "Yes", points: [{ t: "2026-03-01T00:00:00.000Z", open: 1, high: 1, low: 1, close: 1 }] }],
        volume: [],
      }),
    );
    expect(data.rows).toEqual([{ t: "2026-03-01", o0: 1, volume: null }]);
    expect(data.hasVolume).toBe(false);
  });

  it("marks the resolution at the interval it falls in", () => {
    const data = chartDataOf(history({ resolution: { at: "2026-03-01T01:30:00.000Z", outcome: "Yes" } }));
    expect(data.resolutionAt).toBe("2026-03-01T01:00:00.000Z");
  });
});

describe("resolutionRow", () => {
  const times = ["2026-03-01T00:00:00.000Z", "2026-03-01T01:00:00.000Z"];
  it("is null before the first row or well after the last", () => {
    expect(resolutionRow(times, "2026-02-28T23:00:00.000Z", "1h")).toBeNull();
    expect(resolutionRow(times, "2026-03-01T05:00:00.000Z", "1h")).toBeNull();
    expect(resolutionRow(times, "2026-03-01T02:10:00.000Z", "1h")).toBe("2026-03-01T01:00:00.000Z");
  });

  it("answers the day for daily rows", () => {
    expect(resolutionRow(["2026-03-01T00:00:00.000Z"], "2026-03-01T18:00:00.000Z", "1d")).toBe("2026-03-01");
  });
});

describe("formatMoney", () => {
  it("keeps cents on small amounts only", () => {
    expect(formatMoney(0.01)).toBe("$0.01");
    expect(formatMoney(99.5)).toBe("$99.50");
    expect(formatMoney(139186.36)).toBe("$139,186");
    expect(formatMoney(null)).toBe("—");
  });
});

describe("sourceNote", () => {
  it("says when the prices are not the venue's own record", () => {
    expect(sourceNote("history")).toBeNull();
    expect(sourceNote("snapshots")).toBe("No venue history archived yet; drawn from Epicenter's 10-minute snapshots.");
    expect(sourceNote("none")).toMatch(/^No prices/);
  });
});

describe("the latest snapshot's fields", () => {
  it("reads every column as text, in order, and cuts long values", () => {
    const fields = latestFields({
      id: "1",
      outcomes: ["Yes", "No"],
      closed: false,
      endDate: null,
      long: "x".repeat(500),
    });
    expect(fields.map((field) => field.name)).toEqual(["id", "outcomes", "closed", "endDate", "long"]);
    expect(fields[1]?.text).toBe('["Yes","No"]');
    expect(fields[2]?.text).toBe("false");
    expect(fields[3]).toEqual({ name: "endDate", text: "NULL", isBlank: true });
    expect(fields[4]?.text).toHaveLength(FIELD_TEXT_LIMIT + 1);
  });

  it("says so when a value is empty", () => {
    expect(latestFields({ questionID: "", tags: [], n: 0 })).toEqual([
      { name: "questionID", text: "(empty)", isBlank: true },
      { name: "tags", text: "[]", isBlank: true },
      { name: "n", text: "0", isBlank: false },
    ]);
  });

  it("is searched by name or value", () => {
    const [field] = latestFields({ yes_sub_title: "Above 54°" });
    if (!field) throw new Error("no field");
    expect(matchesField(field, "SUB_title")).toBe(true);
    expect(matchesField(field, "54°")).toBe(true);
    expect(matchesField(field, "volume")).toBe(false);
    expect(matchesField(field, "  ")).toBe(true);
  });
});

describe("closeLine (issue 24, #7)", () => {
  const now = Date.parse("2026-11-26T12:00:00Z");
  it("says an open market past its close date awaits its result, not that it closes in the past", () => {
    expect(closeLine({ status: "open", closes_at: "2025-06-30T00:00:00Z", resolved_at: null }, now)).toEqual({
      label: "Close date passed",
      at: "2025-06-30T00:00:00Z",
      note: "still open on the venue, awaiting its result",
    });
    expect(closeLine({ status: "open", closes_at: "2027-01-01T00:00:00Z", resolved_at: null }, now).label).toBe(
      "Closes",
    );
  });

  it("gives a resolved market its resolution date, and a closed one its close", () => {
    const resolved = {
      status: "resolved",
      closes_at: "2029-01-20T00:00:00Z",
      resolved_at: "2026-11-01T00:00:00Z",
    } as const;
    expect(closeLine(resolved, now)).toMatchObject({ label: "Resolved", at: "2026-11-01T00:00:00Z" });
    expect(closeLine({ ...resolved, status: "closed" }, now)).toMatchObject({
      label: "Closed",
      at: "2029-01-20T00:00:00Z",
    });
  });
});

describe("coverageSentence", () => {
  const history = { points: 10, trades: 2, first: null, last: null, until: null, error: null, retry_at: null } as const;
  const format = (iso: string) => iso.slice(0, 16).replace("T", " ");
  it("says what the ledger says, with the venue's own answer when it failed", () => {
    expect(coverageSentence({ ...history, state: "complete" }, format)).toBe(
      "History complete: the market's whole life is archived.",
    );
    expect(coverageSentence({ ...history, state: "current", until: "2026-11-27T10:00:00.000Z" }, format)).toBe(
      "History up to date to 2026-11-27 10:00 UTC.",
    );
    expect(
      coverageSentence(
        {
          ...history,
          state: "upstream error",
          error: "HTTP 404: market not found",
          retry_at: "2026-11-27T10:10:00.000Z",
        },
        format,
      ),
    ).toBe("History incomplete: the venue answered “HTTP 404: market not found”; tried again at 2026-11-27 10:10 UTC.");
    expect(coverageSentence({ ...history, state: "not reached" }, format)).toContain("not archived yet");
  });
});
