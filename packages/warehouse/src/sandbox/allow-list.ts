/**
 * The allow-list of the sandbox, applied to the syntax tree ClickHouse's own parser
 * produced for the user's statement (`EXPLAIN AST`, which parses and executes nothing).
 * Reading the engine's tree rather than our own parse means a construct we did not
 * anticipate shows up as a node we can refuse, instead of text we misread.
 *
 * The dump is text, one node per line, indented one space per level, e.g.
 *
 *     SelectWithUnionQuery (children 1)
 *      ExpressionList (children 1)
 *       SelectQuery (children 2)
 *        …
 *           TableIdentifier polymarket.markets (alias m)
 *
 * Two things it does not show are taken from the raw text instead (`sql-text.ts`): the
 * names a `WITH name AS (…)` defines, and whether a dotted name was quoted as one part;
 * the latter is refused before this runs, so a dot in a name here always separates the
 * database from the table.
 *
 * Pure: tested on recorded dumps, and the engine-facing part lives in `validate.ts`.
 */
import { SandboxRefusal } from "./errors";
import { SETTINGS_REFUSAL } from "./sql-text";

export const MARKET_DATABASES: readonly string[] = ["polymarket", "kalshi"];

/** Table functions that only generate rows; nothing they can name reaches a file, a host or a table. */
export const ALLOWED_TABLE_FUNCTIONS: readonly string[] = [
  "numbers",
  "numbers_mt",
  "zeros",
  "zeros_mt",
  "values",
  "generateSeries",
  "generate_series",
  "generateRandom",
  "primes",
];

/**
 * Plain functions that read outside the statement's tables: other tables by name
 * (`joinGet('internal.t', …)`, `dictGet`, `hasColumnInTable`), files (`file`,
 * `catboostEvaluate`, `naiveBayesClassifier` models) or the server's configuration. Every
 * table-function name outside the allow-list is refused as a plain function too (the
 * `file('/etc/passwd')` function reads files even under `readonly=1`, measured), except
 * `format`, which as a plain function only formats a string.
 */
export const DENIED_FUNCTIONS: readonly string[] = [
  "file",
  "url",
  "s3",
  "hdfs",
  "remote",
  "remotesecure",
  "cluster",
  "clusterallreplicas",
  "mysql",
  "postgresql",
  "executable",
  "jdbc",
  "odbc",
  "azureblobstorage",
  "iceberg",
  "joinget",
  "joingetornull",
  "hascolumnintable",
  "catboostevaluate",
  "modelevaluate",
  "naivebayesclassifier",
  "getserversetting",
  "getmacro",
  "addresstoline",
  "addresstolinewithinlines",
  "addresstosymbol",
  "demangle",
];

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

/** Query node types that may appear in a sandboxed statement; any other `…Query` is refused. */
const SELECT_NODES = new Set([
  "SelectWithUnionQuery",
  "SelectQuery",
  "SelectIntersectExceptQuery",
  "TablesInSelectQuery",
]);

export interface AllowListPolicy {
  /** Databases user SQL may read. */
  marketDatabases: ReadonlySet<string>;
  /** Lower-cased function names refused wherever they appear. */
  deniedFunctions: ReadonlySet<string>;
  /** Lower-cased table-function names allowed in FROM. */
  allowedTableFunctions: ReadonlySet<string>;
  /** Lower-cased names of every database the engine has (to spot `system.x` used as a set in IN). */
  knownDatabases: ReadonlySet<string>;
}

/**
 * The policy for an engine whose table functions are `tableFunctions` (from
 * `system.table_functions`) and whose databases are `databases`: every table function
 * not on the allow-list is also a denied plain function, whatever this build adds.
 */
export function allowListPolicy(tableFunctions: readonly string[], databases: readonly string[]): AllowListPolicy {
  const allowed = new Set(ALLOWED_TABLE_FUNCTIONS.map((name) => name.toLowerCase()));
  const denied = new Set(DENIED_FUNCTIONS);
  for (const name of tableFunctions) {
    const lower = name.toLowerCase();
    if (!allowed.has(lower) && !HARMLESS_AS_PLAIN_FUNCTION.has(lower)) denied.add(lower);
  }
  return {
    marketDatabases: new Set(MARKET_DATABASES),
    deniedFunctions: denied,
    allowedTableFunctions: allowed,
    knownDatabases: new Set(
      [...databases, "system", "information_schema", "internal", "default"].map((name) => name.toLowerCase()),
    ),
  };
}

