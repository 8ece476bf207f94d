/**
 * What the ClickHouse interface makes of a client's statement before the sandbox sees it,
 * so drivers and BI tools run their own SQL unchanged against the market databases:
 * - a trailing `FORMAT x` is taken off and becomes the output format (the engine formats);
 * - the introspection statements clients send on connect — `SHOW DATABASES`,
 *   `SHOW TABLES [FROM db] [LIKE …]`, `DESC[RIBE] [TABLE] t`, `EXISTS [TABLE] t`,
 *   `SHOW CREATE TABLE t` — become SELECTs over the catalogue views;
 * - `system.x` and `information_schema.x` (also inside `system.tables.name`) point at the
 *   catalogue views (`epicenter_system`, `epicenter_information_schema`), which list the
 *   market databases only;
 * - the few functions that describe the server and that the sandbox refuses elsewhere
 *   (`version()`, `revision()`, `displayName()`, `currentUser()`, `hostName()`) answer fixed
 *   values, under their own column names.
 * Everything else — including every refusal — is the sandbox's, exactly as for `POST
 * /api/query`. Pure: tested without an engine.
 */
import { type SqlToken, tokenizeSql } from "@epicenter/warehouse";

export interface ServerFacts {
  /** The engine's version, e.g. `26.7.2.1`. */
  version: string;
  /** The engine's protocol revision. */
  revision: number;
}

export interface PreparedStatement {
  /** A SELECT for the sandbox. */
  sql: string;
  /** The format a trailing `FORMAT x` asked for, if any. */
  format: string | undefined;
  /**
   * The table a `DESCRIBE` or `SHOW CREATE` names: the catalogue's SELECT answers no rows
   * for one that is not there, where ClickHouse answers UNKNOWN_TABLE.
   */
  table?: { database: string; name: string };
}

export class StatementError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly errorName: string,
  ) {
    super(message);
  }
}

const CATALOG_NAMES: Record<string, string> = {
  system: "epicenter_system",
  information_schema: "epicenter_information_schema",
  INFORMATION_SCHEMA: "epicenter_information_schema",
};

const isCode = (token: SqlToken) => token.kind !== "whitespace" && token.kind !== "comment";
const isWord = (token: SqlToken | undefined, ...words: string[]) =>
  token?.kind === "word" && words.includes(token.value.toUpperCase());

/** Prepares `text` (the URL's `query` and the body, joined) for the sandbox, reading `database` as the default one. */
export function prepareStatement(text: string, database: string, server: ServerFacts): PreparedStatement {
  let tokens = tokenizeSql(text);
  // A trailing `;` (and comments after it) is the client's habit, not a second statement.
  let end = tokens.length;
  while (end > 0 && (!isCode(tokens[end - 1] as SqlToken) || tokens[end - 1]?.kind === "semicolon")) end--;
  tokens = tokens.slice(0, end);
  let code = tokens.filter(isCode);
  // An INSERT's FORMAT names its data's format, not an answer's: said so before it is
  // taken for one and what is left reads as a syntax error.
  if (isWord(code[0], "INSERT")) {
    throw new StatementError(
      "The archive is read-only: INSERT is not run here. Read it with SELECT, and keep your own tables in your own ClickHouse",
      164,
      "READONLY",
    );
  }
  let format: string | undefined;
  const [formatWord, formatName] = code.slice(-2);
  if (
    code.length > 2 &&
    formatWord &&
    isWord(formatWord, "FORMAT") &&
    (formatName?.kind === "word" || formatName?.kind === "quoted-identifier")
  ) {
    format = formatName.value;
    tokens = tokens.slice(0, tokens.indexOf(formatWord));
    code = code.slice(0, -2);
  }
  const translated = translateIntrospection(code, database);
  const sql = translated?.sql ?? tokens.map((token) => text.slice(token.start, token.end)).join("");
  return { sql: rewrite(sql, server), format, ...(translated?.table ? { table: translated.table } : {}) };
}

/**
 * The assignments of a `SET name = value[, …]` statement (a session's settings, as drivers
 * send them on connect), or undefined when `text` is another statement. A malformed SET is
 * a syntax error. `CREATE TEMPORARY TABLE` is refused with what a session does keep.
 */
