import { describe, expect, it } from "vitest";
import {
  datasetId,
  firstSampleValues,
  formatRowsAndColumns,
  matchesSearch,
  parseDatasetId,
  sampleText,
  simplifyType,
  tableQuery,
} from "./catalog-model";

describe("simplifyType", () => {
  it("applies the spec's simplifications", () => {
    expect(simplifyType("Nullable(Float64)")).toBe("Float");
    expect(simplifyType("DateTime64(3, 'UTC')")).toBe("DateTime");
    expect(simplifyType("Nullable(DateTime64(3, 'UTC'))")).toBe("DateTime");
    expect(simplifyType("Nullable(UInt32)")).toBe("UInt");
    expect(simplifyType("Nullable(Int64)")).toBe("Int");
    expect(simplifyType("Array(Float64)")).toBe("Array(Float)");
    expect(simplifyType("Nullable(Bool)")).toBe("Bool");
    expect(simplifyType("LowCardinality(String)")).toBe("LowCardinality(String)");
  });
});

describe("dataset ids", () => {
  it("round-trips namespace-table, underscores included", () => {
    expect(datasetId({ namespace: "kalshi", name: "markets_latest" })).toBe("kalshi-markets_latest");
    expect(parseDatasetId("kalshi-markets_latest")).toEqual({ namespace: "kalshi", table: "markets_latest" });
    expect(parseDatasetId("nodash")).toBeNull();
  });

  it("builds the Query in Editor statement", () => {
    expect(tableQuery({ namespace: "polymarket", name: "events" })).toBe("SELECT * FROM polymarket.events LIMIT 100");
  });
});

describe("samples", () => {
  it("takes the first non-null value per column", () => {
    const values = firstSampleValues({
      columns: ["a", "b", "c"],
      sample_data: [
        [null, "", 1],
        ["x", "y", 2],
      ],
      sample_size: 2,
    });
    expect(values.get("a")).toBe("x");
    expect(values.get("b")).toBe("y");
    expect(values.get("c")).toBe(1);
  });

  it("cuts strings at 100 characters", () => {
    const text = sampleText("x".repeat(150));
    expect(text).toBe(`${"x".repeat(100)}…`);
    expect(sampleText(["Yes", "No"])).toBe('["Yes","No"]');
  });
});

describe("search and counts", () => {
  it("matches the table name case-insensitively", () => {
    const table = { name: "markets_latest", full_name: "kalshi.markets_latest" };
    expect(matchesSearch(table, "MARKETS")).toBe(true);
    expect(matchesSearch(table, "kalshi.m")).toBe(true);
    expect(matchesSearch(table, "events")).toBe(false);
  });

  it("says N rows • M columns", () => {
    expect(formatRowsAndColumns(1234567, 42)).toBe("1,234,567 rows • 42 columns");
  });
});
