/**
 * Validation of user SQL before it runs, in three passes that each stop at the first
 * problem:
 * 1. Our lexer (`sql-text.ts`): one statement, no `INTO OUTFILE`, no dotted quoted names.
 *    Nothing reaches the engine before this passes, because chDB executes every
 *    statement of a multi-statement input, even under `EXPLAIN`.
 * 2. `SELECT formatQuery({sql:String})`: the engine's own parser, with the text bound as
 *    a parameter (never spliced into SQL). It refuses multi-statements itself, so a gap
 *    in our lexer fails closed, and its syntax errors carry the position.
 * 3. `EXPLAIN AST <statement>`: the engine's syntax tree, which parses and executes
 *    nothing, checked against the allow-list (`allow-list.ts`).
 *
 * Both engine calls are about a millisecond each on chDB (measured: `formatQuery` 1.3 ms,
 * `EXPLAIN AST` 0.9 ms warm), and run on the sandbox connection that then runs the query,
 * so validation adds no pool round trip.
 */
import type { ClickHouseClient } from "@clickhouse/client";
import { type AllowListPolicy, checkStatementTree, parseAstDump } from "./allow-list";
import { QueryEngineError, readEngineFailure, SandboxRefusal, syntaxErrorFrom } from "./errors";
import { internalsOf, type Sandbox, text } from "./sandbox";
import { cteNames, refuseByWords, SETTINGS_REFUSAL, singleStatement } from "./sql-text";

/** Longest statement accepted; the engine's `max_query_size` is 256 KiB and our wrapping needs room. */
export const MAX_QUERY_LENGTH = 100_000;

export interface ValidatedStatement {
  /** The statement as submitted, without a trailing `;` and what followed it. */
  body: string;
}

/** Checks `sql` on a sandbox connection; throws `SandboxRefusal` or `QuerySyntaxError`. */
export function validateUserSql(sandbox: Sandbox, sql: string): Promise<ValidatedStatement> {
  const inner = internalsOf(sandbox);
  return inner.lease((connection) => validateOn(connection.client, sql, inner.policy));
}

/**
 * Statements already accepted, per policy (one per sandbox), newest last. Validation costs
 * two engine round trips and its answer depends only on the text and the policy, so the
 * queries people repeat (dashboards, saved queries, API scripts) skip it. Refusals are not
 * kept: they are rare and cheap to recompute.
 */
const accepted = new WeakMap<AllowListPolicy, Map<string, ValidatedStatement>>();
const ACCEPTED_PER_POLICY = 1_000;

export async function validateOn(
  client: ClickHouseClient,
  sql: string,
  policy: AllowListPolicy,
): Promise<ValidatedStatement> {
  const known = accepted.get(policy) ?? new Map<string, ValidatedStatement>();
  accepted.set(policy, known);
  const hit = known.get(sql);
  if (hit) {
    known.delete(sql);
    known.set(sql, hit);
    return hit;
  }
  const statement = await validateUncached(client, sql, policy);
  known.set(sql, statement);
  if (known.size > ACCEPTED_PER_POLICY) known.delete(known.keys().next().value as string);
  return statement;
}

async function validateUncached(
  client: ClickHouseClient,
  sql: string,
  policy: AllowListPolicy,
): Promise<ValidatedStatement> {
  if (sql.length > MAX_QUERY_LENGTH) {
    throw new SandboxRefusal(`The query is longer than ${MAX_QUERY_LENGTH.toLocaleString("en-US")} characters.`);
  }
  const statement = singleStatement(sql);
  refuseByWords(statement.tokens);

  try {
    await text(client, "SELECT formatQuery({sql:String})", { params: { sql: statement.body } });
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
    dump = await text(client, `EXPLAIN AST\n${statement.body}\n`);
  } catch (error) {
    // `formatQuery` accepted it, so this is a statement EXPLAIN cannot show (a bare
    // `SET`, `USE`…): not one we run either.
    const failure = readEngineFailure(error);
    if (failure.name === "SYNTAX_ERROR") {
      throw new SandboxRefusal("Only SELECT queries are allowed (SELECT, WITH … SELECT, UNION).");
    }
    // A SETTINGS clause the word check did not recognise, applied to the EXPLAIN itself.
    if (failure.name === "READONLY") throw new SandboxRefusal(SETTINGS_REFUSAL);
    throw new QueryEngineError(failure.message, failure.name);
  }
  checkStatementTree(parseAstDump(dump), { cteNames: cteNames(statement.tokens) }, policy);
  return { body: statement.body };
}
