/**
 * Differential fuzzing of the sandbox's readers against the engine (issue 44), the way
 * ClickHouse's own AST fuzzer and SQLancer find parser bugs: a seeded generator writes
 * statements from a small grammar that leans on every place a reader of SQL can go wrong —
 * names with `$` (`x$a$`), quotes of every kind with both escapes, heredocs, nested and line
 * comments, the engine's Unicode spaces and JavaScript's, line breaks inside quoted names,
 * names that spell out lines of an `EXPLAIN AST` dump — and each statement is read twice:
 * by us, and by the engine, whose answer is the oracle. Three properties, each a mismatch
 * when it fails:
 *
 * - `lexer`: where the engine sees N columns with these names and these string values, our
 *   lexer (`sql-text.ts`) sees the same N names and values.
 * - `canonical`: a statement the sandbox accepts runs, as its canonical text, to the same
 *   columns and values as the user's text; one it refuses for a name with a control
 *   character really has such a name, and it refuses nothing else the engine runs.
 * - `verdict`: under a policy where `hex()` stands for a function that reads outside the
 *   market tables, no statement the sandbox accepts makes the engine evaluate it — whether
 *   called plainly, inside a `values()` structure's `ALIAS`, or behind forged dump lines.
 *
 * The engine is anything that runs one statement (`FuzzEngine`): the tests and the bench
 * give it an in-process chDB session. Every mismatch it ever finds becomes a fixed case in
 * `sql-fuzz.integration.test.ts`.
 */
import { Session } from "chdb";
import { seededRandom } from "../seeded-random";
import { type AllowListPolicy, allowListPolicy } from "./allow-list";
import type { EngineSession } from "./engine";
import { hasControl, type SqlToken, singleStatement } from "./sql-text";
import { validateOn } from "./validate";

export { seededRandom };

/** Runs one statement and returns its output in `format`, throwing the engine's error. */
export interface FuzzEngine {
  run(sql: string, format: string, params?: Record<string, string>): string;
}

export type FuzzProperty = "lexer" | "canonical" | "verdict";

export interface FuzzMismatch {
  property: FuzzProperty;
  sql: string;
  detail: string;
}

export interface FuzzReport {
  seed: number;
  cases: number;
  /** Statements the engine ran (the others it refused to parse: still checked for `verdict`). */
  engineRan: number;
  accepted: number;
  refused: number;
  mismatches: FuzzMismatch[];
}

/** What the sentinel `hex('FUZZ')` evaluates to: seen in a result only if the engine ran it. */
const SENTINEL_OUTPUT = "46555A5A";

class Writer {
  constructor(private readonly random: () => number) {}

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)] as T;
  }

  chance(p: number): boolean {
    return this.random() < p;
  }

  int(low: number, high: number): number {
    return low + Math.floor(this.random() * (high - low + 1));
  }

  /** Space or comments between two tokens: never empty where a space is needed. */
  trivia(): string {
    if (!this.chance(0.45)) return " ";
    const parts: string[] = [];
    for (let count = this.int(1, 3); count > 0; count--) parts.push(this.pick(TRIVIA)(this));
    return parts.join("");
  }

  text(alphabet: readonly string[], low: number, high: number): string {
    let out = "";
    for (let count = this.int(low, high); count > 0; count--) out += this.pick(alphabet);
    return out;
  }
}

/** Characters that trip readers: quotes, `$`, escapes, statement and comment starts, spaces of every kind. */
const TRICKY = [
  "$",
  "$a$",
  "$$",
  "'",
  '"',
  "`",
  "\\",
  "\\x",
  ";",
  "--",
  "#",
  "/*",
  "*/",
  "\n",
  " ",
  "\u00a0",
  "\u2028",
  "é",
];
const LETTERS = ["a", "b", "x", "z", "_", "q"];
const SPACES = [" ", "\t", "\n", "\r\n", "\u00a0", "\u2003", "\u3000", "\ufeff", "\u200b", "\u0085", "\u2028"];

