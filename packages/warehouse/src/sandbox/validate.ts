/**
 * Validation of user SQL before it runs, in passes that each stop at the first problem:
 * 1. Our lexer (`sql-text.ts`): one statement, no `INTO OUTFILE` or `SETTINGS`, no name
 *    with a control character; the one unnamed argument of an as-of view is named
 *    (`as-of.ts`). Nothing reaches the engine before this passes, because chDB executes
 *    every statement of a multi-statement input, even under `EXPLAIN`.
 * 2. `formatQuerySingleLine({sql:String})`: the engine's own parser, with the text bound as
 *    a parameter (never spliced into SQL), prints the statement back in its canonical form
 *    (`canonical.ts`). From here on every check reads that text, and that text is what
 *    runs: the words of pass 1 again, as the engine read them, and its names.
 * 3. `EXPLAIN AST <canonical text>`: the engine's syntax tree, which parses and executes
 *    nothing, read back strictly (`ast-dump.ts`) and checked against the allow-list
 *    (`allow-list.ts`). Parameters are bound with a placeholder of their type (its
 *    default value, asked of the engine once per type), except `Identifier` ones, whose
 *    value is a name the allow-list must see: so the tree, and the work of reading it,
 *    grow with the statement, never with the size of a value times its uses.
 *
 * The engine calls run on the engine session (the confined worker) that then runs the
 * query, so the parser never runs with more rights than the query would. Their cost is in
 * docs/BENCHMARKS.md ("Sandbox choices").
 */
import { createHash } from "node:crypto";
import { MAX_QUERY_LENGTH, type QueryParameter } from "@epicenter/contracts";
import { type AllowListPolicy, checkStatementTree, parseAstDump } from "./allow-list";
import { nameAsOfArguments } from "./as-of";
import { canonicalStatement } from "./canonical";
import type { EngineSession } from "./engine";
import { QueryEngineError, readEngineFailure, SandboxRefusal } from "./errors";
import { cteNames, hasControl, refuseByWords, SETTINGS_REFUSAL, singleStatement } from "./sql-text";

export interface ValidatedStatement {
  /** The engine's canonical text of the statement: what was checked, and what runs. */
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

/** The longest value an `Identifier` parameter may have: a table or column name. */
export const MAX_IDENTIFIER_PARAM = 1_024;

/** The dump `EXPLAIN AST` may print for a statement of `length` characters: far above any real tree's. */
const maxDumpLength = (length: number) => 64 * length + 1024 ** 2;

/**
 * Statements already accepted, newest last, kept by the sandbox. Validation costs engine
 * round trips and its answer depends only on the text, the database, the policy and the
 * values of `Identifier` parameters (the others are bound as placeholders), so the
 * queries people repeat (dashboards, saved queries, API scripts) skip it. Refusals are
 * not kept: they are rare and cheap to recompute. Entries are keyed by a hash of the text
 * and the database, hold the `Identifier` values they were checked with (a hit with other
 * values validates again), and are bounded in count and in the bytes of text kept. The
 * placeholders, one per parameter type, are kept beside them, bounded too.
 */
export class ValidationCache {
  private readonly accepted = new Map<string, { statement: ValidatedStatement; identifiers: [string, string][] }>();
  private readonly placeholders = new Map<string, string>();
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
    const key = createHash("sha256")
      .update(JSON.stringify([sql, binding.database ?? null]))
      .digest("base64");
    const hit = this.accepted.get(key);
    if (hit?.identifiers.every(([name, value]) => binding.params?.[name] === value)) {
      this.accepted.delete(key);
      this.accepted.set(key, hit);
      return hit.statement;
    }
    const { statement, identifiers } = await checkOn(session, sql, policy, binding, this.placeholders);
    if (hit) this.forget(key);
    this.accepted.set(key, { statement, identifiers });
    this.bytes += weight(statement, identifiers);
    while (this.accepted.size > this.maxEntries || this.bytes > this.maxBytes) {
      this.forget(this.accepted.keys().next().value as string);
    }
    if (this.placeholders.size > 256) this.placeholders.clear();
    return statement;
  }

  private forget(key: string): void {
    const entry = this.accepted.get(key);
    if (!entry) return;
    this.accepted.delete(key);
    this.bytes -= weight(entry.statement, entry.identifiers);
  }
}

const weight = (statement: ValidatedStatement, identifiers: [string, string][]) =>
  statement.body.length + identifiers.reduce((sum, [name, value]) => sum + name.length + value.length, 0);