export function setStatementOf(text: string): Array<[string, string]> | undefined {
  const code = tokenizeSql(text).filter((token) => isCode(token) && token.kind !== "semicolon");
  if (isWord(code[0], "CREATE") && isWord(code[1], "TEMPORARY")) {
    throw new StatementError(
      "Temporary tables are not kept here: the archive is read-only. A session (session_id) keeps the settings it SETs; put the data in a subquery or WITH instead",
      48,
      "NOT_IMPLEMENTED",
    );
  }
  if (!isWord(code[0], "SET")) return undefined;
  const assignments: Array<[string, string]> = [];
  for (let at = 1; at < code.length; at += 4) {
    const [name, equals, value, comma] = code.slice(at, at + 4);
    const isValue = value?.kind === "number" || value?.kind === "string" || value?.kind === "word";
    const isEnd = comma === undefined || (comma.kind === "punctuation" && comma.value === ",");
    if (name?.kind !== "word" || equals?.value !== "=" || !isValue || !isEnd || (comma && at + 4 >= code.length)) {
      throw new StatementError("SET takes name = value pairs separated by commas", 62, "SYNTAX_ERROR");
    }
    assignments.push([name.value, value.kind === "string" ? unquoted(value.value) : value.value]);
  }
  if (assignments.length === 0) throw new StatementError("SET needs a setting: SET name = value", 62, "SYNTAX_ERROR");
  return assignments;
}

const unquoted = (literal: string) =>
  literal.startsWith("'")
    ? literal.slice(1, -1).replace(/\\(.)|''/g, (_pair: string, escaped: string | undefined) => escaped ?? "'")
    : literal;

/** `system.x` → the catalogue views, and the server functions → fixed values. */
function rewrite(sql: string, server: ServerFacts): string {
  const tokens = tokenizeSql(sql);
  const code = tokens.filter(isCode);
  const replaced = new Map<SqlToken, string>();
  const removed = new Set<SqlToken>();
  const facts: Record<string, string> = {
    version: quote(server.version),
    revision: `toUInt32(${server.revision})`,
    displayname: "'epicenter'",
    hostname: "'epicenter'",
    fqdn: "'epicenter'",
    currentuser: "'epicenter'",
    user: "'epicenter'",
    authenticateduser: "'epicenter'",
  };
  // Where each token stands, so a call's brackets are found without a search per call.
  const position = new Map(tokens.map((token, index) => [token, index]));
  code.forEach((token, index) => {
    const next = code[index + 1];
    const before = code[index - 1];
    const isQualifier = next?.kind === "punctuation" && next.value === ".";
    const isQualified = before?.kind === "punctuation" && before.value === ".";
    if ((token.kind === "word" || token.kind === "quoted-identifier") && isQualifier && !isQualified) {
      const catalog = CATALOG_NAMES[token.value];
      if (catalog) replaced.set(token, catalog);
      return;
    }
    const fact = token.kind === "word" ? facts[token.value.toLowerCase()] : undefined;
    const close = code[index + 2];
    if (fact && !isQualified && next?.value === "(" && close?.value === ")") {
      // Keeps the column's name: `SELECT version()` still answers a column `version()`.
      replaced.set(token, `(${fact} AS ${identifier(`${token.value}()`)})`);
      const [from, to] = [position.get(next) as number, position.get(close) as number];
      for (let at = from; at <= to; at++) removed.add(tokens[at] as SqlToken);
    }
  });
  return tokens
    .filter((token) => !removed.has(token))
    .map((token) => replaced.get(token) ?? sql.slice(token.start, token.end))
    .join("");
}

/**
 * The SELECT an introspection statement stands for, or undefined when `code` is not one.
 * Names come from the tokens (quoted or not) and go back as string literals, never as SQL.
 */
