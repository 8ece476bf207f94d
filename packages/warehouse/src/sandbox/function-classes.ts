/**
 * What the sandbox knows of each engine function, so that the allow-list admits a
 * function only when someone has said what its arguments are. The list itself is
 * `engine-functions.ts`, taken from the engine's own catalogue; a function the running
 * engine has and the list does not is refused (and `function-classes.integration.test.ts`
 * fails), so an engine upgrade cannot add a way out unseen.
 *
 * The classes:
 * - `value`, `aggregate`: every argument (and aggregate parameter) is a value; nothing of
 *   it is parsed as SQL when the function runs. The syntax tree shows all of it.
 * - `type`: an argument is a type name, parsed by the engine's type parser, which admits
 *   literals only (measured on chDB 26.7: `CAST(x, 'AggregateFunction(groupConcat(file(…)),
 *   String)')` fails with "Expected a literal or a CAST of a literal").
 * - `sqlText`: parses SQL text to format, normalise or hash it, and runs none of it.
 * - `aggregateName`: the first argument names an aggregate function *with parameters*,
 *   which the engine evaluates as expressions when the function runs (measured:
 *   `arrayReduce('groupConcat(file(''/etc/hostname''))', …)` read the file, and a
 *   subquery's SETTINGS there raised the engine's constant limits). Refused outright.
 * - `structure`: the first argument is column definitions, whose `DEFAULT`/`ALIAS`/…
 *   expressions the engine evaluates; only `name Type` lists pass.
 * - `format`, `formatParameter`: an output format name (an argument, or the aggregate's
 *   parameter), from a short list of text formats.
 * - `denied`: reads files, hosts, other tables, dictionaries, models or settings, or tells
 *   about the host, the engine or the session (and every alias of such a function).
 * - `syntax`: names the parser gives to syntax (`x -> …`, `EXISTS`), absent from the catalogue.
 *
 * Classifying a new function: read its documentation (`system.functions.arguments`) and,
 * where an argument is a name, a structure, a type, a format or a schema, try it with an
 * expression inside that string on the engine; put it in the strictest class that fits.
 */
import { ENGINE_FUNCTIONS } from "./engine-functions";

export type FunctionClass =
  | "value"
  | "aggregate"
  | "type"
  | "sqlText"
  | "aggregateName"
  | "structure"
  | "format"
  | "formatParameter"
  | "denied"
  | "syntax";

/** Classes in the order a clash between two spellings of one name is settled: the first wins. */
const STRICTNESS: readonly FunctionClass[] = [
  "denied",
  "aggregateName",
  "structure",
  "format",
  "formatParameter",
  "type",
  "sqlText",
  "aggregate",
  "syntax",
  "value",
];

/** Lower-cased function name → class, from `engine-functions.ts`. */
export const FUNCTION_CLASSES: ReadonlyMap<string, FunctionClass> = (() => {
  const classes = new Map<string, FunctionClass>();
  for (const kind of [...STRICTNESS].reverse()) {
    for (const name of ENGINE_FUNCTIONS[kind as keyof typeof ENGINE_FUNCTIONS] as readonly string[]) {
      classes.set(name.toLowerCase(), kind);
    }
  }
  return classes;
})();

/** Lower-cased aggregate combinators, longest first (`MergeState` before `State`). */
const COMBINATORS = ENGINE_FUNCTIONS.combinators.map((name) => name.toLowerCase()).sort((a, b) => b.length - a.length);

/**
 * The class of `name` (any case), or undefined when the sandbox does not know it. An
 * aggregate with combinators (`sumIf`, `uniqExactStateIf`, `argMaxOrNull`) is an aggregate
 * when what is left after taking them off is one; a denied name stays denied.
 */
export function functionClass(
  name: string,
  classes: ReadonlyMap<string, FunctionClass> = FUNCTION_CLASSES,
): FunctionClass | undefined {
  const lower = name.toLowerCase();
  const known = classes.get(lower);
  if (known !== undefined) return known;
  return aggregateBase(lower, classes, 0);
}

function aggregateBase(
  name: string,
  classes: ReadonlyMap<string, FunctionClass>,
  depth: number,
): FunctionClass | undefined {
  if (depth > 4) return undefined;
  for (const combinator of COMBINATORS) {
    if (!name.endsWith(combinator) || name.length === combinator.length) continue;
    const base = name.slice(0, -combinator.length);
    const kind = classes.get(base) ?? aggregateBase(base, classes, depth + 1);
    if (kind === "aggregate" || kind === "formatParameter" || kind === "denied") return kind;
  }
  return undefined;
}

/** Lower-cased table functions the sandbox allows in FROM: they only generate rows. */
export const ALLOWED_TABLE_FUNCTIONS: ReadonlySet<string> = new Set(
  ENGINE_FUNCTIONS.tableFunctions.allowed.map((name) => name.toLowerCase()),
);