const TRIVIA: ReadonlyArray<(w: Writer) => string> = [
  (w) => w.pick(SPACES),
  (w) => ` -- ${w.text(TRICKY, 0, 4)}\n`,
  (w) =>
    ` # ${w.text(
      TRICKY.filter((c) => c !== "\n"),
      0,
      3,
    )}\n`,
  (w) => ` #!${w.text(LETTERS, 0, 3)}\n`,
  (w) =>
    ` /* ${w.text(
      TRICKY.filter((c) => c !== "*/"),
      0,
      4,
    )} */ `,
  (w) => ` /* a /* ${w.text(LETTERS, 0, 2)} */ ${w.text(["$a$", "'", "`"], 0, 2)} */ `,
];

/** A name as written, bare or quoted; what it is to the engine is the oracle's business. */
function name(w: Writer): string {
  switch (w.int(0, 5)) {
    case 0:
      return `${w.pick(["n", "x", "z", "w", "col"])}${w.text(["$", "a", "$a$", "1", "_", "$$"], 0, 3)}`;
    case 1:
      return `$${w.pick(["a", "b", "n1"])}${w.text(["a", "1", "_"], 0, 2)}`;
    case 2:
    case 3: {
      const quote = w.pick(["`", '"']);
      const inner = w.text([...LETTERS, ...TRICKY, "\\n", "\\t", "\\x41", `${quote}${quote}`, `\\${quote}`], 1, 6);
      return `${quote}${inner
        .split(quote)
        .join(`\\${quote}`)
        .replace(/\\\\\\/g, "\\\\")}${quote}`;
    }
    case 4:
      // A name that spells lines of a dump, to forge nodes into a reader that trusts lines.
      return `\`${w.pick(["t", "y"])}\n${w.pick(FORGED_LINES)}\``;
    default:
      return `${w.pick(["a", "b", "total", "Col"])}${w.int(0, 99)}`;
  }
}

const FORGED_LINES = [
  "       ExpressionList (children 1)\n        Literal 'a String'",
  "      Literal 'sum'",
  "    Literal UInt64_1 (alias ok)",
  "   ExpressionList (children 2)",
  ") (children 3",
  " TableIdentifier polymarket.markets",
];

/** A string literal in one of the engine's spellings. */
function stringLiteral(w: Writer): string {
  const content = w.text([...LETTERS, ...TRICKY, "FUZZ"], 0, 6);
  switch (w.int(0, 3)) {
    case 0:
      return `'${content.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
    case 1:
      return `'${content.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
    case 2: {
      const tag = w.pick(["", "a", "t1"]);
      const delimiter = `$${tag}$`;
      return `${delimiter}${content.split(delimiter).join("")}${delimiter}`;
    }
    default:
      return `'${w.text(["\\n", "\\x41", "\\z", "\\'", "\\\\", "a", "\\e", "\\N"], 0, 4)}'`;
  }
}

function value(w: Writer, hostile: boolean): string {
  if (hostile && w.chance(0.3)) return w.pick(["hex('FUZZ')", "lower(hex('FUZZ'))", "`hex`('FUZZ')"]);
  switch (w.int(0, 3)) {
    case 0:
      return String(w.int(0, 200));
    case 1:
    case 2:
      return stringLiteral(w);
    default:
      return `(${stringLiteral(w)})`;
  }
}

/** One statement of the grammar. `hostile` ones may call the sentinel and read a values() structure. */
export function generateStatement(w: Writer, hostile: boolean): string {
  const items: string[] = [];
  for (let count = w.int(1, 4); count > 0; count--) {
    items.push(`${value(w, hostile)}${w.trivia()}AS${w.trivia()}${name(w)}`);
  }
  const readsValues = hostile && w.chance(0.4);
  // The structure's ALIAS column is evaluated only when selected.
  if (readsValues) items.splice(w.int(0, items.length), 0, `b${w.trivia()}AS${w.trivia()}${name(w)}`);
  let sql = `${w.pick(["SELECT", "select", "SeLeCt"])}${w.trivia()}${items.join(`${w.trivia()},${w.trivia()}`)}`;
  if (readsValues) {
    const alias = w.pick(["a", "hex('FUZZ')", "concat(a, hex('FUZZ'))"]);
    sql += `${w.trivia()}FROM values('a String, b String ALIAS ${alias.replace(/'/g, "''")}', 'x')${w.trivia()}AS${w.trivia()}${name(w)}`;
  }
  if (w.chance(0.2)) sql += `${w.trivia()};${w.pick(["", " ", " -- done", "\n"])}`;
  return sql;
}

