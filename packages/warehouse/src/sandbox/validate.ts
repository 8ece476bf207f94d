/**
 * Validation of user SQL before it runs, in three passes that each stop at the first
 * problem:
 * 1. Our lexer (`sql-text.ts`): one statement, no `INTO OUTFILE`, no dotted quoted names;
 *    the one unnamed argument of an as-of view is named (`as-of.ts`).
 *    Nothing reaches the engine before this passes, because chDB executes every
 *    statement of a multi-statement input, even under `EXPLAIN`.
 * 2. `SELECT formatQuery({sql:String})`: the engine's own parser, with the text bound as
 *    a parameter (never spliced into SQL). It refuses multi-statements itself, so a gap
 *    in our lexer fails closed, and its syntax errors carry the position.
 * 3. `EXPLAIN AST <statement>`: the engine's syntax tree, which parses and executes
 *    nothing, checked against the allow-list (`allow-list.ts`).
 *
 * Both engine calls run on the engine session (the confined worker) that then runs the
 * query, so the parser never runs with more rights than the query would. Their cost is in
 * docs/BENCHMARKS.md ("Sandbox choices").
 */
import { createHash } from "node:crypto";
import { MAX_QUERY_LENGTH } from "@epicenter/contracts";
import { type AllowListPolicy, checkStatementTree, parseAstDump } from "./allow-list";
import { nameAsOfArguments } from "./as-of";
import type { EngineSession } from "./engine";
import { QueryEngineError, readEngineFailure, SandboxRefusal, syntaxErrorFrom } from "./errors";
import { cteNames, refuseByWords, SETTINGS_REFUSAL, singleStatement } from "./sql-text";

export interface ValidatedStatement {
  /** The statement as submitted, without a trailing `;` and what followed it. */
  body: string;
}

/**
 * What a statement runs with besides its text: the values of its `{name:Type}` parameters
 * (bound by the engine, as text) and the database unqualified table names are read from.
 */
export interface QueryBinding {
  params?: Readonly<Record<string, string>> | undefined;
  database?: string | undefined;
}

/**
 * Statements already accepted, newest last, kept by the sandbox. Validation costs two
 * engine round trips and its answer depends only on the text and the policy, so the
 * queries people repeat (dashboards, saved queries, API scripts) skip it. Refusals are
 * not kept: they are rare and cheap to recompute. Entries are keyed by a hash of what the
 * answer depends on (the text, the database, the values of the parameters it uses: the
 * sandbox drops the others first) and bounded in count and in the bytes of the text kept.
 */
export class ValidationCache {
  private readonly accepted = new Map<string, ValidatedStatement>();
  private bytes = 0;

  constructor(
    private readonly maxEntries = 1_000,
    private readonly maxBytes = 16 * 1024 ** 2,
  ) {}

  get size(): { entries: number; bytes: number } {
    return { entries: this.accepted.size, bytes: this.bytes };
  }

  async validate(
    session: EngineSession,
    sql: string,
    policy: AllowListPolicy,
    binding: QueryBinding = {},
  ): Promise<ValidatedStatement> {
    // Parameter values are part of the tree the allow-list reads (a bound `Identifier`
    // names a table), and the database decides what an unqualified name is.
    const key = createHash("sha256")
      .update(JSON.stringify([sql, binding.database ?? null, binding.params ?? null]))
      .digest("base64");
    const hit = this.accepted.get(key);
    if (hit) {
      this.accepted.delete(key);
      this.accepted.set(key, hit);
      return hit;
    }
    const statement = await validateOn(session, sql, policy, binding);
    this.accepted.set(key, statement);
    this.bytes += statement.body.length;
    while (this.accepted.size > this.maxEntries || this.bytes > this.maxBytes) {
      const [oldest, entry] = this.accepted.entries().next().value as [string, ValidatedStatement];
      this.accepted.delete(oldest);
      this.bytes -= entry.body.length;
    }
    return statement;
  }
}

/** Checks `sql` on an engine session; throws `SandboxRefusal` or `QuerySyntaxError`. */
export async function validateOn(
  session: EngineSession,
  sql: string,
  policy: AllowListPolicy,
  binding: QueryBinding = {},
): Promise<ValidatedStatement> {
  if (sql.includes("\0")) throw new SandboxRefusal("The query contains a NUL character; remove it.");
  if (sql.length > MAX_QUERY_LENGTH) {
    throw new SandboxRefusal(`The query is longer than ${MAX_QUERY_LENGTH.toLocaleString("en-US")} characters.`);
  }
  const statement = singleStatement(nameAsOfArguments(sql));
  refuseByWords(statement.tokens);

  try {
    await session.queryText("SELECT formatQuery({sql:String})", { params: { sql: statement.body } });
  } catch (error) {
    const failure = readEngineFailure(error);
    if (failure.message.includes("Multi-statements are not allowed")) {
      throw new SandboxRefusal("Only one statement can run at a time; remove everything after the first ';'.");
    }
    if (failure.name === "SYNTAX_ERROR" || failure.code === 62) throw syntaxErrorFrom(failure, sql);
    throw new QueryEngineError(failure.message, failure.name);
  }

  let dump: string;
  try {
    dump = await session.queryText(
      `EXPLAIN AST\n${statement.body}\n`,
      binding.params === undefined ? {} : { params: binding.params },
    );
  } catch (error) {
    // `formatQuery` accepted it, so this is a statement EXPLAIN cannot show (a bare
    // `SET`, `USE`…): not one we run either.
    const failure = readEngineFailure(error);
    if (failure.name === "SYNTAX_ERROR") {
      throw new SandboxRefusal("Only SELECT queries are allowed (SELECT, WITH … SELECT, UNION).");
    }
    // A SETTINGS clause the word check did not recognise, applied to the EXPLAIN itself.
    if (failure.name === "READONLY") throw new SandboxRefusal(SETTINGS_REFUSAL);
    if (failure.name === "UNKNOWN_QUERY_PARAMETER" || failure.name === "BAD_QUERY_PARAMETER") {
      throw new SandboxRefusal(parameterFailure(failure.message));
    }
    throw new QueryEngineError(failure.message, failure.name);
  }
  checkStatementTree(
    parseAstDump(dump),
    { cteNames: cteNames(statement.tokens), defaultDatabase: binding.database },
    policy,
  );
  return { body: statement.body };
}

/** The engine's complaint about a parameter, without its stack of codes. */
function parameterFailure(message: string): string {
  const unset = /Substitution `([^`]+)` is not set/.exec(message);
  if (unset) return `Parameter ${unset[1]} has no value.`;
  const text = message
    .replace(/^Code: \d+\. DB::Exception: /, "")
    .replace(/\s*\([A-Z_]+\)\s*(\(version [^)]*\))?\s*$/, "");
  return text.slice(0, 300);
}
