/**
 * The allow-list of the sandbox, applied to the syntax tree ClickHouse's own parser
 * produced for the user's statement (`EXPLAIN AST`, which parses and executes nothing).
 * Reading the engine's tree rather than our own parse means a construct we did not
 * anticipate shows up as a node we can refuse, instead of text we misread.
 *
 * The tree is read back from the dump's text by `ast-dump.ts`. One thing it does not show
 * is taken from the raw text instead (`sql-text.ts`): the names a `WITH name AS (…)`
 * defines. A name quoted as one part with a dot in it (`` `polymarket.markets` ``,
 * `"avg.prob"`) prints like a qualified one; read as qualified, its database is what
 * stands before the first dot, which can only be stricter than the engine, which looks a
 * one-part name up in the current database.
 *
 * Functions are admitted by class (`function-classes.ts`): every function of the engine
 * is listed with what its arguments are, and one the list does not know is refused.
 * String arguments the engine parses as SQL at run time (an aggregate with parameters, a
 * structure, a format) are checked by `string-arguments.ts`; functions that read outside
 * the market tables or reveal the host are refused by class, by category and with their
 * aliases. Node types are admitted from a list too (`KNOWN_NODES`).
 *
 * Pure: tested on recorded dumps, and the engine-facing part lives in `validate.ts`.
 */
import { MARKET_DATABASES as MARKET_DATABASE_NAMES, VENUES } from "@epicenter/contracts";
import { AS_OF_TABLE_FUNCTIONS } from "./as-of";
import { type AstNode, functionName } from "./ast-dump";
import { SandboxRefusal } from "./errors";
import { ALLOWED_TABLE_FUNCTIONS, FUNCTION_CLASSES, type FunctionClass, functionClass } from "./function-classes";
import { MULTI_STATEMENT_REFUSAL, SETTINGS_REFUSAL } from "./sql-text";
import { checkStringArgument, checkTableFunctionArguments } from "./string-arguments";

export { type AstNode, parseAstDump } from "./ast-dump";

/** The databases user SQL reads: each venue's, and the pairs matched across them (declared with the venues). */
export const MARKET_DATABASES: readonly string[] = MARKET_DATABASE_NAMES;

/**
 * Views of the engine's own catalogue limited to the market databases (`catalog-views.ts`):
 * what ClickHouse clients read as `system.tables`, `information_schema.columns` and the
 * like. Readable on every surface; the ClickHouse interface points `system.x` at them.
 */
export const CATALOG_DATABASES: readonly string[] = ["epicenter_system", "epicenter_information_schema"];

/**
 * Whole categories of `system.functions` that are refused: reading the engine's memory
 * and logs (Introspection), dictionaries and models (files and other tables), AI
 * functions (network calls to a provider) and the engine's internal helpers.
 */
export const DENIED_CATEGORIES: readonly string[] = [
  "Introspection",
  "Dictionary",
  "Embedded Dictionary",
  "Machine Learning",
  "AI",
  "Internal",
];

/**
 * Functions of a refused category that plain syntax produces: `CASE x WHEN …`, and the
 * `_CAST(value, 'Type')` a bound `{name:Type}` parameter becomes in the tree.
 */
const ALLOWED_DESPITE_CATEGORY = new Set(["casewithexpression", "_cast"]);

const HARMLESS_AS_PLAIN_FUNCTION = new Set(["format"]);

const IN_FUNCTIONS = new Set([
  "in",
  "notin",
  "globalin",
  "globalnotin",
  "nullin",
  "notnullin",
  "globalnullin",
  "globalnotnullin",
]);

/**
 * Every node type a sandboxed statement may hold, from the engine's dumps of SELECT in
 * all its clauses (joins, ARRAY JOIN, windows, WITH FILL … INTERPOLATE, SAMPLE, column
 * matchers and transformers). Any other type is refused, so a construct the parser gains
 * in an upgrade is refused until someone has looked at what its dump shows. `Set` (a
 * SETTINGS clause) and `ColumnsApplyTransformer` are known and refused: the dump prints the
 * latter with no children, hiding the function it applies.
 */
const KNOWN_NODES = new Set([
  "SelectWithUnionQuery",
  "SelectQuery",
  "SelectIntersectExceptQuery",
  "ExpressionList",
  "TablesInSelectQuery",
  "TablesInSelectQueryElement",
  "TableExpression",
  "TableIdentifier",
  "TableJoin",
  "ArrayJoin",
  "Subquery",
  "WithElement",
  "Identifier",
  "Literal",
  "Function",
  "Asterisk",
  "QualifiedAsterisk",
  "ColumnsRegexpMatcher",
  "ColumnsListMatcher",
  "QualifiedColumnsRegexpMatcher",
  "QualifiedColumnsListMatcher",
  "ColumnsTransformerList",
  "ColumnsExceptTransformer",
  "ColumnsReplaceTransformer",
  "ColumnsReplaceTransformer::Replacement",
  "OrderByElement",
  "InterpolateElement",
  "WindowListElement",
  "WindowDefinition",
  "SampleRatio",
]);

