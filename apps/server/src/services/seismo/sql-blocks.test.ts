import { describe, expect, it } from "vitest";
import { sameSql, sqlBlocksOf, titleFor } from "./sql-blocks";

describe("sqlBlocksOf", () => {
  it("finds sql-tagged and query-looking untagged blocks, in order, without trailing semicolons", () => {
    const answer = [
      "First:",
      "```sql\nSELECT 1;\n```",
      "Not this:",
      '```json\n{"a": 1}\n```',
      "```\nWITH x AS (SELECT 2) SELECT * FROM x\n```",
      "```bash\nSELECT nothing\n```",
    ].join("\n");
    expect(sqlBlocksOf(answer)).toEqual(["SELECT 1", "WITH x AS (SELECT 2) SELECT * FROM x"]);
  });

  it("finds nothing in plain prose", () => {
    expect(sqlBlocksOf("Polymarket has 12 open markets.")).toEqual([]);
  });
});

describe("titleFor", () => {
  it("prefers the answer's heading, else the question's first sentence, bounded to 80 characters", () => {
    expect(titleFor("## Top markets by volume\n...", "q")).toBe("Top markets by volume");
    expect(titleFor("Here you go", "Which markets moved most? And why")).toBe("Which markets moved most?");
    expect(titleFor("x", "a".repeat(200))).toHaveLength(78);
  });
});

describe("sameSql", () => {
  it("ignores whitespace, case and a trailing semicolon", () => {
    expect(sameSql("SELECT  1\nFROM t;", "select 1 from t")).toBe(true);
    expect(sameSql("SELECT 1", "SELECT 2")).toBe(false);
  });
});
