import { describe, expect, it } from "vitest";
import { SandboxRefusal } from "./errors";
import { cteNames, refuseByWords, singleStatement, tokenizeSql, wrapForExport, wrapWithLimit } from "./sql-text";

const refusal = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(SandboxRefusal);
    return (error as SandboxRefusal).reason;
  }
  throw new Error("expected a refusal");
};

describe("singleStatement", () => {
  it.each([
    ["SELECT 1", "SELECT 1"],
    ["SELECT 1;", "SELECT 1"],
    ["SELECT 1 ;  \n", "SELECT 1 "],
    ["SELECT 1; -- done\n/* really */ # and #! too", "SELECT 1"],
    ["SELECT 1;;", "SELECT 1"],
    ["SELECT ';' AS s", "SELECT ';' AS s"],
    ["SELECT 'it\\'s;' AS s", "SELECT 'it\\'s;' AS s"],
    ["SELECT 'it''s;' AS s", "SELECT 'it''s;' AS s"],
    ["SELECT `a;b` FROM t", "SELECT `a;b` FROM t"],
    ['SELECT "a;""b" FROM t', 'SELECT "a;""b" FROM t'],
    ["SELECT 1 -- ; DROP TABLE t", "SELECT 1 -- ; DROP TABLE t"],
    ["SELECT 1 # ; DROP TABLE t", "SELECT 1 # ; DROP TABLE t"],
    ["SELECT 1 /* a /* nested ; */ still ; */", "SELECT 1 /* a /* nested ; */ still ; */"],
    ["SELECT $$a;b$$", "SELECT $$a;b$$"],
    ["SELECT $tag$ $$ ; $tag$", "SELECT $tag$ $$ ; $tag$"],
  ])("keeps %j as one statement", (sql, body) => {
    expect(singleStatement(sql).body).toBe(body);
  });

  it.each([
    "SELECT 1; DROP TABLE t",
    "SELECT 1;SELECT 2",
    "SELECT 'a'; SELECT 'b'",
    "SELECT 'it\\'s'; DROP TABLE t",
    "SELECT 'it''s'; DROP TABLE t",
    "SELECT 1 /* nested /* */ ; */; DROP TABLE t",
    "SELECT $x$;$x$; DROP TABLE t",
    "SELECT 1; -- comment\nDROP TABLE t",
    "SELECT `a``;`; DROP TABLE t",
  ])("refuses %j as two statements", (sql) => {
    expect(refusal(() => singleStatement(sql))).toMatch(/Only one statement/);
  });

  it("refuses an empty query", () => {
    expect(refusal(() => singleStatement("  -- nothing\n ;"))).toMatch(/empty/);
  });
});

describe("refuseByWords", () => {
  const words = (sql: string) => () => refuseByWords(singleStatement(sql).tokens);

  it.each([
    ["SELECT 1 INTO OUTFILE '/tmp/x'", /INTO OUTFILE/],
    ["SELECT 1 into\n  /* c */ outfile '/tmp/x'", /INTO OUTFILE/],
    ["SELECT 1 SETTINGS readonly = 0", /SETTINGS/],
    ["SELECT * FROM (SELECT 1 settings `readonly`=0)", /SETTINGS/],
    ["SELECT * FROM `a\nb`", /control character/],
  ])("refuses %j", (sql, reason) => {
    expect(refusal(words(sql))).toMatch(reason);
  });

  it.each([
    "SELECT 'INTO OUTFILE' AS s",
    "SELECT settings FROM t WHERE settings = 1",
    "SELECT `polymarket`.`markets`.id FROM polymarket.markets",
    'SELECT avg(yes_probability) AS "avg.prob" FROM polymarket.markets_latest',
    "SELECT 1 AS `a.b.c`",
  ])("lets %j through", (sql) => {
    expect(words(sql)).not.toThrow();
  });
});

describe("cteNames", () => {
  it("finds the names a WITH defines, and only those", () => {
    const { tokens } = singleStatement(
      "WITH a AS (SELECT 1), `b c` AS (SELECT 2), 5 AS five SELECT x AS y FROM a JOIN `b c` USING (x)",
    );
    expect([...cteNames(tokens)]).toEqual(["a", "b c"]);
  });
});

