import { describe, expect, it } from "vitest";
import { BrokenRowError, joinRows, keyRows } from "./rows-json";

/** A row as the engine writes it in `JSONCompactEachRow`: values separated by ", ". */
const line = (values: unknown[]) => Buffer.from(`[${values.map((value) => JSON.stringify(value)).join(", ")}]`);

describe("rows as JSON text", () => {
  const rows = [
    ["a, b", [1, [2, "]"]], { "k, {": 'v"}' }, null, "18446744073709551615"],
    ["\\", [], {}, true, "0"],
    ['é ☃ \u0001 "', [[]], { a: [{ b: "[" }] }, false, "1"],
  ];
  const names = ["text", "list", "object", "flag", "big"];

  it("keys each top-level value by its column, whatever separators its text holds", () => {
    const keyed = JSON.parse(keyRows(rows.map(line), names).toString("utf8"));
    expect(keyed).toEqual(rows.map((row) => Object.fromEntries(names.map((name, i) => [name, row[i]]))));
  });

  it("joins the value arrays unchanged", () => {
    expect(JSON.parse(joinRows(rows.map(line)).toString("utf8"))).toEqual(rows);
  });

  it("answers an empty array for no rows, and keeps the last of two columns called alike as JSON.parse does", () => {
    expect(keyRows([], names).toString()).toBe("[]");
    expect(joinRows([]).toString()).toBe("[]");
    expect(JSON.parse(keyRows([line([1, 2])], ["n", "n"]).toString())).toEqual([{ n: 2 }]);
    expect(keyRows([line([1, 2])], ["n", "n"]).toString()).toBe('[{"n":1,"n":2}]');
  });

  it("refuses a line that is not a row of the result's columns", () => {
    expect(() => keyRows([Buffer.from('{"a":1}')], ["a"])).toThrow(BrokenRowError);
    expect(() => keyRows([line([1, 2, 3])], ["a", "b"])).toThrow(/more values/);
    expect(() => keyRows([line([1])], ["a", "b"])).toThrow(/fewer values/);
  });
});
