/**
 * ClickHouse's typed query parameters, `{name:Type}` (`{market_id:String}`,
 * `{days:UInt16}`), as saved SQL uses them. The engine binds the values itself — never
 * spliced into the text — on every surface (the editor, `POST /api/query`'s `params`, the
 * ClickHouse interface's `param_<name>`, MCP's `run_saved_query`). This module finds the
 * parameters in a statement and checks a value against its type before the engine sees it,
 * so the editor can show one input per parameter and a caller gets a message naming the
 * parameter; the engine's own parse stays the last word.
 *
 * Pure and shared by the server and the SPA.
 */
import { z } from "zod";

export interface QueryParameter {
  name: string;
  /** The type as written, e.g. `UInt16`, `Array(String)`, `Nullable(Date)`. */
  type: string;
}

/** A value as the API takes it; the engine receives its text. */
export const ZQueryParamValue = z.union([z.string().max(65_536), z.number(), z.boolean()]);
export type QueryParamValue = z.infer<typeof ZQueryParamValue>;

export const ZQueryParams = z
  .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "a parameter name is letters, digits and _"), ZQueryParamValue)
  .describe("Values of the statement's `{name:Type}` parameters, by name (the engine binds them; never interpolated).");
export type QueryParams = z.infer<typeof ZQueryParams>;

/** Most parameter values a saved query or a node keeps. */
export const MAX_SAVED_PARAMS = 64;

/**
 * Parameter values as a query keeps them between runs: by name, as text (what the editor's
 * inputs and the URL's `param_<name>` hold). Kept with a saved query so it reopens ready to run.
 */
export const ZSavedParams = z
  .record(
    z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "a parameter name is letters, digits and _"),
    z.string().max(65_536),
  )
  .refine((values) => Object.keys(values).length <= MAX_SAVED_PARAMS, `at most ${MAX_SAVED_PARAMS} parameter values`)
  .describe("Values of the statement's `{name:Type}` parameters, by name, as text.");
export type SavedParams = z.infer<typeof ZSavedParams>;

const PARAMETER = /^\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*([^{}]+?)\s*\}/;

const HEREDOC_TAG = /^\$[A-Za-z0-9_]*\$/;
const WORD_CHARACTER = /[A-Za-z0-9_$]/;

/**
 * The distinct `{name:Type}` parameters of `sql`, in order of first use, skipping string
 * literals, heredocs (`$$…$$`, `$tag$…$tag$`), quoted names and comments (nested
 * `/* … *\/`, `--`, `# ` and `#!`), where braces mean nothing — as the engine reads them.
 */
export function queryParameters(sql: string): QueryParameter[] {
  const found = new Map<string, QueryParameter>();
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i] as string;
    if (ch === "'" || ch === '"' || ch === "`") {
      i = skipQuoted(sql, i, ch);
    } else if (
      (ch === "-" && sql[i + 1] === "-") ||
      (ch === "/" && sql[i + 1] === "/") ||
      (ch === "#" && (sql[i + 1] === " " || sql[i + 1] === "!"))
    ) {
      const end = sql.indexOf("\n", i);
      i = end === -1 ? sql.length : end;
    } else if (ch === "/" && sql[i + 1] === "*") {
      i = skipBlockComment(sql, i);
    } else if (ch === "$" && !WORD_CHARACTER.test(sql[i - 1] ?? " ") && HEREDOC_TAG.test(sql.slice(i, i + 130))) {
      const tag = (HEREDOC_TAG.exec(sql.slice(i, i + 130)) as RegExpExecArray)[0];
      const end = sql.indexOf(tag, i + tag.length);
      i = end === -1 ? sql.length : end + tag.length;
    } else if (WORD_CHARACTER.test(ch)) {
      // A word (`x$a$` is one name, not a name and a heredoc).
      while (i < sql.length && WORD_CHARACTER.test(sql[i] as string)) i++;
    } else if (ch === "{") {
      const match = PARAMETER.exec(sql.slice(i, i + 300));
      if (match) {
        const name = match[1] as string;
        if (!found.has(name)) found.set(name, { name, type: (match[2] as string).replace(/\s+/g, " ") });
        i += match[0].length;
      } else i++;
    } else i++;
  }
  return [...found.values()];
}

