import { describe, expect, it } from "vitest";
import { allowListPolicy, checkStatementTree, parseAstDump } from "./allow-list";
import { byteOffsetToIndex, cleanMessage, lineAndColumn, SandboxRefusal } from "./errors";

// Dumps as chDB 26.7 prints them for `EXPLAIN AST …`.
const JOIN_IN = `SelectWithUnionQuery (children 1)
 ExpressionList (children 1)
  SelectQuery (children 3)
   ExpressionList (children 1)
    Asterisk
   TablesInSelectQuery (children 1)
    TablesInSelectQueryElement (children 1)
     TableExpression (children 1)
      TableIdentifier polymarket.markets (alias m)
   Function globalNotIn (children 1)
    ExpressionList (children 2)
     Identifier id
     Identifier system.one
`;

const FORMAT = `SelectWithUnionQuery (children 2)
 ExpressionList (children 1)
  SelectQuery (children 1)
   ExpressionList (children 1)
    Literal UInt64_1
 Identifier CSV
`;

const policy = allowListPolicy(["numbers", "file", "format", "merge"], ["polymarket", "kalshi", "internal", "system"]);
const check =
  (dump: string, ctes: string[] = []) =>
  () =>
    checkStatementTree(parseAstDump(dump), { cteNames: new Set(ctes) }, policy);

describe("parseAstDump", () => {
  it("rebuilds the tree from indentation, without aliases and child counts", () => {
    const [root] = parseAstDump(JOIN_IN);
    const table = root?.children[0]?.children[0]?.children[1]?.children[0]?.children[0]?.children[0];
    expect(table).toMatchObject({ type: "TableIdentifier", argument: "polymarket.markets" });
  });
});

describe("checkStatementTree", () => {
  it("refuses a database-qualified IN set outside the market databases", () => {
    expect(check(JOIN_IN)).toThrow(/Table system\.one is not available/);
  });

  it("refuses FORMAT by the extra child of the outer select", () => {
    expect(check(FORMAT)).toThrow(/FORMAT is not allowed/);
  });

  it("allows an unqualified table only when the statement defines it", () => {
    const dump = `SelectWithUnionQuery (children 1)
 ExpressionList (children 1)
  SelectQuery (children 2)
   ExpressionList (children 1)
    Asterisk
   TablesInSelectQuery (children 1)
    TablesInSelectQueryElement (children 1)
     TableExpression (children 1)
      TableIdentifier recent
`;
    expect(check(dump, ["recent"])).not.toThrow();
    expect(check(dump)).toThrow(/needs its database/);
  });

  it("refuses a table function off the list and every non-select statement", () => {
    const tableFunction = `SelectWithUnionQuery (children 1)
 ExpressionList (children 1)
  SelectQuery (children 2)
   ExpressionList (children 1)
    Asterisk
   TablesInSelectQuery (children 1)
    TablesInSelectQueryElement (children 1)
     TableExpression (children 1)
      Function merge (children 1)
       ExpressionList (children 2)
        Literal 'system'
        Literal '.*'
`;
    expect(check(tableFunction)).toThrow(/table function merge\(\)/);
    expect(check("InsertQuery   (children 1)\n Identifier t\n")).toThrow(/Only SELECT/);
    expect(check("SYSTEM query\n")).toThrow(/Only SELECT/);
    expect(check("Set\n")).toThrow(/Only SELECT/);
  });

  it("refuses file-family names as plain functions but lets format() format", () => {
    const call = (name: string) => `SelectWithUnionQuery (children 1)
 ExpressionList (children 1)
  SelectQuery (children 1)
   ExpressionList (children 1)
    Function ${name} (children 1)
     ExpressionList (children 1)
      Literal 'x'
`;
    expect(check(call("file"))).toThrow(SandboxRefusal);
    expect(check(call("dictGetString"))).toThrow(/dictGetString/);
    expect(check(call("format"))).not.toThrow();
  });
});

describe("error positions and messages", () => {
  it("converts the engine's UTF-8 byte positions to editor positions", () => {
    const sql = "SELECT 'é',\nFROM";
    const offset = byteOffsetToIndex(sql, Buffer.byteLength("SELECT 'é',\n"));
    expect(lineAndColumn(sql, offset)).toEqual({ line: 2, column: 1, offset: 12 });
  });

  it("drops the framing that describes our statement rather than the user's", () => {
    expect(
      cleanMessage(
        "Code: 47. DB::Exception: Unknown expression identifier `nope` in scope SELECT nope. In scope /* epicenter-qid:x */ SELECT * FROM (SELECT nope) LIMIT 11. (UNKNOWN_IDENTIFIER) (version 26.7.2.1)",
      ),
    ).toBe("Unknown expression identifier `nope` in scope SELECT nope.");
  });
});