export interface AstNode {
  /** First word of the line: `Function`, `TableIdentifier`, `SelectQuery`, … */
  type: string;
  /** What follows the type, without `(alias …)` and `(children N)`: a name, a literal. */
  argument: string;
  label: string;
  children: AstNode[];
}

/** Rebuilds the tree from the indentation of `EXPLAIN AST`'s text output. */
export function parseAstDump(dump: string): AstNode[] {
  const roots: AstNode[] = [];
  const stack: Array<{ depth: number; node: AstNode }> = [];
  for (const line of dump.split("\n")) {
    if (line.trim() === "") continue;
    const depth = line.length - line.trimStart().length;
    const label = line.trim();
    const space = label.indexOf(" ");
    const type = space === -1 ? label : label.slice(0, space);
    const argument = (space === -1 ? "" : label.slice(space + 1))
      .replace(/\s*\(children \d+\)$/, "")
      .replace(/\s*\(alias [\s\S]*\)$/, "")
      .trim();
    const node: AstNode = { type, argument, label, children: [] };
    while (stack.length > 0 && (stack.at(-1) as { depth: number }).depth >= depth) stack.pop();
    const parent = stack.at(-1);
    if (parent) parent.node.children.push(node);
    else roots.push(node);
    stack.push({ depth, node });
  }
  return roots;
}

export interface StatementFacts {
  /** Names defined by `WITH name AS (…)`, which may be used unqualified. */
  cteNames: ReadonlySet<string>;
}

/** Throws a `SandboxRefusal` naming the first thing the allow-list does not permit. */
export function checkStatementTree(roots: readonly AstNode[], facts: StatementFacts, policy: AllowListPolicy): void {
  const root = roots[0];
  if (roots.length !== 1 || !root) {
    throw new SandboxRefusal("Only one statement can run at a time; remove everything after the first ';'.");
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
  for (const child of node.children) visit(child, facts, policy);
}

function checkNode(node: AstNode, facts: StatementFacts, policy: AllowListPolicy): void {
  switch (node.type) {
    case "Set":
      throw new SandboxRefusal(SETTINGS_REFUSAL);
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
        if (child.type === "Function" && !policy.allowedTableFunctions.has(functionName(child))) {
          throw new SandboxRefusal(
            `The table function ${functionName(child, true)}() is not available; the allowed ones are ${ALLOWED_TABLE_FUNCTIONS.join(", ")}.`,
          );
        }
      }
      return;
    case "TableIdentifier":
      checkTable(node.argument, facts, policy);
      return;
    case "Function": {
      const name = functionName(node);
      if (policy.deniedFunctions.has(name) || name.startsWith("dict") || name.startsWith("joinget")) {
        // A table function in FROM already had its own message from `TableExpression`.
        throw new SandboxRefusal(
          `The function ${functionName(node, true)}() reads outside the market tables and is not available.`,
        );
      }
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
      if (
        (node.type.endsWith("Query") && !SELECT_NODES.has(node.type)) ||
        /^(Explain|Show|Describe|SYSTEM|Kill|Use|Insert|Create|Drop|Alter|Rename|Optimize|Grant|Revoke)/.test(node.type)
      ) {
        throw new SandboxRefusal("Only SELECT queries are allowed (SELECT, WITH … SELECT, UNION).");
      }
  }
}

function functionName(node: AstNode, original = false): string {
  const name = node.argument.split(/\s/)[0] ?? "";
  return original ? name : name.toLowerCase();
}

function checkTable(name: string, facts: StatementFacts, policy: AllowListPolicy): void {
  const dot = name.indexOf(".");
  if (dot === -1) {
    if (facts.cteNames.has(name)) return;
    throw new SandboxRefusal(
      `Table ${name} needs its database: write polymarket.${name} or kalshi.${name} (or define it with WITH ${name} AS (…)).`,
    );
  }
  const database = name.slice(0, dot);
  if (!policy.marketDatabases.has(database)) {
    throw new SandboxRefusal(`Table ${name} is not available; query the polymarket and kalshi databases.`);
  }
}