describe("tokenizeSql", () => {
  it("keeps offsets exact, so the body can be cut from the original text", () => {
    const sql = "SELECT 'é' /* ü */ , 1";
    const tokens = tokenizeSql(sql);
    expect(tokens.map((token) => sql.slice(token.start, token.end)).join("")).toBe(sql);
  });

  // Each case as chDB 26.7 reads it (issue 44): what the engine calls one token is one here.
  const code = (sql: string) =>
    tokenizeSql(sql)
      .filter((token) => token.kind !== "whitespace" && token.kind !== "comment")
      .map((token) => [token.kind, token.value]);

  it("takes $ as a word character, so x$a$ … w$a$ is two names and no heredoc", () => {
    expect(code("SELECT 1 AS x$a$, 2 AS w$a$")).toEqual([
      ["word", "SELECT"],
      ["number", "1"],
      ["word", "AS"],
      ["word", "x$a$"],
      ["punctuation", ","],
      ["number", "2"],
      ["word", "AS"],
      ["word", "w$a$"],
    ]);
    expect(code("SELECT 1 AS $a, $a$x$a$")).toEqual([
      ["word", "SELECT"],
      ["number", "1"],
      ["word", "AS"],
      ["word", "$a"],
      ["punctuation", ","],
      ["string", "x"],
    ]);
  });

  it("skips the engine's Unicode spaces and no others", () => {
    expect(code("SELECT\u00a01\u200bAS\u3000a")).toEqual([
      ["word", "SELECT"],
      ["number", "1"],
      ["word", "AS"],
      ["word", "a"],
    ]);
    // U+1680 is a space to JavaScript, not to the engine; é is no token outside quotes.
    expect(code("a\u1680b")).toEqual([
      ["word", "a"],
      ["punctuation", "\u1680"],
      ["word", "b"],
    ]);
    expect(code("SELECT 1\u00a0INTO\u00a0OUTFILE 'x'").map(([, value]) => value)).toEqual([
      "SELECT",
      "1",
      "INTO",
      "OUTFILE",
      "x",
    ]);
  });

  it("reads // as a line comment, as the engine does (held-out fuzz seed 5011)", () => {
    expect(code("SELECT *//* c */, 2 AS b\n, 3")).toEqual([
      ["word", "SELECT"],
      ["punctuation", "*"],
      ["punctuation", ","],
      ["number", "3"],
    ]);
  });

  it("reads # as a comment only before a space or !", () => {
    expect(code("SELECT 1 # x")).toEqual([
      ["word", "SELECT"],
      ["number", "1"],
    ]);
    expect(code("SELECT 1 #x")).toEqual([
      ["word", "SELECT"],
      ["number", "1"],
      ["punctuation", "#"],
      ["word", "x"],
    ]);
  });

  it("unescapes quoted text as the engine does", () => {
    expect(code("SELECT 1 AS `a\\nb`")[3]).toEqual(["quoted-identifier", "a\nb"]);
    expect(code("SELECT '\\x41\\z\\N\\e'")[1]).toEqual(["string", "A\\z\x1b"]);
  });

  it("ends a quote where the engine does, whatever follows a backslash", () => {
    expect(code("SELECT '\\x' AS a")).toEqual([
      ["word", "SELECT"],
      ["string", "\ufffd"],
      ["word", "AS"],
      ["word", "a"],
    ]);
    expect(code("SELECT '\\\nb\\%' AS a")[1]).toEqual(["string", "\nb\\%"]);
  });

  it("ends a name's value where the engine's unescaper does, after \\x takes a backslash", () => {
    expect(code('SELECT 1 AS `a\\x"\\`\\`\nz`')).toEqual([
      ["word", "SELECT"],
      ["number", "1"],
      ["word", "AS"],
      ["quoted-identifier", "a\ufffd"],
    ]);
  });

  it("refuses an unclosed comment after the ';', which the engine would refuse", () => {
    expect(refusal(() => singleStatement("SELECT 1; /* open /* */"))).toMatch(/not closed/);
  });

  it("refuses a quoted name with an escaped line break, as it refuses a typed one", () => {
    expect(refusal(() => refuseByWords(singleStatement("SELECT 1 AS `a\\nb`").tokens))).toMatch(/control character/);
  });

  it("marks what runs to the end without closing", () => {
    expect(tokenizeSql("SELECT 'abc").at(-1)).toMatchObject({ kind: "string", unterminated: true });
    expect(tokenizeSql("SELECT 1 /* /* */").at(-1)).toMatchObject({ kind: "comment", unterminated: true });
  });
});

describe("wrapping", () => {
  it("puts the user's statement under the service's limit, plus one row to detect the cut", () => {
    expect(wrapWithLimit("SELECT 1 -- trailing", 100, "q-1")).toBe(
      "/* epicenter-qid:q-1 */ SELECT * FROM (\nSELECT 1 -- trailing\n) LIMIT 101",
    );
    expect(wrapForExport("WITH a AS (SELECT 1) SELECT * FROM a", 5, "q-2")).toBe(
      "/* epicenter-qid:q-2 */ SELECT * FROM (\nWITH a AS (SELECT 1) SELECT * FROM a\n) LIMIT 5",
    );
  });

  it("refuses a query id that could close the tag's comment", () => {
    expect(() => wrapWithLimit("SELECT 1", 1, "x */ DROP")).toThrow(TypeError);
  });
});