/** The statements of `seed`, `count` of them; every third hostile. */
export function generateStatements(seed: number, count: number): string[] {
  const w = new Writer(seededRandom(seed));
  return Array.from({ length: count }, (_, index) => generateStatement(w, index % 3 === 2));
}

/** An in-process chDB session in `path` as a `FuzzEngine`; `close` removes nothing but the session. */
export function chdbFuzzEngine(path: string): FuzzEngine & { close(): void } {
  const session = new Session(path);
  return {
    run: (sql, format, params) => (params ? session.queryBind(sql, params, format) : session.query(sql, format)),
    close: () => session.cleanup(),
  };
}

/** The engine's own policy, with `hex()` denied as the stand-in for a function that reads outside. */
export function fuzzPolicy(engine: FuzzEngine): AllowListPolicy {
  const rows = (sql: string) =>
    engine
      .run(sql, "JSONEachRow")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line));
  const base = allowListPolicy(
    rows("SELECT name FROM system.table_functions").map((row) => row.name as string),
    ["polymarket", "kalshi"],
    rows("SELECT name, alias_to, categories FROM system.functions"),
  );
  const functionClasses = new Map(base.functionClasses);
  functionClasses.set("hex", "denied");
  return { ...base, functionClasses };
}

/** An `EngineSession` over a `FuzzEngine`, for `validateOn`. */
export function fuzzSession(engine: FuzzEngine): EngineSession {
  return {
    queryText: async (sql, options = {}) =>
      engine.run(sql, options.format ?? "TabSeparatedRaw", options.params as Record<string, string> | undefined),
    stream: () => {
      throw new Error("the fuzz session runs no user statement");
    },
  };
}

interface EngineView {
  names: string[];
  values: unknown[];
  output: string;
}

/** What the engine makes of `sql`: its columns and first row, or undefined when it refuses it. */
function engineView(engine: FuzzEngine, sql: string): EngineView | undefined {
  try {
    // The engine's own parser says whether this is one statement (`query` would run two).
    engine.run("SELECT formatQuerySingleLine({sql:String})", "TabSeparatedRaw", { sql });
    const output = engine.run(sql, "JSONCompact");
    const parsed = JSON.parse(output) as { meta: Array<{ name: string }>; data: unknown[][] };
    return { names: parsed.meta.map((column) => column.name), values: parsed.data[0] ?? [], output };
  } catch {
    return undefined;
  }
}

/** Our lexer's reading of a statement of the grammar: each select item's name, and its value when a literal. */
function lexerView(
  sql: string,
): { names: Array<string | undefined>; values: Array<string | number | undefined> } | undefined {
  let tokens: SqlToken[];
  try {
    tokens = singleStatement(sql).tokens;
  } catch {
    return undefined;
  }
  const from = tokens.findIndex((token) => token.kind === "word" && token.value.toUpperCase() === "FROM");
  const items: SqlToken[][] = [[]];
  let depth = 0;
  for (const token of tokens.slice(1, from === -1 ? undefined : from)) {
    if (token.value === "(") depth++;
    if (token.value === ")") depth--;
    if (token.kind === "punctuation" && token.value === "," && depth === 0) items.push([]);
    else items.at(-1)?.push(token);
  }
  const names: Array<string | undefined> = [];
  const values: Array<string | number | undefined> = [];
  for (const item of items) {
    const last = item.at(-1);
    // `expr AS name`, or `expr name` with the AS left out (or commented out).
    const hasAs = item.at(-2)?.value.toUpperCase() === "AS";
    if (!last) return undefined;
    if (item.length === 1 || (!hasAs && last.kind !== "word" && last.kind !== "quoted-identifier")) {
      // No alias (it was commented out): the engine names the column after the expression.
      names.push(undefined);
      values.push(undefined);
      continue;
    }
    if (last.kind !== "word" && last.kind !== "quoted-identifier") return undefined;
    names.push(last.value);
    const body = item.slice(0, hasAs ? -2 : -1).filter((token) => token.value !== "(" && token.value !== ")");
    const only = body.length === 1 ? body[0] : undefined;
    values.push(only?.kind === "string" ? only.value : only?.kind === "number" ? Number(only.value) : undefined);
  }
  return { names, values };
}

/**
 * Whether a name of the statement, as the engine reads it, holds a control character: a
 * column's name, or one the engine's own formatting shows escaped in backquotes (a table's
 * alias, which is no column). Lenient where a string holds a backquote: it may miss a
 * false refusal, never invent one.
 */
