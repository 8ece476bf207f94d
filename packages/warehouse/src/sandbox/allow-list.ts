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
 * String arguments the engine parses as SQL at run time (a structure, a format) are
 * checked by `string-arguments.ts`; functions that reveal the host or the engine are
 * refused by name and by category, with their aliases.
 *
 * Pure: tested on recorded dumps, and the engine-facing part lives in `validate.ts`.
 */
import { type AstNode, functionName } from "./ast-dump";
import { SandboxRefusal } from "./errors";
import { SETTINGS_REFUSAL } from "./sql-text";
import { checkStringArgument } from "./string-arguments";

export { type AstNode, parseAstDump } from "./ast-dump";

/** The databases user SQL reads: each venue's, and the pairs matched across them. */
export const MARKET_DATABASES: readonly string[] = ["polymarket", "kalshi", "crossvenue"];

/**
 * Views of the engine's own catalogue limited to the market databases (`catalog-views.ts`):
 * what ClickHouse clients read as `system.tables`, `information_schema.columns` and the
 * like. Readable on every surface; the ClickHouse interface points `system.x` at them.
 */
export const CATALOG_DATABASES: readonly string[] = ["epicenter_system", "epicenter_information_schema"];

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
  // What the parser makes of the standard `FROM (VALUES (1, 'a'), (2, 'b'))`: rows only.
  "SQLStandardValues",
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

/**
 * Functions that answer about the host, the engine or the session rather than the data
 * (SPEC's users have no use for them, and they map the machine for someone who does):
 * names, ports, the kernel, disks, builds, uptime, settings of the server, identities and
 * ids, plus `sleep`, which only holds a session. Refused with their aliases.
 */
export const HOST_FUNCTIONS: readonly string[] = [
  "hostName",
  "FQDN",
  "getOSKernelVersion",
  "filesystemAvailable",
  "filesystemCapacity",
  "filesystemUnreserved",
  "buildId",
  "uptime",
  "tcpPort",
  "getServerPort",
  "serverUUID",
  "displayName",
  "version",
  "revision",
  "zookeeperSessionUptime",
  "getMergeTreeSetting",
  "showCertificate",
  "getClientHTTPHeader",
  "currentUser",
  "authenticatedUser",
  "currentRoles",
  "enabledRoles",
  "defaultRoles",
  "currentProfiles",
  "enabledProfiles",
  "defaultProfiles",
  "connectionId",
  "queryID",
  "initialQueryID",
  "initialQueryStartTime",
  "currentQueryID",
  "shardNum",
  "shardCount",
  "hasThreadFuzzer",
  "transactionID",
  "transactionLatestSnapshot",
  "transactionOldestSnapshot",
  "getMaxTableNameLengthForDatabase",
  "globalVariable",
  "generateSerialID",
  "sleep",
  "sleepEachRow",
];

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

/** A row of `system.functions`, as much of it as the policy reads. */
export interface EngineFunction {
  name: string;
  alias_to: string;
  categories: string;
}

/**
 * The policy for an engine whose table functions are `tableFunctions` (from
 * `system.table_functions`), whose plain functions are `functions` (from
 * `system.functions`) and whose databases are `databases`: every table function not on
 * the allow-list is also a denied plain function, and every function of a denied
 * category or family is denied with all its aliases, whatever this build adds.
 */
export function allowListPolicy(
  tableFunctions: readonly string[],
  databases: readonly string[],
  functions: readonly EngineFunction[] = [],
): AllowListPolicy {
  const allowed = new Set(ALLOWED_TABLE_FUNCTIONS.map((name) => name.toLowerCase()));
  const denied = new Set([...DENIED_FUNCTIONS, ...HOST_FUNCTIONS.map((name) => name.toLowerCase())]);
  for (const name of tableFunctions) {
    const lower = name.toLowerCase();
    if (!allowed.has(lower) && !HARMLESS_AS_PLAIN_FUNCTION.has(lower)) denied.add(lower);
  }
  const deniedCategories = new Set(DENIED_CATEGORIES);
  for (const fn of functions) {
    const lower = fn.name.toLowerCase();
    const categories = fn.categories.split(",").map((category) => category.trim());
    if (categories.some((category) => deniedCategories.has(category)) && !ALLOWED_DESPITE_CATEGORY.has(lower)) {
      denied.add(lower);
    }
  }
  // An alias is as denied as what it names, and a name as denied as its alias.
  for (let changed = true; changed; ) {
    changed = false;
    for (const fn of functions) {
      const [name, target] = [fn.name.toLowerCase(), fn.alias_to.toLowerCase()];
      if (target === "") continue;
      if (denied.has(target) !== denied.has(name)) {
        denied.add(target);
        denied.add(name);
        changed = true;
      }
    }
  }
  return {
    marketDatabases: new Set([...MARKET_DATABASES, ...CATALOG_DATABASES]),
    deniedFunctions: denied,
    allowedTableFunctions: allowed,
    knownDatabases: new Set(
      [...databases, "system", "information_schema", "internal", "default"].map((name) => name.toLowerCase()),
    ),
  };
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
      checkStringArgument(node);
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

function checkTable(name: string, facts: StatementFacts, policy: AllowListPolicy): void {
  const dot = name.indexOf(".");
  if (dot === -1) {
    if (facts.cteNames.has(name)) return;
    if (facts.defaultDatabase !== undefined && policy.marketDatabases.has(facts.defaultDatabase)) return;
    throw new SandboxRefusal(
      `Table ${name} needs its database: write polymarket.${name} or kalshi.${name} (or define it with WITH ${name} AS (…)).`,
    );
  }
  const database = name.slice(0, dot);
  if (!policy.marketDatabases.has(database)) {
    throw new SandboxRefusal(`Table ${name} is not available; query the polymarket, kalshi and crossvenue databases.`);
  }
}
