import { describe, expect, it } from "vitest";
import { formatSql } from "./sql-format";

describe("formatSql", () => {
  it("lays a one-line query out by clause", () => {
    const outcome = formatSql("select id, question from polymarket.markets_latest final where not closed limit 10");
    expect(outcome).toEqual({
      ok: true,
      sql: "select\n  id,\n  question\nfrom\n  polymarket.markets_latest final\nwhere\n  not closed\nlimit\n  10",
    });
  });

  it("keeps {name:Type} parameters whole, and a column named as a keyword as it is spelled", () => {
    const outcome = formatSql("select * from kalshi.markets where ticker = {ticker:String} and volume > {min:UInt64}");
    expect(outcome.ok && outcome.sql).toContain("ticker = {ticker:String}");
    expect(outcome.ok && outcome.sql).toContain("volume > {min:UInt64}");
  });

  it("leaves a text it cannot read as it is, and says why", () => {
    const outcome = formatSql("select 'unterminated");
    expect(outcome.ok).toBe(false);
  });
});
