import { describe, expect, it } from "vitest";
import {
  estimateColumnWidth,
  MAX_INITIAL_COLUMN_WIDTH,
  MIN_COLUMN_WIDTH,
  nextSort,
  sortedRowOrder,
} from "./result-table";

/** The values of one column (given as objects, for reading) in sorted order. */
function valuesInOrder(objects: Record<string, unknown>[], name: string, type: string, descending = false) {
  const rows = objects.map((row) => [row[name]]);
  return sortedRowOrder(rows, 0, type, descending ? "descending" : "ascending").map((index) => rows[index]?.[0]);
}

describe("sortedRowOrder", () => {
  it("sorts 64-bit integers that arrive as text by their value", () => {
    const rows = ["10", "9", "-3", "100", "0"].map((id) => ({ id }));
    expect(valuesInOrder(rows, "id", "UInt64")).toEqual(["-3", "0", "9", "10", "100"]);
    expect(valuesInOrder(rows, "id", "UInt64", true)).toEqual(["100", "10", "9", "0", "-3"]);
  });

  it("tells apart integers past 2^53 that round to the same double", () => {
    const rows = [{ id: "18446744073709551615" }, { id: "18446744073709551614" }, { id: "18446744073709551613" }];
    expect(valuesInOrder(rows, "id", "UInt64")).toEqual([
      "18446744073709551613",
      "18446744073709551614",
      "18446744073709551615",
    ]);
  });

  it("puts NULLs last in both directions", () => {
    const rows = [{ p: 0.5 }, { p: null }, { p: 0.25 }, { p: 1 }];
    expect(valuesInOrder(rows, "p", "Nullable(Float64)")).toEqual([0.25, 0.5, 1, null]);
    expect(valuesInOrder(rows, "p", "Nullable(Float64)", true)).toEqual([1, 0.5, 0.25, null]);
    const names = [{ q: null }, { q: "b" }, { q: "a" }];
    expect(valuesInOrder(names, "q", "Nullable(String)", true)).toEqual(["b", "a", null]);
  });

  it("keeps what is not a number after the numbers of a numeric column", () => {
    const rows = [{ x: "nan" }, { x: 2 }, { x: 1 }];
    expect(valuesInOrder(rows, "x", "Float64")).toEqual([1, 2, "nan"]);
  });

  it("sorts text and times as text, keeping equal values in the query's order", () => {
    const rows = [
      ["2026-03-01 00:00:00", "first"],
      ["2025-12-31 23:59:59", "second"],
      ["2026-03-01 00:00:00", "third"],
    ];
    const order = sortedRowOrder(rows, 0, "DateTime64(3, 'UTC')", "ascending");
    expect(order.map((index) => rows[index]?.[1])).toEqual(["second", "first", "third"]);
    const descending = sortedRowOrder(rows, 0, "DateTime", "descending");
    expect(descending.map((index) => rows[index]?.[1])).toEqual(["first", "third", "second"]);
  });
});

describe("nextSort", () => {
  it("goes ascending, descending, then off, and starts over on another column", () => {
    const ascending = nextSort(null, 2);
    expect(ascending).toEqual({ columnIndex: 2, direction: "ascending" });
    const descending = nextSort(ascending, 2);
    expect(descending).toEqual({ columnIndex: 2, direction: "descending" });
    expect(nextSort(descending, 2)).toBeNull();
    expect(nextSort(descending, 0)).toEqual({ columnIndex: 0, direction: "ascending" });
  });
});

describe("estimateColumnWidth", () => {
  it("fits the header and the sampled values between the minimum and the cap", () => {
    const short = estimateColumnWidth({ name: "n", type: "Int8" }, 0, [[1], [2]]);
    expect(short).toBe(MIN_COLUMN_WIDTH);
    const named = estimateColumnWidth({ name: "yes_probability", type: "Float64" }, 0, [[0.5]]);
    expect(named).toBeGreaterThan(short);
    const long = estimateColumnWidth({ name: "raw", type: "String" }, 0, [["x".repeat(5_000)]]);
    expect(long).toBe(MAX_INITIAL_COLUMN_WIDTH);
  });

  it("samples a long result instead of reading every row", () => {
    const rows = Array.from({ length: 100_000 }, (_, index) => [index === 77_777 ? "x".repeat(40) : "1"]);
    let reads = 0;
    const counted = rows.map(
      (row) =>
        new Proxy(row, {
          get: (target, key) => {
            reads++;
            return Reflect.get(target, key);
          },
        }),
    );
    estimateColumnWidth({ name: "s", type: "String" }, 0, counted);
    expect(reads).toBeLessThan(300);
  });
});
