/**
 * Downloads of a user query's result in the engine's own formats: CSV (`CSVWithNames`),
 * JSON (a JSON array of row objects) and Parquet. Same validation and tagging as
 * `runUserQuery`, bounded by `maxRows` through the same wrapping.
 *
 * Streaming, measured: `@clickhouse/client` over `chdb/connection` materialises the
 * whole result before the first byte (its `query`/`exec` are one buffered native call),
 * so on chDB CSV and JSON use the connection's `.chdb.queryStream`, which fetches block
 * by block on the libuv thread (300,000 rows arrived as 5 chunks of ~1 MB). Parquet is
 * the exception: the stream writes each block as a complete Parquet file, so on chDB a
 * Parquet download is one buffered engine call, held in memory up to the engine's
 * `max_result_bytes` (compressed columnar output is far smaller than the rows). On a
 * server, `exec` hands over the HTTP body as it arrives, for every format. Either way the
 * connection stays leased until the download ends, and the engine's time limit still
 * applies, so a very slow reader of a very large download is cut off at that limit.
 *
 * JSON is produced from `JSONEachRow` rather than the engine's `JSON` document (which
 * adds `meta` and `statistics` around the rows) so the file is exactly the API's `data`:
 * `[`, the rows separated by commas, `]`.
 */

import { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import { StringDecoder } from "node:string_decoder";
import type { DataFormat } from "@clickhouse/client";
import { clearProcessEntry, killByTag, registerRun, supervise } from "./cancel";
import { QueryCancelledError, runFailure } from "./errors";
import { internalsOf, newQueryId, type Sandbox, type SandboxConnection, type SandboxInternals } from "./sandbox";
import { assertQueryId, wrapForExport } from "./sql-text";
import { validateOn } from "./validate";

export type ExportFormat = "csv" | "json" | "parquet";

export const EXPORT_FORMATS: Record<ExportFormat, { engineFormat: string; contentType: string; extension: string }> = {
  csv: { engineFormat: "CSVWithNames", contentType: "text/csv; charset=utf-8", extension: "csv" },
  json: { engineFormat: "JSONEachRow", contentType: "application/json; charset=utf-8", extension: "json" },
  parquet: { engineFormat: "Parquet", contentType: "application/vnd.apache.parquet", extension: "parquet" },
};

/** Most rows one download may hold. */
export const MAX_EXPORT_ROWS = 1_000_000;

export interface StreamUserQueryOptions {
  format: ExportFormat;
  /** Rows written at most (1 … MAX_EXPORT_ROWS); the rest are left out. */
  maxRows: number;
  signal?: AbortSignal;
  queryId?: string;
}

export interface UserQueryExport {
  /** The file's bytes; destroying it stops the engine query. */
  stream: Readable;
  contentType: string;
  extension: string;
  queryId: string;
}

/**
 * Validates and starts the export, and resolves when the first block is ready, so a
 * refusal or an engine error (unknown column) still surfaces before any byte is sent.
 */
export async function streamUserQuery(
  sandbox: Sandbox,
  sql: string,
  options: StreamUserQueryOptions,
): Promise<UserQueryExport> {
  const { maxRows } = options;
  if (!Number.isInteger(maxRows) || maxRows < 1 || maxRows > MAX_EXPORT_ROWS) {
    throw new RangeError(`maxRows must be a whole number from 1 to ${MAX_EXPORT_ROWS}`);
  }
  const queryId = options.queryId ?? newQueryId();
  assertQueryId(queryId);
  const inner = internalsOf(sandbox);
  const format = EXPORT_FORMATS[options.format];

  return new Promise<UserQueryExport>((resolve, reject) => {
    registerRun(inner, queryId, options.signal, (entry) =>
      inner.lease(async (connection) => {
        const { body } = await validateOn(connection.client, sql, inner.policy);
        const chunks = await supervise(inner, connection, queryId, entry, {}, () =>
          openChunks(connection, wrapForExport(body, maxRows, queryId), format.engineFormat),
        );
        const bytes = options.format === "json" ? jsonArray(chunks) : chunks;
        let isComplete = false;
        const stream = new Readable({
          read() {
            bytes.next().then(
              (step) => {
                if (step.done) {
                  isComplete = true;
                  this.push(null);
                } else this.push(step.value);
              },
              (error: unknown) => this.destroy(runFailure(error, failureLimits(inner))),
            );
          },
          // Runs before 'close', so the connection is clean before the lease below ends.
          destroy(error, callback) {
            const cleanUp = async () => {
              await bytes.return?.(undefined);
              await chunks.return?.(undefined);
              if (!isComplete) {
                await killByTag(inner, queryId).catch(() => undefined);
                await clearProcessEntry(connection);
              }
            };
            cleanUp().then(
              () => callback(error),
              () => callback(error),
            );
          },
        });
        entry.kill = () => stream.destroy(new QueryCancelledError());
        if (entry.isCancelled) stream.destroy(new QueryCancelledError());
        resolve({ stream, contentType: format.contentType, extension: format.extension, queryId });
        await finished(stream).catch(() => undefined);
      }, options.signal),
    ).catch(reject);
  });
}

function failureLimits(inner: SandboxInternals) {
  return {
    timeoutMs: inner.limits.maxExecutionSeconds * 1000,
    maxMemoryBytes: inner.limits.maxMemoryBytes,
    maxResultBytes: inner.limits.maxResultBytes,
  };
}

/**
 * Starts the engine's output and waits for its first block, where its errors surface.
 * chDB's stream formats every block on its own (measured): `CSVWithNames` repeats the
 * header at the top of each block, dropped here after the first (a header is one line,
 * since names with a line break are refused), and Parquet arrives as one complete file
 * per block, which concatenated is not a file; so Parquet takes the buffered path.
 */
async function openChunks(
  connection: SandboxConnection,
  sql: string,
  engineFormat: string,
): Promise<AsyncGenerator<Buffer>> {
  let chunks: AsyncIterator<Buffer>;
  let cancel = () => {};
  if (connection.streaming && engineFormat !== "Parquet") {
    const native = connection.streaming.queryStream(sql, { format: engineFormat });
    const iterator = native[Symbol.asyncIterator]();
    const repeatsHeader = engineFormat.endsWith("WithNames");
    let index = 0;
    cancel = () => native.cancel();
    chunks = {
      next: async () => {
        const step = await iterator.next();
        if (step.done) return { done: true, value: undefined };
        const raw = Buffer.from(step.value.raw());
        const isRepeat = repeatsHeader && index++ > 0;
        return { done: false, value: isRepeat ? raw.subarray(raw.indexOf(10) + 1) : raw };
      },
    };
  } else {
    const result = await connection.client.exec({
      query: sql,
      clickhouse_settings: { default_format: engineFormat as DataFormat },
    });
    chunks = (result.stream as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
    cancel = () => (result.stream as Readable).destroy();
  }
  const first = await chunks.next();
  return (async function* () {
    try {
      if (first.done) return;
      yield first.value;
      for (let step = await chunks.next(); !step.done; step = await chunks.next()) yield step.value;
    } finally {
      cancel();
    }
  })();
}

/** `JSONEachRow` lines → one JSON array, without holding more than a block. */
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