function translateIntrospection(
  code: SqlToken[],
  database: string,
): { sql: string; table?: PreparedStatement["table"] } | undefined {
  const [first, second] = code;
  if (isWord(first, "SHOW")) {
    let at = 1;
    if (isWord(code[at], "FULL")) at++;
    if (isWord(code[at], "DATABASES")) {
      return { sql: listOf("system.databases", filterOf(code, at + 1, undefined)) };
    }
    if (isWord(code[at], "TABLES")) {
      let from = database;
      at++;
      if (isWord(code[at], "FROM", "IN")) {
        from = nameOf(code[at + 1]);
        at += 2;
      }
      return { sql: listOf("system.tables", filterOf(code, at, `database = ${quote(from)}`)) };
    }
    if (isWord(code[at], "CREATE")) {
      at++;
      if (isWord(code[at], "TABLE", "VIEW", "TEMPORARY")) at++;
      const [table, tableDatabase] = qualifiedName(code.slice(at), database);
      return {
        sql: `SELECT create_table_query AS statement FROM system.tables WHERE ${tableFilter(tableDatabase, table)}`,
        table: { database: tableDatabase, name: table },
      };
    }
    throw new StatementError(
      "Only SHOW DATABASES, SHOW TABLES and SHOW CREATE TABLE are answered here; the catalogue is in system.tables and system.columns.",
      164,
      "READONLY",
    );
  }
  if (isWord(first, "DESC", "DESCRIBE")) {
    const rest = code.slice(isWord(second, "TABLE") ? 2 : 1);
    const [table, tableDatabase] = qualifiedName(rest, database);
    return {
      sql: `SELECT name, type, default_kind AS default_type, default_expression, comment, compression_codec AS codec_expression, '' AS ttl_expression
      FROM system.columns WHERE ${tableFilter(tableDatabase, table, "table")} ORDER BY position`,
      table: { database: tableDatabase, name: table },
    };
  }
  if (isWord(first, "EXISTS")) {
    let at = 1;
    if (isWord(code[at], "TEMPORARY")) at++;
    if (isWord(code[at], "DATABASE")) {
      return {
        sql: `SELECT toUInt8(count() > 0) AS result FROM system.databases WHERE name = ${quote(nameOf(code[at + 1]))}`,
      };
    }
    if (isWord(code[at], "TABLE", "VIEW", "DICTIONARY")) at++;
    const [table, tableDatabase] = qualifiedName(code.slice(at), database);
    return {
      sql: `SELECT toUInt8(count() > 0) AS result FROM system.tables WHERE ${tableFilter(tableDatabase, table)}`,
    };
  }
  return undefined;
}

/** `SELECT name FROM <table>` with a SHOW's filter, in name order. */
function listOf(table: string, filter: { conditions: string[]; limit: number | undefined }): string {
  const where = filter.conditions.length > 0 ? ` WHERE ${filter.conditions.join(" AND ")}` : "";
  return `SELECT name FROM ${table}${where} ORDER BY name${filter.limit === undefined ? "" : ` LIMIT ${filter.limit}`}`;
}

/** `[NOT] LIKE|ILIKE 'pattern'` and `LIMIT n` after a SHOW. */
function filterOf(
  code: SqlToken[],
  at: number,
  condition: string | undefined,
): { conditions: string[]; limit: number | undefined } {
  const conditions = condition ? [condition] : [];
  let limit: number | undefined;
  let index = at;
  while (index < code.length) {
    const isNot = isWord(code[index], "NOT");
    const operator = code[index + (isNot ? 1 : 0)];
    const pattern = code[index + (isNot ? 2 : 1)];
    if (isWord(operator, "LIKE", "ILIKE") && pattern?.kind === "string") {
      conditions.push(`name ${isNot ? "NOT " : ""}${operator?.value.toUpperCase()} ${quote(pattern.value)}`);
      index += isNot ? 3 : 2;
    } else if (isWord(code[index], "LIMIT") && code[index + 1]?.kind === "number") {
      limit = Number(code[index + 1]?.value);
      index += 2;
    } else {
      throw new StatementError(
        `Unexpected ${code[index]?.value ?? "end"} in SHOW; this interface answers LIKE, ILIKE and LIMIT there.`,
        62,
        "SYNTAX_ERROR",
      );
    }
  }
  return { conditions, limit };
}

function tableFilter(database: string, table: string, column = "name"): string {
  return `database = ${quote(database)} AND ${column} = ${quote(table)}`;
}

/** `[db.]name` from the tokens, with the default database. */
function qualifiedName(code: SqlToken[], database: string): [table: string, database: string] {
  if (code.length === 3 && code[1]?.value === ".") return [nameOf(code[2]), nameOf(code[0])];
  if (code.length === 1) return [nameOf(code[0]), database];
  throw new StatementError("Expected a table name ([database.]table) here.", 62, "SYNTAX_ERROR");
}

function nameOf(token: SqlToken | undefined): string {
  if (token?.kind === "word" || token?.kind === "quoted-identifier") return token.value;
  throw new StatementError(`Expected a name, not ${token?.value ?? "the end"}.`, 62, "SYNTAX_ERROR");
}

function quote(value: string): string {
  return `'${value.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}

function identifier(name: string): string {
  return `\`${name.replaceAll("\\", "\\\\").replaceAll("`", "\\`")}\``;
}
