import { describe, expect, it } from "vitest";
import { prepareStatement, StatementError } from "./statement";

const server = { version: "26.7.2.1", revision: 54500 };
const prepare = (text: string, database = "polymarket") => prepareStatement(text, database, server);

describe("prepareStatement", () => {
  it("takes a trailing FORMAT (and the client's `;`) off as the output format", () => {
    expect(prepare("SELECT 1 \nFORMAT JSONEachRow;")).toEqual({ sql: "SELECT 1 \n", format: "JSONEachRow" });
    expect(prepare("SELECT 'FORMAT CSV' AS f")).toEqual({ sql: "SELECT 'FORMAT CSV' AS f", format: undefined });
  });

  it("refuses an INSERT as read-only, its data's FORMAT included, not as a syntax error", () => {
    for (const insert of ["INSERT INTO polymarket.markets FORMAT TSV", "insert into t (id) VALUES (1)"]) {
      expect(() => prepare(insert)).toThrow(expect.objectContaining({ code: 164, errorName: "READONLY" }));
    }
    expect(() => prepare("INSERT INTO t FORMAT TSV")).toThrow(/read-only: INSERT is not run here/);
  });

  it("turns introspection statements into SELECTs over the catalogue views", () => {
    expect(prepare("SHOW DATABASES").sql).toBe("SELECT name FROM epicenter_system.databases ORDER BY name");
    expect(prepare("SHOW TABLES FROM \"kalshi\" LIKE 'm%' LIMIT 5").sql).toBe(
      "SELECT name FROM epicenter_system.tables WHERE database = 'kalshi' AND name LIKE 'm%' ORDER BY name LIMIT 5",
    );
    expect(prepare("SHOW TABLES", "kalshi").sql).toContain("database = 'kalshi'");
    expect(prepare("DESC TABLE `polymarket`.`markets`").sql).toContain(
      "FROM epicenter_system.columns WHERE database = 'polymarket' AND table = 'markets' ORDER BY position",
    );
    expect(prepare("EXISTS TABLE markets", "kalshi").sql).toBe(
      "SELECT toUInt8(count() > 0) AS result FROM epicenter_system.tables WHERE database = 'kalshi' AND name = 'markets'",
    );
  });

  it("puts names back as string literals, never as SQL", () => {
    expect(prepare("SHOW TABLES FROM `x' OR 1=1 --`").sql).toContain("database = 'x\\' OR 1=1 --'");
    expect(() => prepare("SHOW TABLES FROM a WHERE 1")).toThrow(StatementError);
    expect(() => prepare("SHOW GRANTS")).toThrow(/Only SHOW DATABASES, SHOW TABLES and SHOW CREATE TABLE/);
  });

  it("points system.x and information_schema.x at the catalogue views, qualified columns included", () => {
    expect(prepare("SELECT system.tables.name FROM system.tables JOIN INFORMATION_SCHEMA.COLUMNS c ON 1").sql).toBe(
      "SELECT epicenter_system.tables.name FROM epicenter_system.tables JOIN epicenter_information_schema.COLUMNS c ON 1",
    );
    // A column or alias called system is not a database.
    expect(prepare("SELECT t.system FROM polymarket.markets AS t").sql).toBe(
      "SELECT t.system FROM polymarket.markets AS t",
    );
  });

  it("answers the server functions with fixed values under their own column names", () => {
    expect(prepare("SELECT version(), timezone()").sql).toBe("SELECT ('26.7.2.1' AS `version()`), timezone()");
    expect(prepare("SELECT displayName(), revision() AS r").sql).toBe(
      "SELECT ('epicenter' AS `displayName()`), (toUInt32(54500) AS `revision()`) AS r",
    );
    expect(prepare("SELECT version FROM polymarket.markets").sql).toBe("SELECT version FROM polymarket.markets");
  });

  // Linear time (issue 23, finding 7): a quadratic rewrite would not return 40,000 calls
  // within the test's timeout; the ratio of 8× the calls is `npm run bench -- --only linear`.
  it("rewrites every server call of a statement that holds 40,000 of them", () => {
    for (const calls of [5_000, 40_000]) {
      const { sql } = prepare(`SELECT ${"version(),".repeat(calls)} 1`);
      expect(sql.split("AS `version()`")).toHaveLength(calls + 1);
    }
  });
});
