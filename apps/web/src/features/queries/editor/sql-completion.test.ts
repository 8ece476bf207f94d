import type { Table } from "@epicenter/contracts";
import { describe, expect, it } from "vitest";
import { tablesReadBy } from "./sql-completion";

const table = (namespace: string, name: string): Table =>
  ({ namespace, name, columns: [{ name: "id", type: "String" }] }) as unknown as Table;
const catalog = [table("polymarket", "markets"), table("kalshi", "markets"), table("kalshi", "events")];

describe("tablesReadBy", () => {
  it("finds the tables after FROM and JOIN, quoted or not, in any case", () => {
    const sql =
      "select * from polymarket.markets m join `kalshi`.`events` e on 1 where x in (SELECT 1 FROM kalshi . markets)";
    expect(tablesReadBy(sql, catalog).map((t) => `${t.namespace}.${t.name}`)).toEqual([
      "polymarket.markets",
      "kalshi.events",
      "kalshi.markets",
    ]);
  });

  it("ignores tables the catalog does not have, on short text and on 50,000 FROMs", () => {
    expect(tablesReadBy("SELECT 1 FROM system.processes", catalog)).toEqual([]);
    // Its time on 8× the text is `npm run bench -- --only linear`.
    expect(tablesReadBy(`${"FROM ".repeat(50_000)}x`, catalog)).toEqual([]);
    expect(tablesReadBy(`SELECT 1 FROM kalshi.markets ${"FROM ".repeat(50_000)}x`, catalog)).toEqual([catalog[1]]);
  });
});
