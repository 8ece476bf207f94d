import { adviseQuery, DOCS_LATEST_ROW_SQL, DOCS_LATEST_WINDOW_SQL, REWRITE_MAX_LENGTH } from "@epicenter/contracts";
import { describe, expect, it } from "vitest";
import { EXAMPLE_QUERIES } from "./examples";

const TABLES = ["polymarket.markets", "polymarket.markets_latest", "kalshi.markets", "kalshi.markets_latest"];

/** The gallery's latest-row example, as the editor opens it. */
const PATTERN = (() => {
  const example = EXAMPLE_QUERIES.find((query) => query.title.startsWith("Latest snapshot per market"));
  if (!example) throw new Error("no latest-row example in the gallery");
  return example.sql;
})();

describe("query advice", () => {
  it("rewrites the gallery's latest-row pattern to the latest-state twin with the same time bound", () => {
    const [advice, ...more] = adviseQuery(PATTERN, TABLES);
    expect(more).toEqual([]);
    expect(advice?.title).toBe("Faster: read polymarket.markets_latest");
    expect(advice?.rewrite).toBe(`SELECT id, question, yes_probability, volume24hr, sync_timestamp
FROM polymarket.markets_latest FINAL
WHERE sync_timestamp >= now() - INTERVAL 1 DAY
ORDER BY volume24hr DESC NULLS LAST
LIMIT 20`);
  });

  it("advises on a long statement without trying a rewrite it cannot be, so typing in one never stalls", () => {
    const window = "row_number() OVER (PARTITION BY id ORDER BY sync_timestamp DESC) AS rn";
    // Nested SELECTs that never close: the rewrite's shape backtracks over them in quadratic time.
    const long = `SELECT a FROM (SELECT b, ${window} ${"SELECT c FROM ( ".repeat(6_000)} FROM polymarket.markets) WHERE rn = 1`;
    expect(long.length).toBeGreaterThan(REWRITE_MAX_LENGTH);
    // Its time on 8× the text is `npm run bench -- --only linear`.
    const [advice] = adviseQuery(long, TABLES);
    expect(advice?.title).toBe("Faster: read polymarket.markets_latest");
    expect(advice?.rewrite).toBeUndefined();
  });

  it("rewrites the docs' pattern, whose window reads every column, to the rewrite the docs show", () => {
    expect(adviseQuery(DOCS_LATEST_ROW_SQL, TABLES)[0]?.rewrite).toBe(DOCS_LATEST_WINDOW_SQL);
  });

  it("keeps outer conditions and a window without a bound, in any case and spacing", () => {
    const sql = `select ticker, status from (select ticker, status, ROW_NUMBER() over (partition by ticker order by sync_timestamp desc) n from kalshi.markets) where n = 1 and status = 'active' order by ticker`;
    expect(adviseQuery(sql, TABLES)[0]?.rewrite).toBe(
      "SELECT ticker, status\nFROM kalshi.markets_latest FINAL\nWHERE status = 'active' order by ticker",
    );
  });

  it("advises without rewriting when another filter inside the window changes which row is newest", () => {
    const sql = PATTERN.replace("WHERE sync_timestamp >= now() - INTERVAL 1 DAY", "WHERE volume24hr > 0");
    const [advice] = adviseQuery(sql, TABLES);
    expect(advice?.rewrite).toBeUndefined();
    expect(advice?.message).toMatch(/argMax\(column, sync_timestamp\)/);
    // `rn = 1 AND a OR b` would change meaning once the bound joins it.
    expect(
      adviseQuery(PATTERN.replace("WHERE rn = 1", "WHERE rn = 1 AND closed OR volume > 0"), TABLES)[0]?.rewrite,
    ).toBeUndefined();
    // `*` would also show the row number, which the twin has not.
    expect(adviseQuery(PATTERN.replace(/^SELECT [^\n]+/, "SELECT *"), TABLES)[0]?.rewrite).toBeUndefined();
  });

  it("says nothing where the pattern is not the latest row of a table with a twin", () => {
    expect(adviseQuery("SELECT id FROM polymarket.markets_latest FINAL", TABLES)).toEqual([]);
    expect(adviseQuery(PATTERN.replace("WHERE rn = 1", "WHERE rn <= 3"), TABLES)).toEqual([]);
    expect(adviseQuery(PATTERN.replace("sync_timestamp DESC", "volume DESC"), TABLES)).toEqual([]);
    expect(adviseQuery(PATTERN, ["polymarket.markets"])).toEqual([]);
  });
});
