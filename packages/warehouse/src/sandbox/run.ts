/**
 * `runUserQuery`: one user statement, validated, run on a sandbox connection under the
 * service's own row limit, with its column types, for the editor, the REST API,
 * dashboards and Seismo alike. Plain function, no HTTP; recording the run in
 * `query_runs` is the caller's (it knows who asked).
 *
 * The result travels as `JSONCompact` (one document with `meta` and value arrays, decoded
 * with a single `JSON.parse`) rather than row objects: a result may name two columns
 * alike, and arrays keep 100,000 rows compact. `rowsAsObjects` turns them into the API's
 * objects.
 */

import { registerRun, supervise } from "./cancel";
import { QueryEngineError } from "./errors";
import { internalsOf, newQueryId, type Sandbox, text } from "./sandbox";
import { assertQueryId, wrapWithLimit } from "./sql-text";
import { validateOn } from "./validate";

export const DEFAULT_ROW_LIMIT = 1_000;
export const MAX_ROW_LIMIT = 100_000;

export interface RunUserQueryOptions {
  /** Rows returned at most (1 … MAX_ROW_LIMIT); more set `truncated`. */
  limit: number;
  /** A tighter time limit than the sandbox's for this call. */
  timeoutMs?: number;
  /** Aborting stops the engine query (the HTTP client went away, the user pressed Cancel). */
  signal?: AbortSignal;
  /** Id for `cancelUserQuery`; letters, digits, `-` and `_`. A UUID when not given. */
  queryId?: string;
}

export interface QueryColumn {
  name: string;
  /** The engine's type, e.g. `Nullable(Float64)`. */
  type: string;
}

export interface UserQueryResult {
  columns: QueryColumn[];
  /** One array of values per row, in column order; 64-bit integers as strings. */
  rows: unknown[][];
  rowCount: number;
  /** True when the statement had more rows than `limit`. */
  truncated: boolean;
  /** From the call to the decoded rows, validation included. */
  elapsedMs: number;
  queryId: string;
}

export async function runUserQuery(
  sandbox: Sandbox,
  sql: string,
  options: RunUserQueryOptions,
): Promise<UserQueryResult> {
  const started = performance.now();
  const limit = options.limit;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_ROW_LIMIT) {
    throw new RangeError(`limit must be a whole number from 1 to ${MAX_ROW_LIMIT}`);
  }
  const queryId = options.queryId ?? newQueryId();
  assertQueryId(queryId);
  const inner = internalsOf(sandbox);

  return registerRun(inner, queryId, options.signal, (entry) =>
    inner.lease(async (connection) => {
      const statement = await validateOn(connection.client, sql, inner.policy);
      const body = await supervise(inner, connection, queryId, entry, { ...options }, () =>
        text(connection.client, wrapWithLimit(statement.body, limit, queryId), { format: "JSONCompact", queryId }),
      );
      const decoded = decode(body);
      const truncated = decoded.data.length > limit;
      const rows = truncated ? decoded.data.slice(0, limit) : decoded.data;
      return {
        columns: decoded.meta.map(({ name, type }) => ({ name, type })),
        rows,
        rowCount: rows.length,
        truncated,
        elapsedMs: Math.round((performance.now() - started) * 100) / 100,
        queryId,
      };
    }, options.signal),
  );
}

function decode(body: string): { meta: QueryColumn[]; data: unknown[][] } {
  try {
    const parsed = JSON.parse(body) as { meta?: QueryColumn[]; data?: unknown[][] };
    return { meta: parsed.meta ?? [], data: parsed.data ?? [] };
  } catch {
    throw new QueryEngineError("The engine's answer could not be read as JSON.", undefined);
  }
}

/** Rows as objects keyed by column name, the shape of the API's `result.data`. */
export function rowsAsObjects(columns: readonly QueryColumn[], rows: readonly unknown[][]): Record<string, unknown>[] {
  return rows.map((row) => Object.fromEntries(columns.map((column, index) => [column.name, row[index]])));
}
