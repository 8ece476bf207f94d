import { describe, expect, it } from "vitest";
import { parseUpstreamTime, toWarehouseTime, zFlag, zNumberish, zStringList } from "./upstream-values";

describe("lenient upstream values", () => {
  it("reads numbers sent as numbers, strings, absent or empty", () => {
    expect(zNumberish.parse(5953.361)).toBe(5953.361);
    expect(zNumberish.parse("54502.0171")).toBe(54502.0171);
    expect(zNumberish.parse(undefined)).toBeNull();
    expect(zNumberish.parse("")).toBeNull();
    expect(zNumberish.safeParse("lots").success).toBe(false);
  });

  it("reads JSON-encoded string lists and real arrays", () => {
    expect(zStringList.parse('["Yes", "No"]')).toEqual(["Yes", "No"]);
    expect(zStringList.parse(["a"])).toEqual(["a"]);
    expect(zStringList.parse(undefined)).toEqual([]);
    expect(zStringList.safeParse("[broken").success).toBe(false);
  });

  it("reads ISO, Postgres-style and date-only times; Go zero time is unknown", () => {
    expect(parseUpstreamTime("2026-01-23 20:56:36+00")).toBe(Date.parse("2026-01-23T20:56:36Z"));
    expect(parseUpstreamTime("2025-02-20 18:31:00+05:30")).toBe(Date.parse("2025-02-20T18:31:00+05:30"));
    expect(parseUpstreamTime("2024-11-07T18:15:13.204038Z")).toBe(Date.parse("2024-11-07T18:15:13.204Z"));
    expect(parseUpstreamTime("2025-06-30")).toBe(Date.parse("2025-06-30T00:00:00Z"));
    expect(parseUpstreamTime("0001-01-01T00:00:00Z")).toBeNull();
    expect(parseUpstreamTime("")).toBeNull();
    expect(parseUpstreamTime("soon")).toBeUndefined();
  });

  it("writes warehouse times and refuses placeholders outside DateTime64's range", () => {
    expect(toWarehouseTime(Date.parse("2026-01-23T20:56:36Z"))).toBe("2026-01-23 20:56:36.000");
    expect(toWarehouseTime(Date.parse("2500-01-01T00:00:00Z"))).toBeNull();
    expect(toWarehouseTime(null)).toBeNull();
  });

  it("keeps absent booleans unknown", () => {
    expect(zFlag.parse(undefined)).toBeNull();
    expect(zFlag.parse(false)).toBe(false);
  });
});
