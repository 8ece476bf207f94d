/**
 * What the sandbox needs to know about user SQL before the engine sees it, read from the
 * raw text with a lexer whose view of characters is the engine's own: where the one
 * statement ends, the names a `WITH name AS (…)` defines, and the few things that must be
 * refused before any engine call (a second statement, `INTO OUTFILE`, `SETTINGS`). Pure,
 * so it is tested without an engine; `sql-text.fuzz.integration.test.ts` compares it with
 * the engine on generated statements.
 *
 * Why a lexer and not a split on `;`: ClickHouse accepts `'…'` with both `\'` and `''`
 * escapes, `` `…` `` and `"…"` identifiers, `$$…$$` / `$tag$…$tag$` heredocs, `--` and
 * `//`, `# ` and `#!` line comments (measured: a `//` right after `*` hides the rest of the line) and NESTED `/* … *\/` block comments, and a `;` inside any of
 * them is not a statement break. Its words are `[A-Za-z0-9_$]` (a `$` may start one, and
 * `x$a$` is one name, not a name and a heredoc); its spaces are ASCII's and a list of
 * Unicode ones; any other character above ASCII outside quotes is no token at all (all
 * measured on chDB 26.7 over every code point of the BMP). This lexer is only the first
 * layer: the checks that decide run again on the engine's own canonical text
 * (`canonical.ts`), and the engine's parser refuses multi-statements itself.
 */

import { randomUUID } from "node:crypto";
import { SandboxRefusal } from "./errors";

export const SETTINGS_REFUSAL = "SETTINGS is not allowed in queries; the service sets the limits itself.";
export const MULTI_STATEMENT_REFUSAL = "Only one statement can run at a time; remove everything after the first ';'.";

export type SqlTokenKind =
  | "word"
  | "quoted-identifier"
  | "string"
  | "number"
  | "semicolon"
  | "punctuation"
  | "comment"
  | "whitespace";

export interface SqlToken {
  kind: SqlTokenKind;
  /** Offset of the first character in the text (JavaScript string index). */
  start: number;
  end: number;
  /** The token's text; for quoted identifiers the unquoted name. */
  value: string;
  /** True when a string, quoted name or comment runs to the end without closing. */
  unterminated?: boolean;
}

/** A word's characters: ASCII letters, digits, `_` and `$` (measured: `x$a$` is one name). */
const WORD_PART = /[A-Za-z0-9_$]/;
const WORD_START = /[A-Za-z_$]/;
const DIGIT = /[0-9]/;
const HEREDOC_TAG = /^\$([A-Za-z0-9_]*)\$/;

/**
 * What the engine skips as space: ASCII's six and these code points (measured over the
 * whole BMP on chDB 26.7: U+1680 is not one, U+200B–U+200D and U+2060 are). JavaScript's
 * `\s` differs on five of them, which is why it is not used.
 */
const UNICODE_SPACES = new Set([
  0x85, 0xa0, 0x180e, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x200b,
  0x200c, 0x200d, 0x2028, 0x2029, 0x202f, 0x205f, 0x2060, 0x3000, 0xfeff,
]);

/** True when the engine skips the character at `index` as white space. */
export function isEngineSpace(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code === 0x20 || (code >= 0x09 && code <= 0x0d) || (code >= 0x80 && UNICODE_SPACES.has(code));
}

