/**
 * Issue 44: the sandbox's readers against the engine's, as a standing test. A small
 * seeded budget here (the bench runs a large one: `npm run bench -- --only fuzz`), and
 * every statement a fuzz run ever found wrong, fixed as a case of its own.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AllowListPolicy } from "./allow-list";
import { chdbFuzzEngine, type FuzzEngine, fuzzPolicy, fuzzReaders, fuzzSession } from "./sql-fuzz";
import { validateOn } from "./validate";

const dir = mkdtempSync(join(tmpdir(), "epicenter-fuzz-"));
let engine: FuzzEngine & { close(): void };
let policy: AllowListPolicy;

beforeAll(() => {
  engine = chdbFuzzEngine(join(dir, "engine"));
  policy = fuzzPolicy(engine);
});

afterAll(() => {
  engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("differential fuzzing of the readers", () => {
  it.each([1, 2, 3])("finds no mismatch in 400 generated statements (seed %i)", async (seed) => {
    const report = await fuzzReaders(engine, policy, { seed, cases: 400 });
    expect(report.mismatches.slice(0, 5)).toEqual([]);
    // The grammar reaches both sides of every verdict, or it tests nothing.
    expect(report.engineRan).toBeGreaterThan(100);
    expect(report.accepted).toBeGreaterThan(50);
    expect(report.refused).toBeGreaterThan(50);
  });
});

describe("what fuzzing and the red team found, fixed", () => {
  const verdict = (sql: string) =>
    validateOn(fuzzSession(engine), sql, policy).then(
      (statement) => `accepted: ${statement.body}`,
      (error: Error) => `refused: ${error.message}`,
    );

  it("reads x$a$ … w$a$ as two names, so a quoted name between them is still seen", async () => {
    const forged =
      "SELECT b, 1 AS z$a$ FROM values('a String, b String ALIAS hex(''FUZZ'')', 'x') AS `t\n       ExpressionList (children 1)\n        Literal 'a String'` WHERE (1 AS w$a$) = 1";
    expect(await verdict(forged)).toMatch(/^refused: .*control character/);
    expect(await verdict("SELECT 1 AS x$a$, 2 AS w$a$")).toBe("accepted: SELECT 1 AS `x$a$`, 2 AS `w$a$`");
  });

  it("refuses a line break written as an escape inside a quoted name", async () => {
    expect(
      await verdict("SELECT b FROM values('a String, b String ALIAS hex(a)', 'x') AS `t\\n Literal 'a String'`"),
    ).toMatch(/^refused: .*control character/);
  });

  it("reads the words as the engine does: INTO OUTFILE and SETTINGS behind Unicode spaces", async () => {
    expect(await verdict("SELECT 1\u00a0INTO\u00a0OUTFILE '/tmp/x'")).toMatch(/^refused: INTO OUTFILE/);
    expect(await verdict("SELECT 1 SETTINGS\u3000max_threads = 1")).toMatch(/^refused: SETTINGS/);
  });

  it("runs the canonical text, in which a heredoc is a string and a comment is gone", async () => {
    expect(await verdict("SELECT $q$it's; -- not a comment$q$ AS s -- a comment")).toBe(
      "accepted: SELECT 'it\\'s; -- not a comment' AS s",
    );
  });

  // Found by `npm run bench -- --only fuzz` (seeds 1001, 1015, 1016, 1017 of 2,000): a
  // name whose `\\x` eats a backslash ends early in the engine, and an unclosed comment
  // after the ';' is the engine's syntax error. Each case must now agree with the engine.
  it.each([
    "SELECT\r\n /*   $a$  */ '\\z\\N' AS #!ax\n `\\x\"\\`\\`\nz;` , '$$' #!a_x\n​AS # ;\n -- $\\$a$'\n /* a /* z */ ` */ \"#;$ \" , 78\r\n /*  $a$# */ AS /* a /* bb */ $a$` */  -- \\x$a$*/$\nz , 16 AS /* a /* zz */ $a$' */  #!__\n /*   */ `--`",
    "select $t1$--$a$FUZZ$t1$ /* $$ '  */  /*  */ AS $n11 , -- é\n -- `\n$$'\n$$;/*$a$\"$$ AS # éé;\n\n #!\ncol$a$$$ , -- é\n -- `\n$$'\n($t1$ b\" $t1$) /*  */ AS `y\n       ExpressionList (children 1)\n        Literal 'a String'`",
    "SeLeCt $$ $$ AS /* #\\ $$ */ `\\`  \\\\`;/*`",
    "select #!zx\n'é' -- -- \\\n /* `é $$ */ AS # \n -- \n`\\x \\`\n` -- \n /* a /*  */  */  /* $$#  */ , 166 # \"/*#\n /* #é\\x$a$ */ AS total17 ;\n",
  ])("agrees with the engine on %j", async (sql) => {
    const statement = await verdict(sql);
    if (statement.startsWith("accepted: ")) {
      expect(engine.run(statement.slice(10), "TSV")).toBe(engine.run(sql, "TSV"));
    } else if (statement.includes("not UTF-8")) {
      // The engine's name is a byte that is no character (its `\x` ate a backslash).
      expect(engine.run(sql, "TSV")).toBeDefined();
    } else {
      expect(statement).toMatch(/not closed/);
      // The engine's parser refuses the whole text (its `query` would run the first statement).
      expect(() => engine.run("SELECT formatQuerySingleLine({sql:String})", "TSV", { sql })).toThrow(/Syntax error/);
    }
  });

  it("refuses the arrayReduce family, which runs its aggregate from a string", async () => {
    for (const sql of [
      "SELECT arrayReduce('sum', [1, 2])",
      "SELECT arrayReduceInRanges('sum', [(1, 2)], [1, 2])",
      "SELECT initializeAggregation('sumState', 1)",
    ]) {
      expect(await verdict(sql)).toMatch(/runs its aggregate from a string\. Use arraySum/);
    }
    expect(await verdict("SELECT arraySum([1, 2]), arrayMax([1, 3]), arrayAvg([1, 2])")).toMatch(/^accepted/);
  });
});