export interface AllowListPolicy {
  /** Databases user SQL may read. */
  marketDatabases: ReadonlySet<string>;
  /** Lower-cased function name → what its arguments are (`function-classes.ts`), this engine's denials applied. */
  functionClasses: ReadonlyMap<string, FunctionClass>;
  /** Lower-cased table-function names allowed in FROM. */
  allowedTableFunctions: ReadonlySet<string>;
  /** Lower-cased names of every database the engine has (to spot `system.x` used as a set in IN). */
  knownDatabases: ReadonlySet<string>;
}

/** A row of `system.functions`, as much of it as the policy reads. */
export interface EngineFunction {
  name: string;
  alias_to: string;
  categories: string;
}

/**
 * The policy for an engine whose table functions are `tableFunctions` (from
 * `system.table_functions`), whose plain functions are `functions` (from
 * `system.functions`) and whose databases are `databases`. Functions are admitted by
 * their class in `engine-functions.ts`; on top of it, this engine's own catalogue denies
 * every table function off the allow-list as a plain function too, and every function of
 * a denied category, each with all its aliases, whatever the list says.
 */
export function allowListPolicy(
  tableFunctions: readonly string[],
  databases: readonly string[],
  functions: readonly EngineFunction[] = [],
): AllowListPolicy {
  const classes = new Map(FUNCTION_CLASSES);
  const deny = (name: string) => classes.set(name, "denied");
  for (const name of tableFunctions) {
    const lower = name.toLowerCase();
    if (!ALLOWED_TABLE_FUNCTIONS.has(lower) && !HARMLESS_AS_PLAIN_FUNCTION.has(lower)) deny(lower);
  }
  const deniedCategories = new Set(DENIED_CATEGORIES);
  for (const fn of functions) {
    const lower = fn.name.toLowerCase();
    const categories = fn.categories.split(",").map((category) => category.trim());
    if (categories.some((category) => deniedCategories.has(category)) && !ALLOWED_DESPITE_CATEGORY.has(lower)) {
      deny(lower);
    }
  }
  // An alias is as denied as what it names, and a name as denied as its alias.
  for (let changed = true; changed; ) {
    changed = false;
    for (const fn of functions) {
      const [name, target] = [fn.name.toLowerCase(), fn.alias_to.toLowerCase()];
      if (target === "") continue;
      if ((classes.get(target) === "denied") !== (classes.get(name) === "denied")) {
        deny(target);
        deny(name);
        changed = true;
      }
    }
  }
  return {
    marketDatabases: new Set([...MARKET_DATABASES, ...CATALOG_DATABASES]),
    functionClasses: classes,
    allowedTableFunctions: new Set([...ALLOWED_TABLE_FUNCTIONS, ...AS_OF_TABLE_FUNCTIONS]),
    knownDatabases: new Set(
      [...databases, "system", "information_schema", "internal", "default"].map((name) => name.toLowerCase()),
    ),
  };
}

/** True when user SQL may call `name` (any case) under `policy`: known to the sandbox and not denied. */
export function isFunctionAllowed(policy: AllowListPolicy, name: string): boolean {
  const kind = functionClass(name, policy.functionClasses);
  return kind !== undefined && kind !== "denied";
}

export interface StatementFacts {
  /** Names defined by `WITH name AS (…)`, which may be used unqualified. */
  cteNames: ReadonlySet<string>;
  /** The database the engine reads an unqualified table name from, when the caller chose one. */
  defaultDatabase?: string | undefined;
}

/** Throws a `SandboxRefusal` naming the first thing the allow-list does not permit. */
export function checkStatementTree(roots: readonly AstNode[], facts: StatementFacts, policy: AllowListPolicy): void {
  const root = roots[0];
  if (roots.length !== 1 || !root) {
    throw new SandboxRefusal(MULTI_STATEMENT_REFUSAL);
  }
  if (root.type !== "SelectWithUnionQuery") {
    throw new SandboxRefusal(
      "Only SELECT queries are allowed (SELECT, WITH … SELECT, UNION). Table schemas are in the catalog.",
    );
  }
  visit(root, facts, policy);
}

function visit(node: AstNode, facts: StatementFacts, policy: AllowListPolicy): void {
  checkNode(node, facts, policy);
  for (const child of node.children) {
    // A function directly under a table expression is a table function, checked there;
    // its arguments are ordinary expressions.
    if (node.type === "TableExpression" && child.type === "Function") {
      for (const argument of child.children) visit(argument, facts, policy);
    } else visit(child, facts, policy);
  }
}