/** Splits SQL into tokens, comments and whitespace included, so offsets stay exact. */
export function tokenizeSql(sql: string): SqlToken[] {
  const tokens: SqlToken[] = [];
  let i = 0;
  const push = (kind: SqlTokenKind, start: number, end: number, value = sql.slice(start, end), open = false) => {
    tokens.push(open ? { kind, start, end, value, unterminated: true } : { kind, start, end, value });
    i = end;
  };
  while (i < sql.length) {
    const ch = sql[i] as string;
    const next = sql[i + 1];
    if (isEngineSpace(sql, i)) {
      let end = i + 1;
      while (end < sql.length && isEngineSpace(sql, end)) end++;
      push("whitespace", i, end);
    } else if (
      (ch === "-" && next === "-") ||
      (ch === "/" && next === "/") ||
      (ch === "#" && (next === " " || next === "!"))
    ) {
      const newline = sql.indexOf("\n", i);
      push("comment", i, newline === -1 ? sql.length : newline);
    } else if (ch === "/" && next === "*") {
      let depth = 1;
      let end = i + 2;
      while (end < sql.length && depth > 0) {
        if (sql.startsWith("/*", end)) {
          depth++;
          end += 2;
        } else if (sql.startsWith("*/", end)) {
          depth--;
          end += 2;
        } else end++;
      }
      push("comment", i, end, sql.slice(i, end), depth > 0);
    } else if (ch === "'" || ch === "`" || ch === '"') {
      const { end, value, closed } = readQuoted(sql, i, ch);
      push(ch === "'" ? "string" : "quoted-identifier", i, end, value, !closed);
    } else if (ch === "$" && HEREDOC_TAG.test(sql.slice(i, i + 130))) {
      const delimiter = (HEREDOC_TAG.exec(sql.slice(i, i + 130)) as RegExpExecArray)[0];
      const close = sql.indexOf(delimiter, i + delimiter.length);
      if (close === -1) push("string", i, sql.length, sql.slice(i + delimiter.length), true);
      else push("string", i, close + delimiter.length, sql.slice(i + delimiter.length, close));
    } else if (WORD_START.test(ch)) {
      let end = i + 1;
      while (end < sql.length && WORD_PART.test(sql[end] as string)) end++;
      push("word", i, end);
    } else if (DIGIT.test(ch)) {
      let end = i + 1;
      while (end < sql.length && /[0-9A-Za-z_.]/.test(sql[end] as string)) end++;
      push("number", i, end);
    } else if (ch.charCodeAt(0) >= 0x80) {
      // Outside quotes the engine has no token for it (its parse fails there); one
      // character at a time, a surrogate pair included, so nothing after it is swallowed.
      const code = sql.codePointAt(i) as number;
      push("punctuation", i, i + (code > 0xffff ? 2 : 1));
    } else if (ch === ";") {
      push("semicolon", i, i + 1);
    } else {
      push("punctuation", i, i + 1);
    }
  }
  return tokens;
}

/**
 * Reads `'…'`, `` `…` `` or `"…"` as the engine does, in its two steps. Its lexer finds
 * where the token ends: a backslash takes the next character into it (so `\'` never closes
 * it) and a doubled quote is one quote. Its unescaper then reads the value from the
 * token's start with its own table (`\n` is a line break, an escape it does not know keeps
 * its backslash: `\z` is two characters) — and `\x` takes the next two characters
 * whatever they are, so after `\x\`` the backquote ends the value and the engine drops the
 * rest of the name (measured: `` `a\x"\`zz` `` is the name `a` and one byte). Both linear.
 */
function readQuoted(sql: string, start: number, quote: string): { end: number; value: string; closed: boolean } {
  let i = start + 1;
  let closed = false;
  while (i < sql.length) {
    const ch = sql[i];
    if (ch === "\\") i += 2;
    else if (ch === quote && sql[i + 1] === quote) i += 2;
    else if (ch === quote) {
      closed = true;
      break;
    } else i++;
  }
  const end = closed ? i + 1 : sql.length;
  return { end, value: unquote(sql.slice(start + 1, closed ? i : sql.length), quote), closed };
}

/** The value of a quoted token's inside, as the engine's unescaper reads it; built from slices. */
function unquote(inside: string, quote: string): string {
  const parts: string[] = [];
  let run = 0;
  let i = 0;
  while (i < inside.length) {
    const ch = inside[i];
    if (ch === "\\" && i + 1 < inside.length) {
      parts.push(inside.slice(run, i));
      const unescaped = unescapeAt(inside, i);
      parts.push(unescaped.text);
      i += unescaped.length;
      run = i;
    } else if (ch === quote) {
      parts.push(inside.slice(run, i));
      if (inside[i + 1] !== quote) return parts.join("");
      parts.push(quote);
      i += 2;
      run = i;
    } else i++;
  }
  parts.push(inside.slice(run));
  return parts.join("");
}

