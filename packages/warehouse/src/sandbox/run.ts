/**
 * An interactive run: one user statement, validated, run under the service's row limit
 * and cut by bytes as it arrives, with its column types, for the editor, the REST API,
 * dashboards and Seismo alike. Recording the run is the caller's (it knows who asked).
 *
 * The result travels as `JSONCompactEachRowWithNamesAndTypes`: the names, the types, then
 * one JSON array per row, read a line at a time, so the service stops reading — and stops
 * the engine — the moment the result passes `maxBytes` of JSON. Bytes, not rows, are what
 * a result costs: a row of control characters is six times its size as JSON, and one
 * `raw` column can be kilobytes. A cut result is marked `truncated`.
 */
import { MAX_QUERY_ROW_LIMIT, type QueryColumn, type QueryResult } from "@epicenter/contracts";
import { QueryEngineError } from "./errors";
import { BrokenRowError, joinRows, keyRows } from "./rows-json";
import type { Sandbox, SandboxOwner } from "./sandbox";
import { newQueryId, wrapWithLimit } from "./sql-text";

export interface RunUserQueryOptions {
  /** Rows returned at most (1 … MAX_QUERY_ROW_LIMIT); more set `truncated`. */
  limit: number;
  /** Who asks: each owner holds at most a share of the engine. */
  owner?: SandboxOwner;
  /** A tighter time limit than the sandbox's for this call. */
  timeoutMs?: number;
  /** Aborting stops the engine query (the HTTP client went away, the user pressed Cancel). */
  signal?: AbortSignal;
  /** Id for `Sandbox.cancel`; letters, digits, `-` and `_`. A UUID when not given. */
  queryId?: string;
  /** Bytes of the result at most, counted as the caller will send it; the sandbox's limit when not given. */
  maxBytes?: number;
  /** Key each row by column name (the REST API's `data`; `runUserQueryJson` only), and count the keys against the bytes. */
  isKeyed?: boolean;
  /** Values of the statement's `{name:Type}` parameters, as text; bound by the engine. */
  params?: Readonly<Record<string, string>>;
  /** The market database unqualified table names are read from (none when not given). */
  database?: string;
}

/**
 * The product's one result value (64-bit integers as strings; `execution_time_ms` from the
 * call to the decoded rows, validation included) and the engine's id of the query.
 */
export type UserQueryResult = QueryResult & { queryId: string };

/**
 * The same result with its rows still the engine's JSON text (`rows-json.ts`): `[[…],…]`,
 * or `[{…},…]` keyed by column name when asked with `isKeyed`. What the REST edge sends.
 */
export type UserQueryJson = Omit<UserQueryResult, "rows"> & { rowsJson: Buffer };

export async function runUserQuery(
  sandbox: Sandbox,
  sql: string,
  options: RunUserQueryOptions,
): Promise<UserQueryResult> {
  const { rowsJson, ...result } = await runUserQueryJson(sandbox, sql, { ...options, isKeyed: false });
  let rows: unknown[][];
  try {
    rows = JSON.parse(rowsJson.toString("utf8")) as unknown[][];
  } catch {
    throw new QueryEngineError("The engine's answer could not be read as JSON.", undefined);
  }
  return { ...result, rows };
}

