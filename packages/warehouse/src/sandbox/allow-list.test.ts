import { describe, expect, it } from "vitest";
import { allowListPolicy, checkStatementTree, isFunctionAllowed, parseAstDump } from "./allow-list";
import { byteOffsetToIndex, cleanMessage, lineAndColumn, SandboxRefusal } from "./errors";
import { structureProblem } from "./string-arguments";

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

/** `SELECT * FROM <fn>(<args>)` as the engine dumps it, the arguments' lines given. */
function tableFunction(name: string, argumentLines: string[]): string {
  return [
    "SelectWithUnionQuery (children 1)",
    " ExpressionList (children 1)",
    "  SelectQuery (children 2)",
    "   ExpressionList (children 1)",
    "    Asterisk",
    "   TablesInSelectQuery (children 1)",
    "    TablesInSelectQueryElement (children 1)",
    "     TableExpression (children 1)",
    `      Function ${name} (children 1)`,
    `       ExpressionList (children ${argumentLines.filter((line) => !line.startsWith(" ")).length})`,
    ...argumentLines.map((line) => `        ${line}`),
    "",
  ].join("\n");
}

describe("string arguments the engine parses as SQL", () => {
  const values = allowListPolicy(["numbers", "values", "generateRandom"], ["polymarket", "kalshi"]);
  const checkValues = (dump: string) => () => checkStatementTree(parseAstDump(dump), { cteNames: new Set() }, values);

  it("reads a literal's value through its escapes", () => {
    const [root] = parseAstDump(
      tableFunction("values", ["Literal 'a String DEF\\x41ULT file(\\'/etc/passwd\\')' (alias s)"]),
    );
    const literal =
      root?.children[0]?.children[0]?.children[1]?.children[0]?.children[0]?.children[0]?.children[0]?.children[0];
    expect(literal?.text).toBe("a String DEFAULT file('/etc/passwd')");
  });

  it.each([
    ["Literal 'a String DEFAULT file(\\'/etc/passwd\\')'", /DEFAULT is not allowed/],
    ["Literal 'a String, b String alias file(\\'/etc/passwd\\')'", /ALIAS is not allowed/],
    ["Literal 'a String /* x */ MATERIALIZED file(\\'/x\\')'", /MATERIALIZED is not allowed/],
    ["Literal 'a String EPHEMERAL 1, b String DEFAULT a'", /EPHEMERAL is not allowed/],
    ["Literal 'a String DEF\\x41ULT file(\\'/x\\')'", /DEFAULT is not allowed/],
    [
      "Function concat (children 1)\n ExpressionList (children 2)\n  Literal 'a String DEF'\n  Literal 'AULT 1'",
      /string literal/,
    ],
    ["Identifier s", /string literal/],
    ["Subquery (children 1)\n SelectWithUnionQuery", /string literal/],
  ])("refuses values(%s, …)", (argument, reason) => {
    expect(checkValues(tableFunction("values", [...argument.split("\n"), "Literal 'x'"]))).toThrow(reason);
  });

  it.each([
    ["Literal 'a String, b Nullable(UInt8)'"],
    ["Literal Tuple_(UInt64_1, 'a')"],
    ["Literal 'x'"],
    ["Function tuple (children 1)\n ExpressionList (children 1)\n  Function now (children 1)\n   ExpressionList"],
  ])("lets values(%s, …) through", (argument) => {
    expect(checkValues(tableFunction("values", [...argument.split("\n"), "Literal 'x'"]))).not.toThrow();
  });

  it("holds generateRandom to a literal structure of names and types", () => {
    expect(checkValues(tableFunction("generateRandom", ["Literal 'a UInt8, b String'"]))).not.toThrow();
    expect(checkValues(tableFunction("generateRandom", ["Identifier s"]))).toThrow(/string literal/);
    expect(checkValues(tableFunction("generateRandom", ["Literal 'a String TTL now()'"]))).toThrow(/TTL/);
  });

  it("reads a structure as names and types, whatever the columns are called", () => {
    for (const ok of [
      "defaults String, indexed UInt8, aliasing String",
      "outcome String, comment String",
      "index UInt32, check UInt8, primary String, default Float64",
      "e Enum8('a' = 1, 'b' = -2), t Tuple(x String, y Nullable(Float64)), d DateTime64(3, 'UTC')",
      "`odd name` LowCardinality(String)",
    ]) {
      expect(structureProblem(ok), ok).toBeUndefined();
    }
    expect(structureProblem("a String\tdefault\n'x'")).toBe("DEFAULT");
    expect(structureProblem("a String,Comment")).toBe("COMMENT");
    expect(structureProblem("x DEFAULT file('/x')")).toBe("DEFAULT");
    expect(structureProblem("x")).toBeUndefined();
    expect(structureProblem("a String COMMENT 'x'")).toBe("COMMENT");
    expect(structureProblem("t Tuple(a String DEFAULT file('/x'))")).toBe("DEFAULT");
    expect(structureProblem("a String /* x */ ALIAS 1")).toBe("ALIAS");
    expect(structureProblem("a Array(String")).toBeUndefined();
  });
});