/**
 * The engine's one-character escapes, measured over every ASCII character: `\e` is ESC,
 * `\N` is nothing, a control character and `\ ' " ` / =` stand for themselves, and any
 * other character keeps its backslash (`\%` is two characters, for LIKE patterns).
 */
const ESCAPE_LETTERS: Readonly<Record<string, string>> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "0": "\0",
  N: "",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "`": "`",
  "/": "/",
  "=": "=",
};

/** The escape at `index` (a backslash): what it stands for and how many characters it takes. */
export function unescapeAt(text: string, index: number): { text: string; length: number } {
  const letter = text[index + 1] as string;
  if (letter === "x") {
    // The engine takes the next two characters whatever they are; two that are not hex
    // make a byte that is no character.
    const hex = text.slice(index + 2, index + 4);
    const code = /^[0-9A-Fa-f]{2}$/.test(hex) ? Number.parseInt(hex, 16) : 0xfffd;
    return { text: String.fromCharCode(code), length: Math.min(4, text.length - index) };
  }
  const known = letter.charCodeAt(0) < 0x20 ? letter : ESCAPE_LETTERS[letter];
  return known === undefined ? { text: `\\${letter}`, length: 2 } : { text: known, length: 2 };
}

const isCode = (token: SqlToken) => token.kind !== "whitespace" && token.kind !== "comment";

export interface SqlStatement {
  /** The statement without its trailing `;` and what follows it (comments, blanks). */
  body: string;
  /** Its code tokens (no comments or whitespace), for the checks that read words. */
  tokens: SqlToken[];
}

/**
 * The one statement in `sql`, or a refusal. A trailing `;` (and comments after it) is
 * fine; anything else after a `;` is a second statement, refused here because a
 * multi-statement that failed part-way leaked output into the next result on the same
 * chDB connection (DESIGN.md).
 */
export function singleStatement(sql: string): SqlStatement {
  const tokens = tokenizeSql(sql);
  const firstSemicolon = tokens.findIndex((token) => token.kind === "semicolon");
  const statementTokens = firstSemicolon === -1 ? tokens : tokens.slice(0, firstSemicolon);
  if (firstSemicolon !== -1 && tokens.slice(firstSemicolon).some((t) => isCode(t) && t.kind !== "semicolon")) {
    throw new SandboxRefusal(MULTI_STATEMENT_REFUSAL);
  }
  // What follows the `;` never reaches the engine, so its own complaint is said here.
  if (firstSemicolon !== -1 && tokens.slice(firstSemicolon).some((t) => t.unterminated)) {
    throw new SandboxRefusal("A comment after the ';' is not closed; close it with */ or remove it.");
  }
  const code = statementTokens.filter(isCode);
  if (code.length === 0) throw new SandboxRefusal("The query is empty.");
  const body = firstSemicolon === -1 ? sql : sql.slice(0, (tokens[firstSemicolon] as SqlToken).start);
  return { body, tokens: code };
}

/**
 * Refusals that are plain from the words alone, checked before the text reaches the
 * engine at all. `INTO OUTFILE` writes a file even under `readonly=1` (measured), so it
 * never goes to the engine, not even to `EXPLAIN`; nor does `SETTINGS name =`, because the
 * engine applies the outermost statement's SETTINGS to the `EXPLAIN AST` that checks it
 * (measured: `EXPLAIN AST SELECT 1 SETTINGS readonly = 0` failed with READONLY rather than
 * printing a tree). The tree check still refuses every `SETTINGS`. Quoted names with a
 * control character are refused because `EXPLAIN AST` prints one node per line: a name
 * holding a line break could add lines of its own to the tree. A dot in a quoted name is
 * fine (`AS "avg.prob"`; see `allow-list.ts`).
 */