/** Checks `sql` on an engine session; throws `SandboxRefusal` or `QuerySyntaxError`. */
export async function validateOn(
  session: EngineSession,
  sql: string,
  policy: AllowListPolicy,
  binding: QueryBinding = {},
): Promise<ValidatedStatement> {
  return (await checkOn(session, sql, policy, binding, new Map())).statement;
}

async function checkOn(
  session: EngineSession,
  sql: string,
  policy: AllowListPolicy,
  binding: QueryBinding,
  placeholders: Map<string, string>,
): Promise<{ statement: ValidatedStatement; identifiers: [string, string][] }> {
  if (sql.includes("\0")) throw new SandboxRefusal("The query contains a NUL character; remove it.");
  if (sql.length > MAX_QUERY_LENGTH) {
    throw new SandboxRefusal(`The query is longer than ${MAX_QUERY_LENGTH.toLocaleString("en-US")} characters.`);
  }
  const statement = singleStatement(nameAsOfArguments(sql));
  refuseByWords(statement.tokens);
  const canonical = await canonicalStatement(session, statement.body, sql);
  refuseByWords(canonical.tokens);

  const identifiers = identifierValues(canonical.parameters, binding.params);
  const params = await explainParams(session, canonical.parameters, identifiers, placeholders);
  let dump: string;
  try {
    dump = await session.queryText(`EXPLAIN AST\n${canonical.text}\n`, params === undefined ? {} : { params });
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
  if (dump.length > maxDumpLength(canonical.text.length)) {
    throw new SandboxRefusal("The query's syntax tree is too large to check; split it into smaller queries.");
  }
  checkStatementTree(
    parseAstDump(dump),
    { cteNames: cteNames(canonical.tokens), defaultDatabase: binding.database },
    policy,
  );
  return { statement: { body: canonical.text }, identifiers };
}

/**
 * The values of the statement's `Identifier` parameters, which the tree must show: each a
 * name of bounded length without control characters (one with a line break would add
 * lines to the dump). A missing one is left for `EXPLAIN` to name.
 */
function identifierValues(parameters: readonly QueryParameter[], values: QueryBinding["params"]): [string, string][] {
  const identifiers: [string, string][] = [];
  for (const { name, type } of parameters) {
    const value = values?.[name];
    if (type !== "Identifier" || value === undefined) continue;
    if (value.length > MAX_IDENTIFIER_PARAM) {
      throw new SandboxRefusal(
        `Parameter ${name} (Identifier) is longer than ${MAX_IDENTIFIER_PARAM.toLocaleString("en-US")} characters; it names a table or a column.`,
      );
    }
    if (hasControl(value)) {
      throw new SandboxRefusal(`Parameter ${name} (Identifier) contains a line break or another control character.`);
    }
    identifiers.push([name, value]);
  }
  return identifiers;
}

/**
 * What `EXPLAIN AST` is bound with: the `Identifier` values, and for every other parameter
 * the default value of its type as the engine prints it (`0`, `[]`, `1970-01-01`, `\N`).
 * A value is never shown to the tree checks that matter — a string the engine parses as
 * SQL must be a literal written in the statement (`string-arguments.ts`), and a bound
 * parameter is a `_CAST` call — so the placeholder changes no verdict, only the dump's size.
 */
async function explainParams(
  session: EngineSession,
  parameters: readonly QueryParameter[],
  identifiers: readonly [string, string][],
  placeholders: Map<string, string>,
): Promise<Record<string, string> | undefined> {
  if (parameters.length === 0) return undefined;
  const params: Record<string, string> = Object.fromEntries(identifiers);
  for (const { name, type } of parameters) {
    if (type === "Identifier") continue;
    let placeholder = placeholders.get(type);
    if (placeholder === undefined) {
      try {
        const text = await session.queryText("SELECT defaultValueOfTypeName({type:String})", {
          format: "TabSeparated",
          params: { type },
        });
        placeholder = text.endsWith("\n") ? text.slice(0, -1) : text;
      } catch (error) {
        const failure = readEngineFailure(error);
        throw new SandboxRefusal(
          `Parameter ${name} has a type the engine cannot read (${type}): ${failure.message.slice(0, 200)}`,
        );
      }
      placeholders.set(type, placeholder);
    }
    params[name] = placeholder;
  }
  return params;
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
