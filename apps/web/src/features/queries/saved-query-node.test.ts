/** A saved query opens, forks and runs in the SPA as the one query value, with its parameter values. */

import { type ChartSpec, savedQueryNode } from "@epicenter/contracts";
import { describe, expect, it } from "vitest";

describe("savedQueryNode", () => {
  it("is the saved query as the one query value, its chart as the view and its parameter values kept", () => {
    const chart: ChartSpec = { kind: "chart", type: "line", x: "day", y: ["price"] };
    expect(savedQueryNode({ sql: "SELECT {id:String}", title: "One market", chart, params: { id: "512272" } })).toEqual(
      { kind: "sql", sql: "SELECT {id:String}", title: "One market", view: chart, params: { id: "512272" } },
    );
    expect(savedQueryNode({ sql: "SELECT 1", title: "One", chart: null, params: {} })).toEqual({
      kind: "sql",
      sql: "SELECT 1",
      title: "One",
    });
  });
});