function checkNode(node: AstNode, facts: StatementFacts, policy: AllowListPolicy): void {
  switch (node.type) {
    case "Set":
      throw new SandboxRefusal(SETTINGS_REFUSAL);
    case "ColumnsApplyTransformer":
      throw new SandboxRefusal(
        "APPLY is not available; call the function on each column instead (SELECT sum(a), sum(b) …).",
      );
    case "SelectWithUnionQuery":
      // Its only child is the list of selects; FORMAT adds an `Identifier`, INTO OUTFILE a
      // `Literal`, a trailing SETTINGS a `Set`.
      for (const extra of node.children.slice(1)) {
        if (extra.type === "Set") checkNode(extra, facts, policy);
        if (extra.type === "Identifier") {
          throw new SandboxRefusal(
            "FORMAT is not allowed; results come back as a table, and downloads offer CSV, JSON and Parquet.",
          );
        }
        throw new SandboxRefusal("INTO OUTFILE is not allowed; use the download buttons to export results.");
      }
      return;
    case "TableExpression":
      for (const child of node.children) {
        if (child.type !== "Function") continue;
        if (!policy.allowedTableFunctions.has(functionName(child))) {
          throw new SandboxRefusal(
            `The table function ${functionName(child, true)}() is not available; the allowed ones are ${[...ALLOWED_TABLE_FUNCTIONS, ...AS_OF_TABLE_FUNCTIONS].join(", ")}.`,
          );
        }
        checkTableFunctionArguments(child);
      }
      return;
    case "TableIdentifier":
      checkTable(node.argument, facts, policy);
      return;
    case "Function": {
      const name = functionName(node);
      const kind = functionClass(name, policy.functionClasses);
      if (kind === "denied") {
        throw new SandboxRefusal(
          `The function ${functionName(node, true)}() reads outside the market tables and is not available.`,
        );
      }
      if (kind === undefined) {
        throw new SandboxRefusal(
          `The function ${functionName(node, true)}() is not one the sandbox knows; see the functions in the SQL reference.`,
        );
      }
      if (kind === "aggregateName") {
        // The aggregate's parameters inside the string are evaluated where the engine's
        // constant settings do not hold (issue 44: a subquery's SETTINGS there took
        // effect), so the family is refused rather than read.
        throw new SandboxRefusal(
          `${functionName(node, true)}() is not available: it runs its aggregate from a string. Use arraySum, arrayAvg, arrayMin, arrayMax, arrayProduct, arrayUniq or arrayStringConcat on the array, or the aggregate itself over arrayJoin: SELECT quantile(0.9)(x) FROM (SELECT arrayJoin(values) AS x).`,
        );
      }
      checkStringArgument(node, kind);
      if (IN_FUNCTIONS.has(name)) {
        const set = node.children[0]?.children[1];
        // `x IN system.processes` names a table without a TableIdentifier node.
        if (set?.type === "Identifier" && set.argument.includes(".")) checkTable(set.argument, facts, policy);
      }
      return;
    }
    case "Identifier": {
      // A database-qualified name outside FROM: `system.processes` as an IN set, or as
      // the first argument of a function that reads a table by name.
      const [first] = node.argument.split(".");
      if (
        node.argument.includes(".") &&
        first !== undefined &&
        policy.knownDatabases.has(first.toLowerCase()) &&
        !policy.marketDatabases.has(first)
      ) {
        checkTable(node.argument, facts, policy);
      }
      return;
    }
    default:
      if (!KNOWN_NODES.has(node.type)) {
        if (
          node.type.endsWith("Query") ||
          /^(Explain|Show|Describe|SYSTEM|Kill|Use|Insert|Create|Drop|Alter|Rename|Optimize|Grant|Revoke)/.test(
            node.type,
          )
        ) {
          throw new SandboxRefusal("Only SELECT queries are allowed (SELECT, WITH … SELECT, UNION).");
        }
        throw new SandboxRefusal(`This query uses a construct the sandbox does not run (${node.type.slice(0, 60)}).`);
      }
  }
}

function checkTable(name: string, facts: StatementFacts, policy: AllowListPolicy): void {
  const dot = name.indexOf(".");
  if (dot === -1) {
    if (facts.cteNames.has(name)) return;
    if (facts.defaultDatabase !== undefined && policy.marketDatabases.has(facts.defaultDatabase)) return;
    throw new SandboxRefusal(
      `Table ${name} needs its database: write ${VENUES.map((venue) => `${venue}.${name}`).join(" or ")} (or define it with WITH ${name} AS (…)).`,
    );
  }
  const database = name.slice(0, dot);
  if (!policy.marketDatabases.has(database)) {
    const databases = `${MARKET_DATABASES.slice(0, -1).join(", ")} and ${MARKET_DATABASES.at(-1)}`;
    throw new SandboxRefusal(`Table ${name} is not available; query the ${databases} databases.`);
  }
}
