/**
 * String arguments that the engine parses as SQL when the function runs, where the
 * syntax tree shows only a string literal: a structure (`values('a String DEFAULT
 * file(…)', …)` evaluates the default), a format name. Every such argument of a function
 * the sandbox allows is named here; it must be a literal, and what it says is checked.
 * Types need no entry: the engine's type parser admits no expression (measured:
 * `CAST(x, 'Tuple(a String DEFAULT …)')` is a syntax error).
 */
import { type AstNode, functionName } from "./ast-dump";
import { SandboxRefusal } from "./errors";

/**
 * String arguments the engine parses as SQL when the function runs, by lower-cased
 * function name: the argument's position, and what it is parsed as.
 * - `structure`: column definitions. `DEFAULT`, `ALIAS`, `MATERIALIZED` and `EPHEMERAL`
 *   carry expressions the engine evaluates (measured: `values('a String, b String ALIAS
 *   file(…)', 'x')` read the file for `b`), so only plain `name Type` lists pass.
 * - `format`: an output format name, from a short list of text formats.
 * The structure functions without a table (`structureTo…Schema`) evaluate nothing, but
 * are held to the same rule rather than audited twice.
 */
const PARSED_ARGUMENTS: Record<string, { index: number; as: "structure" | "format" }> = {
  values: { index: 0, as: "structure" },
  generaterandom: { index: 0, as: "structure" },
  structuretoprotobufschema: { index: 0, as: "structure" },
  structuretocapnprotoschema: { index: 0, as: "structure" },
  formatrow: { index: 0, as: "format" },
  formatrownonewline: { index: 0, as: "format" },
};

/** Words that make a column definition more than a name and a type. */
const COLUMN_MODIFIERS = new Set([
  "default",
  "materialized",
  "alias",
  "ephemeral",
  "codec",
  "ttl",
  "comment",
  "statistics",
  "settings",
  "constraint",
  "check",
  "index",
  "projection",
  "primary",
]);

const ROW_FORMATS = new Set(
  [
    "CSV",
    "CSVWithNames",
    "TSV",
    "TSVRaw",
    "TSVWithNames",
    "TabSeparated",
    "TabSeparatedRaw",
    "TabSeparatedWithNames",
    "JSONEachRow",
    "JSONCompactEachRow",
    "JSONStringsEachRow",
    "JSONCompactStringsEachRow",
    "Values",
    "Markdown",
    "XML",
  ].map((name) => name.toLowerCase()),
);

/** Nodes a `values()` first argument may be when it is rows rather than a structure. */
const ROW_NODES = new Set(["tuple", "array", "negate"]);

/** The argument of `node` that the engine will parse as SQL: a literal that says nothing it could execute. */
export function checkStringArgument(node: AstNode): void {
  const name = functionName(node);
  const parsed = PARSED_ARGUMENTS[name];
  if (!parsed) return;
  const shown = functionName(node, true);
  const argument = node.children[0]?.children[parsed.index];
  if (!argument) return;
  const isString = argument.type === "Literal" && argument.text !== undefined;
  if (parsed.as === "format") {
    if (!isString || !ROW_FORMATS.has((argument.text as string).toLowerCase())) {
      throw new SandboxRefusal(
        `${shown}() takes its format as a string literal, one of CSV, TSV, JSONEachRow, JSONCompactEachRow, Values, Markdown or XML.`,
      );
    }
    return;
  }
  if (isString) {
    const modifier = columnModifierIn(argument.text as string);
    if (modifier) {
      throw new SandboxRefusal(
        `The structure given to ${shown}() may only name columns and their types; ${modifier.toUpperCase()} is not allowed there.`,
      );
    }
    return;
  }
  // `values((1, 'a'), (2, 'b'))` and `values(1, 2)` are rows, not a structure.
  if (
    name === "values" &&
    (argument.type === "Literal" || (argument.type === "Function" && ROW_NODES.has(functionName(argument))))
  ) {
    return;
  }
  throw new SandboxRefusal(
    `${shown}() takes its structure as a string literal, such as '${"id UInt32, name String"}'; an expression, an alias or a subquery cannot stand in for it.`,
  );
}

/**
 * The first word of `structure` that would make a column definition evaluate something,
 * as the engine's lexer would see it: runs of ASCII letters, digits and `_` (and bytes
 * past ASCII, which it also takes as word characters), compared without case. A word
 * inside a quoted name or a comment counts too: refusing more than the engine would
 * parse is the safe side.
 */
export function columnModifierIn(structure: string): string | undefined {
  let word = "";
  for (let index = 0; index <= structure.length; index++) {
    const code = index < structure.length ? structure.charCodeAt(index) : 32;
    const isWordCharacter =
      (code >= 48 && code <= 57) ||
      (code >= 65 && code <= 90) ||
      (code >= 97 && code <= 122) ||
      code === 95 ||
      code >= 128;
    if (isWordCharacter) {
      if (word.length <= 16) word += String.fromCharCode(code);
      continue;
    }
    if (word !== "" && COLUMN_MODIFIERS.has(word.toLowerCase())) return word;
    word = "";
  }
  return undefined;
}