/** The end of the (nested) block comment at `start`. */
function skipBlockComment(sql: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < sql.length) {
    if (sql.startsWith("/*", i)) {
      depth++;
      i += 2;
    } else if (sql.startsWith("*/", i)) {
      depth--;
      i += 2;
      if (depth === 0) return i;
    } else i++;
  }
  return sql.length;
}

function skipQuoted(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    const ch = sql[i];
    if (ch === "\\") i += 2;
    else if (ch === quote && sql[i + 1] === quote) i += 2;
    else if (ch === quote) return i + 1;
    else i++;
  }
  return sql.length;
}

/** The text the engine is given for a value. */
export function paramText(value: QueryParamValue): string {
  return typeof value === "string" ? value : String(value);
}

const INTEGER_RANGE: Record<string, [bigint, bigint]> = {
  UInt8: [0n, 255n],
  UInt16: [0n, 65_535n],
  UInt32: [0n, 4_294_967_295n],
  UInt64: [0n, 18_446_744_073_709_551_615n],
  Int8: [-128n, 127n],
  Int16: [-32_768n, 32_767n],
  Int32: [-2_147_483_648n, 2_147_483_647n],
  Int64: [-9_223_372_036_854_775_808n, 9_223_372_036_854_775_807n],
};

/**
 * Why `value` is not a `type`, in words that name what is expected — or undefined when it
 * is (or when the type is one only the engine checks: arrays, tuples, maps, identifiers).
 */
export function paramTypeProblem(type: string, value: string): string | undefined {
  const nullable = /^Nullable\((.*)\)$/.exec(type);
  if (nullable) return value === "\\N" ? undefined : paramTypeProblem(nullable[1] as string, value);
  const lowCardinality = /^LowCardinality\((.*)\)$/.exec(type);
  if (lowCardinality) return paramTypeProblem(lowCardinality[1] as string, value);
  const range = INTEGER_RANGE[type];
  if (range) {
    const [low, high] = range;
    if (!/^-?\d{1,40}$/.test(value.trim())) return `a whole number from ${low} to ${high}`;
    const number = BigInt(value.trim());
    return number < low || number > high ? `a whole number from ${low} to ${high}` : undefined;
  }
  if (/^(Float(32|64)|Decimal(32|64|128|256)?(\(.*\))?)$/.test(type)) {
    return /^\s*-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(value) ? undefined : "a number";
  }
  if (type === "Date" || type === "Date32") {
    return validDate(value.trim()) ? undefined : "a date as YYYY-MM-DD";
  }
  if (/^DateTime(64)?(\(.*\))?$/.test(type)) {
    const text = value.trim();
    const [day, time] = text.split(/[ T]/);
    const isDateTime =
      /^\d{1,12}$/.test(text) ||
      (day !== undefined && validDate(day) && (time === undefined || /^\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?$/.test(time)));
    return isDateTime ? undefined : "a date and time as YYYY-MM-DD hh:mm:ss";
  }
  if (type === "Bool" || type === "Boolean") {
    return /^(true|false|1|0)$/i.test(value.trim()) ? undefined : "true or false";
  }
  if (type === "UUID") {
    return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value.trim()) ? undefined : "a UUID";
  }
  return undefined;
}

function validDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

/**
 * What is wrong with `params` for `sql`, as one message naming each missing or mistyped
 * parameter; undefined when every parameter has a value of its type. Values for names the
 * statement does not use are ignored, as the engine ignores them.
 */
export function paramsProblem(sql: string, params: QueryParams | undefined): string | undefined {
  const problems: string[] = [];
  for (const { name, type } of queryParameters(sql)) {
    const value = params?.[name];
    if (value === undefined) {
      problems.push(`parameter ${name} (${type}) has no value`);
      continue;
    }
    const expected = paramTypeProblem(type, paramText(value));
    if (expected) problems.push(`parameter ${name} must be ${expected} (${type}); got ${JSON.stringify(value)}`);
  }
  if (problems.length === 0) return undefined;
  const text = problems.join("; ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}