export async function runUserQueryJson(
  sandbox: Sandbox,
  sql: string,
  options: RunUserQueryOptions,
): Promise<UserQueryJson> {
  const started = performance.now();
  const { limit } = options;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_QUERY_ROW_LIMIT) {
    throw new RangeError(`limit must be a whole number from 1 to ${MAX_QUERY_ROW_LIMIT}`);
  }
  const queryId = options.queryId ?? newQueryId();
  const maxBytes = options.maxBytes ?? sandbox.limits.maxResultBytes;
  const binding = { params: options.params, database: options.database };
  const isKeyed = options.isKeyed ?? false;
  return sandbox.session(
    options.owner ?? "service",
    sql,
    queryId,
    options.signal,
    async (session, statement, entry) => {
      const supervised = sandbox.supervise(
        session,
        wrapWithLimit(statement.body, limit, queryId),
        "JSONCompactEachRowWithNamesAndTypes",
        queryId,
        entry,
        // The worker stops a byte past the budget; keyed rows use it up sooner, here.
        { timeoutMs: options.timeoutMs, maxBytes, binding },
      );
      try {
        const read = await readRows(supervised.stream, limit, maxBytes, isKeyed);
        if (supervised.isCancelled) throw new Error("cancelled");
        const names = read.columns.map((column) => column.name);
        return {
          columns: read.columns,
          rowsJson: isKeyed ? keyRows(read.lines, names) : joinRows(read.lines),
          row_count: read.lines.length,
          truncated: read.cutBy !== undefined,
          ...(read.cutBy ? { truncated_by: read.cutBy } : {}),
          execution_time_ms: Math.round((performance.now() - started) * 100) / 100,
          queryId,
        };
      } catch (error) {
        if (error instanceof BrokenRowError) {
          throw new QueryEngineError(`The engine's answer could not be read: ${error.message}.`, undefined);
        }
        throw sandbox.failureOf(error, supervised, options.timeoutMs);
      } finally {
        supervised.done();
      }
    },
    binding,
  );
}

/**
 * Reads the names, the types and up to `limit` row lines (as bytes, undecoded), stopping
 * early (which stops the engine) once the rows would pass `maxBytes`. Leaving the loop
 * ends the stream.
 */
async function readRows(
  stream: AsyncIterable<Buffer>,
  limit: number,
  maxBytes: number,
  isKeyed: boolean,
): Promise<{ columns: QueryColumn[]; lines: Buffer[]; cutBy: "rows" | "bytes" | undefined }> {
  const header: string[] = [];
  const lines: Buffer[] = [];
  let bytes = 2;
  let rowOverhead = 1;
  let cutBy: "rows" | "bytes" | undefined;
  // The part of a line that has arrived so far, in pieces, joined once its end comes.
  let partial: Buffer[] = [];
  let partialLength = 0;
  // Every byte that arrived, as the engine counts them: the engine stops one byte past the budget.
  let received = 0;
  reading: for await (const chunk of stream) {
    received += chunk.length;
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; start = end + 1, end = chunk.indexOf(10, start)) {
      const lineLength = partialLength + end - start;
      const line =
        partial.length === 0 ? chunk.subarray(start, end) : Buffer.concat([...partial, chunk.subarray(start, end)]);
      partial = [];
      partialLength = 0;
      if (header.length < 2) {
        header.push(line.toString("utf8"));
        if (header.length === 2 && isKeyed) rowOverhead = keyedOverhead(parseHeader(header[0] as string));
        continue;
      }
      if (lines.length === limit || bytes + lineLength + rowOverhead > maxBytes) {
        cutBy = lines.length === limit ? "rows" : "bytes";
        break reading;
      }
      lines.push(line);
      bytes += lineLength + rowOverhead;
    }
    if (start < chunk.length) {
      partial.push(chunk.subarray(start));
      partialLength += chunk.length - start;
      // A single row past the budget ends the read as surely as many rows would.
      if (header.length === 2 && bytes + partialLength > maxBytes) {
        cutBy ??= "bytes";
        break;
      }
    }
  }
  // A line cut short, or more bytes than the budget: the engine was stopped with more to say.
  if (partialLength > 0 || received > maxBytes) cutBy ??= "bytes";
  if (header.length < 2) throw new QueryEngineError("The engine's answer had no header.", undefined);
  const names = parseHeader(header[0] as string);
  const types = parseHeader(header[1] as string);
  return { columns: names.map((name, index) => ({ name, type: types[index] ?? "String" })), lines, cutBy };
}

function parseHeader(line: string): string[] {
  try {
    return JSON.parse(line) as string[];
  } catch {
    throw new QueryEngineError("The engine's answer could not be read as JSON.", undefined);
  }
}

/** What keying a row by its column names adds to it: `{"name":…}` per column, less the array's brackets. */
function keyedOverhead(names: readonly string[]): number {
  let overhead = 1;
  for (const name of names) overhead += Buffer.byteLength(JSON.stringify(name)) + 1;
  return overhead;
}
