import type { Table } from "@epicenter/contracts";
import { describe, expect, it } from "vitest";
import { searchSchema } from "./schema-model";

const table = (namespace: "polymarket" | "kalshi", name: string, columns: string[], description = ""): Table => ({
  name,
  table_name: name,
  namespace,
  source: namespace === "kalshi" ? "Kalshi" : "Polymarket",
  full_name: `${namespace}.${name}`,
  description,
  columns: columns.map((column) => ({ name: column, type: "String", description: null })),
  row_count: null,
});

const TABLES = [
  table("polymarket", "markets", ["id", "question", "volume24hr"], "Every snapshot of every market"),
  table("polymarket", "trades", ["id", "price", "size"]),
  table("kalshi", "candles", ["ticker", "price_close", "volume"], "Candles of each market's price"),
];

describe("searchSchema", () => {
  it("lists every table by database, with all its columns, when nothing is searched", () => {
    const groups = searchSchema(TABLES, "");
    expect(groups.map((group) => [group.database, group.entries.map((entry) => entry.table.name)])).toEqual([
      ["polymarket", ["markets", "trades"]],
      ["kalshi", ["candles"]],
    ]);
    expect(groups[0]?.entries[0]?.columns).toHaveLength(3);
  });

  it("finds a table by its name or description, with all its columns", () => {
    const [group] = searchSchema(TABLES, "snapshot");
    expect(group?.entries.map((entry) => [entry.table.name, entry.columns.length, entry.isOpenedBySearch])).toEqual([
      ["markets", 3, false],
    ]);
  });

  it("finds columns across tables and opens their tables, every word counting", () => {
    // The table matches by its description; its column matching a word opens it.
    expect(searchSchema(TABLES, "candles close")[0]?.entries[0]?.isOpenedBySearch).toBe(true);
    const groups = searchSchema(TABLES, "price");
    expect(
      groups.flatMap((group) =>
        group.entries.map((entry) => [entry.table.full_name, entry.columns.map((c) => c.name)]),
      ),
    ).toEqual([
      ["polymarket.trades", ["price"]],
      ["kalshi.candles", ["ticker", "price_close", "volume"]],
    ]);
    expect(searchSchema(TABLES, "kalshi volume")[0]?.entries[0]?.columns.map((column) => column.name)).toEqual([
      "volume",
    ]);
    expect(searchSchema(TABLES, "no such thing")).toEqual([]);
  });
});
