/**
 * String arguments that the engine parses as SQL when the function runs, where the
 * syntax tree shows only a string: a structure (`values('a String DEFAULT file(…)', …)`
 * evaluates the default) and a format name. Which functions take one is said by their
 * class (`function-classes.ts`); the third kind, an aggregate named in a string
 * (`arrayReduce`), is refused outright by the allow-list. Each such argument
 * must be a string literal in the tree — not an expression, an alias, a parameter or a
 * subquery, which could fold to any text — and the literal must match a strict grammar
 * that admits names, types and literal values only.
 */
import { type AstNode, functionName } from "./ast-dump";
import { SandboxRefusal } from "./errors";
import type { FunctionClass } from "./function-classes";
import { type SqlToken, tokenizeSql } from "./sql-text";

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

/** Words that give a column definition an expression or more than a type; refused inside a type's brackets too. */
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

/** Table functions whose first argument is a structure. */
const STRUCTURE_TABLE_FUNCTIONS = new Set(["values", "generaterandom"]);

/** Nodes a `values()` first argument may be when it is rows rather than a structure. */
const ROW_NODES = new Set(["tuple", "array", "negate"]);

/**
 * Checks the argument of `node` that its class says the engine parses as SQL.
 */
export function checkStringArgument(node: AstNode, kind: FunctionClass): void {
  const shown = functionName(node, true);
  switch (kind) {
    case "format":
      checkFormat(shown, node.children[0]?.children[0]);
      return;
    case "formatParameter":
      // `groupFormat('CSV')(x)`: the parameters are the second list.
      checkFormat(shown, node.children[1]?.children[0]);
      return;
    case "structure":
      checkStructure(shown, node.children[0]?.children[0]);
      return;
    default:
      return;
  }
}

/** The arguments of a table function the allow-list admits: `values` and `generateRandom` take a structure. */
export function checkTableFunctionArguments(node: AstNode): void {
  const name = functionName(node);
  if (!STRUCTURE_TABLE_FUNCTIONS.has(name)) return;
  const argument = node.children[0]?.children[0];
  if (!argument) return;
  // `values((1, 'a'), (2, 'b'))` and `values(1, 2)` are rows, not a structure.
  if (
    name === "values" &&
    ((argument.type === "Literal" && argument.text === undefined) ||
      (argument.type === "Function" && ROW_NODES.has(functionName(argument))))
  ) {
    return;
  }
  checkStructure(functionName(node, true), argument);
}

function literalText(argument: AstNode | undefined): string | undefined {
  return argument?.type === "Literal" ? argument.text : undefined;
}

function checkFormat(shown: string, argument: AstNode | undefined): void {
  const text = literalText(argument);
  if (text === undefined || !ROW_FORMATS.has(text.toLowerCase())) {
    throw new SandboxRefusal(
      `${shown}() takes its format as a string literal, one of CSV, TSV, JSONEachRow, JSONCompactEachRow, Values, Markdown or XML.`,
    );
  }
}

function checkStructure(shown: string, argument: AstNode | undefined): void {
  if (!argument) return;
  const text = literalText(argument);
  if (text === undefined) {
    throw new SandboxRefusal(
      `${shown}() takes its structure as a string literal, such as 'id UInt32, name String'; an expression, an alias or a subquery cannot stand in for it.`,
    );
  }
  const problem = structureProblem(text);
  if (problem) {
    throw new SandboxRefusal(
      `The structure given to ${shown}() may only name columns and their types; ${problem} is not allowed there.`,
    );
  }
}

function isPlainString(token: SqlToken): boolean {
  return token.kind === "string" && !token.unterminated && !/[\\']/.test(token.value);
}

/**
 * What in a structure (`'name Type, name Type(…)'`) could make the engine evaluate an
 * expression (`DEFAULT`, `ALIAS`, …), or undefined when nothing can. A column may be
 * called anything (`comment String`, `index UInt32`): a modifier counts where it follows
 * a complete type, or inside a type's brackets, where only names, numbers and plain
 * strings may stand (`Enum8('a' = 1)`, `Tuple(x String)`, `DateTime('UTC')`). Text that
 * is not a column list at all is refused only if it holds such a word anywhere: without
 * one the engine can read no expression from it, and `values()` takes it as a row.
 */
export function structureProblem(structure: string): string | undefined {
  const tokens = tokenizeSql(structure).filter((token) => token.kind !== "whitespace" && token.kind !== "comment");
  const problem = columnListProblem(tokens);
  if (problem === undefined || problem.isModifier) return problem?.text;
  const modifier = tokens.find((token) => token.kind === "word" && COLUMN_MODIFIERS.has(token.value.toLowerCase()));
  return modifier ? shownToken(modifier) : undefined;
}

function columnListProblem(tokens: readonly SqlToken[]): { text: string; isModifier: boolean } | undefined {
  const at = (token: SqlToken | undefined, otherwise: string) => ({
    text: token ? shownToken(token) : otherwise,
    isModifier: token?.kind === "word" && COLUMN_MODIFIERS.has(token.value.toLowerCase()),
  });
  let index = 0;
  while (index < tokens.length) {
    const name = tokens[index];
    if (name?.kind !== "word" && name?.kind !== "quoted-identifier") return at(name, "an empty column");
    const type = tokens[index + 1];
    if (type?.kind !== "word") return at(type, "a column without a type");
    index += 2;
    if (tokens[index]?.value === "(") {
      let depth = 0;
      for (; index < tokens.length; index++) {
        const token = tokens[index] as SqlToken;
        if (token.value === "(") depth++;
        else if (token.value === ")") depth--;
        else if (
          (token.kind === "word" && COLUMN_MODIFIERS.has(token.value.toLowerCase())) ||
          (!(token.kind === "word" || token.kind === "number" || token.kind === "quoted-identifier") &&
            !isPlainString(token) &&
            !(token.kind === "punctuation" && [",", "=", "-"].includes(token.value)))
        ) {
          return at(token, "");
        }
        if (depth === 0) break;
      }
      if (depth !== 0) return at(undefined, "an unclosed bracket");
      index++;
    }
    const next = tokens[index];
    if (next === undefined) return undefined;
    if (next.value !== ",") return at(next, "");
    index++;
  }
  return at(undefined, "a trailing comma");
}

function shownToken(token: SqlToken): string {
  if (token.kind === "word") return token.value.toUpperCase().slice(0, 40);
  return `'${token.value.slice(0, 40)}'`;
}
