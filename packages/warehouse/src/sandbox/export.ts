/**
 * Downloads of a user query's result in the engine's own formats: CSV (`CSVWithNames`),
 * JSON (a JSON array of row objects), Parquet and Arrow (`ArrowStream`), through the same validation, tagging,
 * fair share and time limit as an interactive run, bounded by `maxRows`.
 *
 * The engine produces a chunk only when the reader has taken the last one, so a slow
 * reader costs a chunk of memory, not the result; and a download has two deadlines: the
 * engine's time limit for the whole of it (the query runs until the last byte is taken),
 * and `downloadIdleMs` without the reader taking a byte, after which it is cut and its
 * session freed. JSON is produced from `JSONEachRow`, so the file is exactly the API's
 * `data`: `[`, the rows separated by commas, `]`. CSV cells that a spreadsheet would run
 * as a formula are defused (`csv-cells.ts`); JSON, Parquet and Arrow are exact.
 */
import { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { defuseCsvCells } from "./csv-cells";
import { QueryCancelledError, SandboxError } from "./errors";
import type { Sandbox, SandboxOwner } from "./sandbox";
import { newQueryId, wrapForExport } from "./sql-text";

export type ExportFormat = "csv" | "json" | "parquet" | "arrow";

export const EXPORT_FORMATS: Record<ExportFormat, { engineFormat: string; contentType: string; extension: string }> = {
  csv: { engineFormat: "CSVWithNames", contentType: "text/csv; charset=utf-8", extension: "csv" },
  json: { engineFormat: "JSONEachRow", contentType: "application/json; charset=utf-8", extension: "json" },
  parquet: { engineFormat: "Parquet", contentType: "application/vnd.apache.parquet", extension: "parquet" },
  // The IPC stream (not the file) format: what pyarrow, Polars, DuckDB and arrow-js read from a response body.
  arrow: { engineFormat: "ArrowStream", contentType: "application/vnd.apache.arrow.stream", extension: "arrows" },
};

/** Most rows one download may hold. */
export const MAX_EXPORT_ROWS = 1_000_000;

export class DownloadStalledError extends SandboxError {
  readonly kind = "timeout";
  constructor(idleMs: number) {
    super(
      `The download was stopped: nothing was read from it for ${Math.round(idleMs / 1000)} seconds.`,
      "TIMEOUT_EXCEEDED",
    );
  }
}

/**
 * One of the engine's own output formats, passed through untouched (the ClickHouse
 * interface: Native, RowBinary, the JSON and text families…). The caller checks it
 * against its allow-list.
 */
export interface EngineOutputFormat {
  engine: string;
  contentType: string;
}

export interface StreamUserQueryOptions {
  format: ExportFormat | EngineOutputFormat;
  /** Rows written at most (1 … MAX_EXPORT_ROWS); the rest are left out. */
  maxRows: number;
  owner?: SandboxOwner;
  signal?: AbortSignal;
  queryId?: string;
  /** Values of the statement's `{name:Type}` parameters, as text; bound by the engine. */
  params?: Readonly<Record<string, string>>;
  /** The market database unqualified table names are read from (none when not given). */
  database?: string;
}

export interface UserQueryExport {
  /** The file's bytes; destroying it stops the engine query. */
  stream: Readable;
  contentType: string;
  extension: string;
  queryId: string;
  /** Settles when the download is over, with the rows written (CSV and JSON) or the error that ended it. */
  finished: Promise<{ rows: number | undefined; error: Error | undefined }>;
}

/**
 * Validates and starts the export, and resolves when the first chunk is ready, so a
 * refusal or an engine error (unknown column) still surfaces before any byte is sent.
 */
export function streamUserQuery(
  sandbox: Sandbox,
  sql: string,
  options: StreamUserQueryOptions,
): Promise<UserQueryExport> {
  const { maxRows } = options;
  if (!Number.isInteger(maxRows) || maxRows < 1 || maxRows > MAX_EXPORT_ROWS) {
    return Promise.reject(new RangeError(`maxRows must be a whole number from 1 to ${MAX_EXPORT_ROWS}`));
  }
  const queryId = options.queryId ?? newQueryId();
  const requested = options.format;
  const format =
    typeof requested === "string"
      ? EXPORT_FORMATS[requested]
      : { engineFormat: requested.engine, contentType: requested.contentType, extension: "" };
  // Rows are counted as lines, less the header lines, where the format is one row a line.
  const headerLines = requested === "csv" ? 1 : typeof requested === "string" ? 0 : textHeaderLines(requested.engine);
  const isCounted = requested === "csv" || requested === "json" || headerLines !== undefined;
  const binding = { params: options.params, database: options.database };
  let settle!: (outcome: { rows: number | undefined; error: Error | undefined }) => void;
  const finished = new Promise<{ rows: number | undefined; error: Error | undefined }>((resolve) => (settle = resolve));

  return new Promise<UserQueryExport>((resolve, reject) => {
    sandbox
      .session(
        options.owner ?? "service",
        sql,
        queryId,
        options.signal,
        async (session, statement, entry) => {
          const supervised = sandbox.supervise(
            session,
            wrapForExport(statement.body, maxRows, queryId),
            format.engineFormat,
            queryId,
            entry,
            { binding },
          );
          const engine = supervised.stream[Symbol.asyncIterator]();
          let rows = 0;
          let first: IteratorResult<Buffer>;
          try {
            first = await engine.next();
          } catch (error) {
            supervised.done();
            throw sandbox.failureOf(error, supervised);
          }
          const counted = async function* (): AsyncGenerator<Buffer> {
            let step = first;
            while (!step.done) {
              if (isCounted) rows += countLines(step.value);
              yield step.value;
              step = await engine.next();
            }
          };
          const shaped =
            requested === "json" ? jsonArray(counted()) : requested === "csv" ? defuseCsvCells(counted()) : counted();
          let idle: NodeJS.Timeout | undefined;
          const stream = new Readable({
            read() {
              idle?.refresh();
              shaped.next().then(
                (step) => {
                  if (!step.done) this.push(step.value);
                  // The engine's stream ends quietly when the supervisor stopped it (the
                  // time limit, Cancel): that end is an error the reader must see, never a
                  // file that looks whole.
                  else if (supervised.isTimedOut || supervised.isCancelled) {
                    this.destroy(sandbox.failureOf(new Error("stopped"), supervised));
                  } else this.push(null);
                },
                (error: unknown) => this.destroy(sandbox.failureOf(error, supervised)),
              );
            },
            destroy(error, callback) {
              clearTimeout(idle);
              // Stops the engine query when the reader went away before the end.
              Promise.resolve(shaped.return?.(undefined))
                .then(() => engine.return?.(undefined))
                .then(
                  () => callback(error),
                  () => callback(error),
                );
            },
          });
          idle = setTimeout(
            () => stream.destroy(new DownloadStalledError(sandbox.limits.downloadIdleMs)),
            sandbox.limits.downloadIdleMs,
          );
          entry.stop = async () => {
            stream.destroy(new QueryCancelledError());
          };
          resolve({ stream, contentType: format.contentType, extension: format.extension, queryId, finished });
          const outcome = await new Promise<Error | undefined>((done) => {
            stream.once("close", () =>
              done(stream.errored ?? (stream.readableEnded ? undefined : new QueryCancelledError())),
            );
          });
          supervised.done();
          // CSV counts its header line.
          const written = isCounted ? Math.max(0, rows - (headerLines ?? 0)) : undefined;
          return { rows: written, error: outcome };
        },
        binding,
      )
      // Settled once the session is given back: the download is over in every sense.
      .then(settle)
      .catch((error: Error) => {
        settle({ rows: 0, error });
        reject(error);
      });
  });
}

/** Header lines of a one-row-a-line engine format; undefined for the others (binary, documents). */
function textHeaderLines(format: string): number | undefined {
  if (!/^(JSON(Compact)?(Strings)?EachRow|TabSeparated|TSV|CSV)/.test(format)) return undefined;
  if (format.endsWith("WithNamesAndTypes")) return 2;
  return format.endsWith("WithNames") ? 1 : 0;
}

function countLines(chunk: Buffer): number {
  let lines = 0;
  for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
  return lines;
}

/** `JSONEachRow` lines → one JSON array, without holding more than a chunk. */
async function* jsonArray(lines: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const decoder = new StringDecoder("utf8");
  let carry = "";
  let isFirst = true;
  const rows = (text: string) => {
    let out = "";
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue;
      out += isFirst ? line : `,\n${line}`;
      isFirst = false;
    }
    return out;
  };
  yield Buffer.from("[\n");
  for await (const chunk of lines) {
    const text = carry + decoder.write(chunk);
    const end = text.lastIndexOf("\n");
    carry = end === -1 ? text : text.slice(end + 1);
    if (end !== -1) yield Buffer.from(rows(text.slice(0, end)));
  }
  yield Buffer.from(`${rows(carry + decoder.end())}\n]\n`);
}
