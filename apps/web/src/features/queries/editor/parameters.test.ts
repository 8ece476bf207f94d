import { queryParameters } from "@epicenter/contracts";
import { describe, expect, it } from "vitest";
import { firstUnready, inputOf, parameterMessage, valuesFor } from "./parameters";

describe("inputOf", () => {
  it("gives whole numbers a number input with step 1, and unsigned ones a minimum of 0", () => {
    expect(inputOf("UInt16")).toEqual({ kind: "number", step: "1", min: "0" });
    expect(inputOf("UInt64")).toEqual({ kind: "number", step: "1", min: "0" });
    expect(inputOf("Int32")).toEqual({ kind: "number", step: "1" });
  });

  it("gives floats and decimals a number input with any step", () => {
    expect(inputOf("Float64")).toEqual({ kind: "number", step: "any" });
    expect(inputOf("Decimal(18, 4)")).toEqual({ kind: "number", step: "any" });
  });

  it("gives dates the date picker, booleans a choice and date-times a text input with the format", () => {
    expect(inputOf("Date")).toEqual({ kind: "date" });
    expect(inputOf("Date32")).toEqual({ kind: "date" });
    expect(inputOf("Bool")).toEqual({ kind: "boolean" });
    expect(inputOf("DateTime")).toEqual({ kind: "text", placeholder: "YYYY-MM-DD hh:mm:ss" });
    expect(inputOf("DateTime64(3, 'UTC')")).toEqual({ kind: "text", placeholder: "YYYY-MM-DD hh:mm:ss" });
  });

  it("reads LowCardinality as its inner type and keeps Nullable as text so \\N can be typed", () => {
    expect(inputOf("LowCardinality(String)")).toEqual({ kind: "text" });
    expect(inputOf("LowCardinality(UInt8)")).toEqual({ kind: "number", step: "1", min: "0" });
    expect(inputOf("Nullable(UInt32)")).toEqual({ kind: "text", placeholder: "\\N for NULL" });
    expect(inputOf("Nullable(DateTime)")).toEqual({ kind: "text", placeholder: "YYYY-MM-DD hh:mm:ss, or \\N" });
  });

  it("gives strings, arrays and everything else text", () => {
    expect(inputOf("String")).toEqual({ kind: "text" });
    expect(inputOf("Identifier")).toEqual({ kind: "text" });
    expect(inputOf("Array(String)")).toEqual({ kind: "text", placeholder: "['a', 'b']" });
    expect(inputOf("Array(UInt32)")).toEqual({ kind: "text", placeholder: "[1, 2]" });
  });
});

describe("parameterMessage", () => {
  it("asks for a value when there is none", () => {
    expect(parameterMessage("String", undefined)).toBe("Enter a value.");
    expect(parameterMessage("UInt16", "")).toBe("Enter a value.");
  });

  it("says what the type expects when the value cannot be it", () => {
    expect(parameterMessage("UInt16", "70000")).toBe("Expected a whole number from 0 to 65535.");
    expect(parameterMessage("UInt16", "1.5")).toBe("Expected a whole number from 0 to 65535.");
    expect(parameterMessage("Date", "2025-02-30")).toBe("Expected a date as YYYY-MM-DD.");
    expect(parameterMessage("Float64", "abc")).toBe("Expected a number.");
  });

  it("is quiet when the value will do", () => {
    expect(parameterMessage("UInt16", "7")).toBeUndefined();
    expect(parameterMessage("String", "512272")).toBeUndefined();
    expect(parameterMessage("Date", "2025-02-28")).toBeUndefined();
  });
});

describe("firstUnready and valuesFor", () => {
  const parameters = queryParameters(
    "SELECT * FROM polymarket.prices WHERE id = {market_id:String} AND ts >= now() - INTERVAL {days:UInt16} DAY",
  );

  it("finds the first parameter a run cannot go with", () => {
    expect(firstUnready(parameters, {})?.name).toBe("market_id");
    expect(firstUnready(parameters, { market_id: "512272", days: "-1" })?.name).toBe("days");
    expect(firstUnready(parameters, { market_id: "512272", days: "7" })).toBeUndefined();
  });

  it("sends the statement's values only, in its order, and leaves empty ones out", () => {
    expect(valuesFor(parameters, { days: "7", market_id: "512272", old_name: "x" })).toEqual({
      market_id: "512272",
      days: "7",
    });
    expect(Object.keys(valuesFor(parameters, { days: "7", market_id: "512272" }))).toEqual(["market_id", "days"]);
    expect(valuesFor(parameters, { market_id: "", days: "7" })).toEqual({ days: "7" });
  });
});
