import type { Table } from "@epicenter/contracts";
import { describe, expect, it } from "vitest";
import { catalogText } from "./grounding";

function table(name: string, columns: string[]): Table {
  return {
    name,
    table_name: name,
    namespace: "polymarket",
    source: "Polymarket",
    full_name: `polymarket.${name}`,
    description: null,
    columns: columns.map((column) => ({ name: column, type: "String", description: null })),
    row_count: null,
  };
}

describe("Seismo's catalog text", () => {
  it("lists a snapshot table's columns and tells that its latest table has them all but raw", () => {
    const text = catalogText([
      table("markets", ["id", "question", "raw"]),
      table("markets_latest", ["id", "question"]),
    ]);
    expect(text).toContain("### polymarket.markets\n- id String\n- question String\n- raw String\n");
    expect(text).toContain("### polymarket.markets_latest\nSame columns as polymarket.markets, except raw.\n");
  });
});