describe("the host and engine functions", () => {
  const functions = [
    { name: "hostName", alias_to: "", categories: "Other" },
    { name: "hostname", alias_to: "hostName", categories: "" },
    { name: "addressToLine", alias_to: "", categories: "Introspection" },
    { name: "aiGenerate", alias_to: "", categories: "AI" },
    { name: "caseWithExpression", alias_to: "", categories: "Internal" },
    { name: "lower", alias_to: "", categories: "String" },
  ];
  const policy = allowListPolicy([], ["polymarket"], functions);

  it("are refused by name, by alias and by category", () => {
    for (const name of [
      "hostname",
      "hostName".toLowerCase(),
      "getoskernelversion",
      "addresstoline",
      "aigenerate",
      "sleep",
    ]) {
      expect(isFunctionAllowed(policy, name), name).toBe(false);
    }
    expect(isFunctionAllowed(policy, "caseWithExpression")).toBe(true);
    expect(isFunctionAllowed(policy, "lower")).toBe(true);
    expect(isFunctionAllowed(policy, "sumIfOrNull")).toBe(true);
    expect(isFunctionAllowed(policy, "noSuchFunction")).toBe(false);
  });
});

// A quadratic reader takes minutes on two million characters and a linear one a few
// milliseconds, so these would meet the test's timeout; the ratios of 8× the input are
// `npm run bench -- --only linear`.
describe("hostile input of two million spaces", () => {
  const spaces = " ".repeat(2_000_000);

  it("reads a dump whose literal is two million spaces", () => {
    const roots = parseAstDump(tableFunction("values", [`Literal '${spaces}x' (alias ${spaces})`]));
    expect(roots).toHaveLength(1);
  });

  it("cleans an engine message of two million spaces", () => {
    const message = cleanMessage(
      `Code: 62. DB::Exception: Syntax error: failed at position 9 (${spaces}): ${spaces}In scope ${spaces}x (SYNTAX_ERROR)`,
    );
    expect(message.length).toBeLessThan(2_100);
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

  it("says no path of the server's (issue 44)", () => {
    expect(
      cleanMessage(
        "Code: 1001. DB::Exception: std::__1::__fs::filesystem::filesystem_error: filesystem error: in posix_stat: failed to determine attributes for the specified path: Permission denied [/root/.demo-data/warehouse/shadow/epicenter-7/store/a1b/a1b2/all_1_1_0/data.bin]. (STD_EXCEPTION)",
      ),
    ).toBe(
      "std::__1::__fs::filesystem::filesystem_error: filesystem error: in posix_stat: failed to determine attributes for the specified path: Permission denied [<path>].",
    );
    // Not a path: a ratio, a date, a URL's host part, a single slash.
    expect(cleanMessage("Cannot parse 1/2 or 2026/12/01 as a number at /")).toBe(
      "Cannot parse 1/2 or 2026/12/01 as a number at /.",
    );
  });
});
