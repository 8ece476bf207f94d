import type { ChartSpec } from "@epicenter/contracts";
import { describe, expect, it } from "vitest";
import { editorUrl, prefillOf } from "./editor-link";
import {
  formatCell,
  formatCompact,
  formatDuration,
  formatTimestamp,
  formatValue,
  parseEngineTime,
  toNumber,
} from "./format";

describe("formatValue", () => {
  it("reads 64-bit integers sent as strings", () => {
    expect(toNumber("3600000")).toBe(3_600_000);
    expect(formatValue("3600000", "count")).toBe("3,600,000");
  });

  it("formats each unit by what it is", () => {
    expect(formatValue(1234.4, "usd")).toBe("$1,234");
    expect(formatValue(0.537, "probability")).toBe("53.7%");
    expect(formatValue(0.54, "price")).toBe("$0.54");
    // Gaps between prices are often under a cent.
    expect(formatValue(0.0097, "cents")).toBe("1.0¢");
    expect(formatValue("-0.004", "cents")).toBe("-0.4¢");
    // Issue 24, #6: a gap that rounds to nothing is no negative.
    expect(formatValue(-0.0004, "cents")).toBe("0.0¢");
    expect(formatValue(-0.0001, "probability")).toBe("0.0%");
    expect(formatValue(2_500_000, "contracts", { isCompact: true })).toBe("2.5M");
    expect(formatValue(null, "usd")).toBe("—");
    expect(formatValue(`${new Date().getUTCFullYear()}-11-21`, "datetime")).toBe("Nov 21");
  });

  it("keeps small numbers as they are and shortens large ones", () => {
    expect(formatCompact(9_999)).toBe("9,999");
    expect(formatCompact(12_345)).toBe("12.3K");
    // An axis of prices between 0 and 1 (a chart's ticks with no format of their own).
    expect(formatValue(0.25, "count", { isCompact: true })).toBe("0.25");
    expect(formatCompact(0.12345)).toBe("0.123");
  });
});

describe("times", () => {
  it("reads the engine's UTC timestamps", () => {
    expect(parseEngineTime("2026-11-21 14:00:00.000")?.toISOString()).toBe("2026-11-21T14:00:00.000Z");
    const now = Date.UTC(2026, 10, 26);
    expect(formatTimestamp("2026-11-21 14:05:00", now)).toBe("Nov 21, 14:05");
  });

  it("gives the year of a time outside this year (issue 24, #6 and #7)", () => {
    const now = Date.UTC(2026, 10, 26);
    expect(formatTimestamp("2045-01-01 00:00:00", now)).toBe("Jan 1, 2045, 00:00");
    expect(formatTimestamp("2025-06-30", now)).toBe("Jun 30, 2025");
  });

  it("says durations in the largest sensible unit", () => {
    expect(formatDuration(45)).toBe("45 s");
    expect(formatDuration(540)).toBe("9 min");
    expect(formatDuration(7_200)).toBe("2 h");
    expect(formatDuration(null)).toBe("—");
  });
});

describe("editorUrl", () => {
  it("carries the statement and title, and reads back what it wrote", () => {
    const url = editorUrl({ sql: "SELECT * FROM polymarket.markets LIMIT 100", title: "polymarket.markets" });
    expect(url).toBe("/queries/new?sql=SELECT+*+FROM+polymarket.markets+LIMIT+100&title=polymarket.markets");
    expect(prefillOf(new URL(url, "http://x").searchParams)).toEqual({
      sql: "SELECT * FROM polymarket.markets LIMIT 100",
      title: "polymarket.markets",
    });
  });

  it("carries a chart view, and drops one that is not a chart spec", () => {
    const view: ChartSpec = { kind: "chart", type: "line", x: "hour", y: ["volume"] };
    const url = editorUrl({ sql: "SELECT 1", title: "t", view });
    expect(prefillOf(new URL(url, "http://x").searchParams)?.chart).toEqual(view);
    expect(prefillOf(new URLSearchParams({ sql: "SELECT 1", chart: '{"kind":"chart"}' }))).toEqual({ sql: "SELECT 1" });
    expect(editorUrl({ sql: "SELECT 1", view: { kind: "number", column: "n" } })).toBe("/queries/new?sql=SELECT+1");
  });

  it("asks for nothing without a statement", () => {
    expect(prefillOf(new URLSearchParams({ title: "only a title" }))).toBeUndefined();
  });
});

describe("formatCell", () => {
  it("shows NULL, objects as JSON and the rest as text; by its kind when the column has one", () => {
    expect(formatCell(null)).toBe("NULL");
    expect(formatCell([1, 2])).toBe("[1,2]");
    expect(formatCell({ a: 1 })).toBe('{"a":1}');
    expect(formatCell("18446744073709551615")).toBe("18446744073709551615");
    expect(formatCell(false)).toBe("false");
    expect(formatCell(null, "usd")).toBe("—");
    expect(formatCell("1234.5", "usd")).toBe("$1,235");
    expect(formatCell(0.5, "probability")).toBe("50.0%");
  });
});
