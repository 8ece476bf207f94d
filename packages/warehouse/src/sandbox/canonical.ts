/**
 * The statement that runs is the statement that was checked, and it is the engine's text,
 * not the user's. `formatQuerySingleLine` parses the user's statement with the engine's own
 * parser and prints it back in a small, regular form: keywords and names as it read them,
 * every string in `'…'` and every name that needs quoting in `` `…` `` with control
 * characters escaped, no comments, no heredocs, no `"…"` names, one line. The checks that
 * decide — the words (`INTO OUTFILE`, `SETTINGS`), the names a `WITH` defines, the
 * parameters and `EXPLAIN AST`'s tree — all read that text, and it is what the engine is
 * then given to run. So nothing the user wrote can make a reader of ours see another
 * statement than the engine's: whatever our lexer makes of `x$a$ … w$a$`, the engine has
 * already said where its names and strings are.
 *
 * One thing the canonical text still hides is a name holding a line break: `EXPLAIN AST`
 * prints names raw, so a line break written as `` `a\nb` `` (or typed inside the quotes)
 * would add lines of the user's to the tree. The canonical text shows it escaped, and
 * such a name is refused here, before `EXPLAIN` runs.
 */
import { type QueryParameter, queryParameters } from "@epicenter/contracts";
import type { EngineSession } from "./engine";
import { QueryEngineError, readEngineFailure, SandboxRefusal, syntaxErrorFrom } from "./errors";
import { controlInName, hasControl, MULTI_STATEMENT_REFUSAL, type SqlToken, tokenizeSql } from "./sql-text";

export interface CanonicalStatement {
  /** The engine's one-line text of the statement: what is checked and what runs. */
  text: string;
  /** Its code tokens (no whitespace), for the checks that read words. */
  tokens: SqlToken[];
  /** Its `{name:Type}` parameters, as the engine printed them. */
  parameters: QueryParameter[];
}

/**
 * The engine's canonical text of `body`, the user's one statement. Syntax errors carry the
 * position in `sql`, the text as the user wrote it (of which `body` is the start).
 */
export async function canonicalStatement(
  session: EngineSession,
  body: string,
  sql: string,
): Promise<CanonicalStatement> {
  let output: string;
  try {
    output = await session.queryText("SELECT formatQuerySingleLine({sql:String})", {
      format: "TabSeparatedRaw",
      params: { sql: body },
    });
  } catch (error) {
    const failure = readEngineFailure(error);
    if (failure.message.includes("Multi-statements are not allowed")) throw new SandboxRefusal(MULTI_STATEMENT_REFUSAL);
    if (failure.name === "SYNTAX_ERROR" || failure.code === 62) throw syntaxErrorFrom(failure, sql);
    throw new QueryEngineError(failure.message, failure.name);
  }
  // A `\x` escape can make bytes that are no UTF-8; read back as text they would become
  // U+FFFD, and the statement that runs would not be the one the engine parsed.
  if (output.includes("\ufffd") && !body.includes("\ufffd")) {
    throw new SandboxRefusal(
      "The statement makes bytes that are not UTF-8 (a \\x escape not followed by two hex digits, or one above \\x7F); write the character itself.",
    );
  }
  return readCanonical(output.endsWith("\n") ? output.slice(0, -1) : output);
}

/**
 * Reads the engine's canonical text: its tokens, its parameters, and a refusal for a name
 * holding a control character. Pure, for the tests. A raw control character outside a
 * string, a raw line break anywhere, or a quote left open, means the text is not what the
 * formatter prints, and is refused rather than guessed at.
 */
export function readCanonical(text: string): CanonicalStatement {
  const tokens = tokenizeSql(text).filter((token) => token.kind !== "whitespace");
  for (const token of tokens) {
    if (token.unterminated || token.kind === "comment") {
      throw new SandboxRefusal(
        "The engine printed this statement in a form the sandbox cannot read; it cannot be checked.",
      );
    }
    // The formatter escapes a line break everywhere, but prints some other control
    // characters (ESC, BEL) raw inside strings, where the dump escapes them the same way.
    const raw = token.kind === "string" ? "" : text.slice(token.start, token.end);
    if (hasControl(raw)) {
      throw new SandboxRefusal(
        "The engine printed this statement with a control character in it; it cannot be checked.",
      );
    }
    if (token.kind === "quoted-identifier" && hasControl(token.value)) throw controlInName(token.value);
    if (token.kind === "string" && token.value.includes("\n") && text.slice(token.start, token.end).includes("\n")) {
      throw new SandboxRefusal(
        "The engine printed this statement with a line break in a string; it cannot be checked.",
      );
    }
  }
  return { text, tokens, parameters: queryParameters(text) };
}