export function refuseByWords(tokens: readonly SqlToken[]): void {
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index] as SqlToken;
    const next = tokens[index + 1];
    if (token.kind === "word" && token.value.toUpperCase() === "INTO" && next?.value.toUpperCase() === "OUTFILE") {
      throw new SandboxRefusal("INTO OUTFILE is not allowed; use the download buttons to export results.");
    }
    const after = tokens[index + 2];
    if (
      token.kind === "word" &&
      token.value.toUpperCase() === "SETTINGS" &&
      (next?.kind === "word" || next?.kind === "quoted-identifier") &&
      after?.value === "="
    ) {
      throw new SandboxRefusal(SETTINGS_REFUSAL);
    }
    if (token.kind === "quoted-identifier" && hasControl(token.value)) throw controlInName(token.value);
  }
}

/** The refusal of a quoted name holding a line break or another control character. */
export function controlInName(name: string): SandboxRefusal {
  const shown = [...name.slice(0, 80)].map((ch) => (isControl(ch.charCodeAt(0)) ? "?" : ch)).join("");
  return new SandboxRefusal(
    `The quoted name "${shown}" contains a line break or another control character; names may not.`,
  );
}

export function hasControl(text: string): boolean {
  for (let index = 0; index < text.length; index++) if (isControl(text.charCodeAt(index))) return true;
  return false;
}

function isControl(code: number): boolean {
  return code < 0x20 || code === 0x7f;
}

/**
 * Names the statement defines with `name AS (…)`, i.e. its common table expressions.
 * The pattern cannot occur elsewhere (an expression alias is `expr AS name`), and a false
 * positive only lets an unqualified name through, which then resolves inside the
 * sandbox's current database (`polymarket`), never outside the market databases.
 */
export function cteNames(tokens: readonly SqlToken[]): Set<string> {
  const names = new Set<string>();
  for (let index = 0; index + 2 < tokens.length; index++) {
    const name = tokens[index] as SqlToken;
    const as = tokens[index + 1] as SqlToken;
    const open = tokens[index + 2] as SqlToken;
    if (
      (name.kind === "word" || name.kind === "quoted-identifier") &&
      as.kind === "word" &&
      as.value.toUpperCase() === "AS" &&
      open.value === "("
    ) {
      names.add(name.value);
    }
  }
  return names;
}

/** The comment that lets another connection find this query in `system.processes`. */
export function queryTag(queryId: string): string {
  return `/* epicenter-qid:${queryId} */`;
}

export function newQueryId(): string {
  return randomUUID();
}

const QUERY_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Query ids end up inside a SQL comment, so they are held to a shape that cannot close it. */
export function assertQueryId(queryId: string): void {
  if (!QUERY_ID.test(queryId)) throw new TypeError(`query id ${JSON.stringify(queryId)} is not a safe identifier`);
}

/**
 * The statement the engine runs: the user's statement as a subquery under the service's
 * own row limit. `LIMIT n + 1` tells the caller whether rows were cut without counting
 * them all; the engine's `max_result_rows` would overshoot by a whole block. The newlines
 * keep a trailing `-- comment` in the user's text from swallowing the closing bracket, and
 * the subquery form accepts `WITH …`, `UNION …` and `ORDER BY` (whose order the outer
 * `SELECT *` keeps) unchanged.
 */
export function wrapWithLimit(body: string, rowLimit: number, queryId: string): string {
  if (!Number.isInteger(rowLimit) || rowLimit < 0) throw new RangeError(`row limit ${rowLimit} is not a whole number`);
  assertQueryId(queryId);
  return `${queryTag(queryId)} SELECT * FROM (\n${body}\n) LIMIT ${rowLimit + 1}`;
}

/** The statement of a download: the user's statement cut at `maxRows`, with no extra row to detect the cut. */
export function wrapForExport(body: string, maxRows: number, queryId: string): string {
  if (!Number.isInteger(maxRows) || maxRows < 1)
    throw new RangeError(`row limit ${maxRows} is not a positive whole number`);
  assertQueryId(queryId);
  return `${queryTag(queryId)} SELECT * FROM (\n${body}\n) LIMIT ${maxRows}`;
}