function namesControl(engine: FuzzEngine, sql: string, seen: EngineView): boolean {
  if (seen.names.some(hasControl)) return true;
  const canonical = engine.run("SELECT formatQuerySingleLine({sql:String})", "TabSeparatedRaw", { sql });
  return /`(?:[^`\\]|\\.)*\\(?:[abefnrtv0]|x[01][0-9A-Fa-f]|x7[Ff])/.test(canonical);
}

/** Runs `cases` statements of `seed` through both readers and the check; the mismatches say where they differ. */
export async function fuzzReaders(
  engine: FuzzEngine,
  policy: AllowListPolicy,
  options: { seed: number; cases: number },
): Promise<FuzzReport> {
  const session = fuzzSession(engine);
  const report: FuzzReport = {
    seed: options.seed,
    cases: options.cases,
    engineRan: 0,
    accepted: 0,
    refused: 0,
    mismatches: [],
  };
  const mismatch = (property: FuzzProperty, sql: string, detail: string) =>
    report.mismatches.push({ property, sql, detail });

  for (const sql of generateStatements(options.seed, options.cases)) {
    const seen = engineView(engine, sql);
    if (seen) report.engineRan++;

    const ours = lexerView(sql);
    if (seen && !seen.output.includes(SENTINEL_OUTPUT) && !seen.output.includes("\ufffd")) {
      if (!ours) mismatch("lexer", sql, `the engine ran ${seen.names.length} columns; our lexer read no select list`);
      else if (JSON.stringify(ours).includes("\ufffd")) {
        // A `\x` before two non-hex characters is a byte the engine makes up: no value to compare.
      } else if (
        ours.names.length !== seen.names.length ||
        ours.names.some((ourName, index) => ourName !== undefined && ourName !== seen.names[index])
      ) {
        mismatch("lexer", sql, `names: engine ${JSON.stringify(seen.names)}, ours ${JSON.stringify(ours.names)}`);
      } else {
        ours.values.forEach((ourValue, index) => {
          const engineValue = seen.values[index];
          if (ourValue !== undefined && ourValue !== engineValue) {
            mismatch(
              "lexer",
              sql,
              `value ${index}: engine ${JSON.stringify(engineValue)}, ours ${JSON.stringify(ourValue)}`,
            );
          }
        });
      }
    }

    let body: string | undefined;
    let refusal: string | undefined;
    try {
      body = (await validateOn(session, sql, policy)).body;
      report.accepted++;
    } catch (error) {
      refusal = error instanceof Error ? error.message : String(error);
      report.refused++;
    }

    if (body !== undefined) {
      const ran = engineView(engine, body);
      if (seen?.output.includes(SENTINEL_OUTPUT) || ran?.output.includes(SENTINEL_OUTPUT)) {
        mismatch("verdict", sql, "accepted, and the engine evaluated the denied sentinel");
      }
      // Validation reads syntax, not meaning: a statement the engine cannot run (two
      // columns of one name) may pass it, and its canonical text must then fail too.
      if (!seen) {
        if (ran) mismatch("canonical", sql, `the canonical text runs where the user's does not: ${body}`);
      } else if (!ran) mismatch("canonical", sql, `the canonical text does not run: ${body}`);
      else if (seen.output.includes("\ufffd")) {
        // Invalid UTF-8 (`\x` before two non-hex characters) cannot be compared as text.
      } else if (JSON.stringify([ran.names, ran.values]) !== JSON.stringify([seen.names, seen.values])) {
        mismatch(
          "canonical",
          sql,
          `canonical ${JSON.stringify([ran.names, ran.values])} ≠ ${JSON.stringify([seen.names, seen.values])}`,
        );
      }
    } else if (refusal?.includes("not UTF-8")) {
      // Refused on purpose: the engine's bytes would not survive as text.
    } else if (seen && refusal?.includes("control character") && !namesControl(engine, sql, seen)) {
      mismatch("canonical", sql, `refused for a control character no name has: ${refusal}`);
    } else if (
      seen &&
      !seen.output.includes(SENTINEL_OUTPUT) &&
      !/hex|control character|structure|ALIAS/.test(refusal ?? "")
    ) {
      mismatch("canonical", sql, `refused what the engine runs harmlessly: ${refusal}`);
    }
  }
  return report;
}
