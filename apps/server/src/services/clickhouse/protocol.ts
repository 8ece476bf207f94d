/**
 * The parts of ClickHouse's HTTP interface that clients depend on, as data: the output
 * formats served (the engine produces every one of them), the URL parameters that are
 * protocol rather than settings, the settings accepted, and errors in ClickHouse's own
 * text (`Code: N. DB::Exception: … (NAME)`), which `@clickhouse/client`,
 * clickhouse-connect, clickhouse-go and JDBC parse into their own error types.
 */
import { SandboxError } from "@epicenter/warehouse";
import { QueryServiceBusy } from "../queries/admission";
import { UnconfinedSqlRefused } from "../queries/run-query";
import { NativeRevisionError } from "./native-revision";
import { StatementError } from "./statement";

const JSON_TYPE = "application/json; charset=UTF-8";
const NDJSON_TYPE = "application/x-ndjson; charset=UTF-8";
const TSV_TYPE = "text/tab-separated-values; charset=UTF-8";
const CSV_TYPE = "text/csv; charset=UTF-8; header=absent";
const CSV_HEADER_TYPE = "text/csv; charset=UTF-8; header=present";
const BINARY_TYPE = "application/octet-stream";
const TEXT_TYPE = "text/plain; charset=UTF-8";

/** The formats served, with the Content-Type ClickHouse sends for each. */
export const OUTPUT_FORMATS: Readonly<Record<string, string>> = {
  JSON: JSON_TYPE,
  JSONStrings: JSON_TYPE,
  JSONCompact: JSON_TYPE,
  JSONCompactStrings: JSON_TYPE,
  JSONColumns: JSON_TYPE,
  JSONColumnsWithMetadata: JSON_TYPE,
  JSONEachRow: NDJSON_TYPE,
  JSONStringsEachRow: NDJSON_TYPE,
  JSONCompactEachRow: NDJSON_TYPE,
  JSONCompactStringsEachRow: NDJSON_TYPE,
  JSONCompactEachRowWithNames: NDJSON_TYPE,
  JSONCompactEachRowWithNamesAndTypes: NDJSON_TYPE,
  JSONCompactStringsEachRowWithNames: NDJSON_TYPE,
  JSONCompactStringsEachRowWithNamesAndTypes: NDJSON_TYPE,
  TabSeparated: TSV_TYPE,
  TabSeparatedRaw: TSV_TYPE,
  TabSeparatedWithNames: TSV_TYPE,
  TabSeparatedWithNamesAndTypes: TSV_TYPE,
  TSV: TSV_TYPE,
  TSVRaw: TSV_TYPE,
  TSVWithNames: TSV_TYPE,
  TSVWithNamesAndTypes: TSV_TYPE,
  CSV: CSV_TYPE,
  CSVWithNames: CSV_HEADER_TYPE,
  CSVWithNamesAndTypes: CSV_HEADER_TYPE,
  RowBinary: BINARY_TYPE,
  RowBinaryWithNames: BINARY_TYPE,
  RowBinaryWithNamesAndTypes: BINARY_TYPE,
  Native: BINARY_TYPE,
  Parquet: BINARY_TYPE,
  Arrow: BINARY_TYPE,
  ArrowStream: BINARY_TYPE,
  Pretty: TEXT_TYPE,
  PrettyCompact: TEXT_TYPE,
  PrettyCompactMonoBlock: TEXT_TYPE,
  Vertical: TEXT_TYPE,
  Markdown: TEXT_TYPE,
};

/** URL parameters that are the protocol's, not settings. */
export const PROTOCOL_PARAMETERS: ReadonlySet<string> = new Set([
  "query",
  "database",
  "default_format",
  "user",
  "password",
  "query_id",
  "session_id",
  "session_timeout",
  "session_check",
  "quota_key",
  "compress",
  "decompress",
  "buffer_size",
  "wait_end_of_query",
  "client_protocol_version",
  "role",
  "stacktrace",
]);

/**
 * Settings a client may send. Row limits lower the result's limit (Grafana sends its row
 * limit as `limit`); the rest change nothing here (the interface is read-only, the limits
 * and output settings fixed) and are accepted so that the drivers that always send them
 * can connect. A value that asks for what this interface cannot give is refused.
 */
export const ACCEPTED_SETTINGS: Readonly<Record<string, (value: string) => string | undefined>> = {
  max_result_rows: (value) => (/^\d+$/.test(value) ? undefined : "a whole number of rows"),
  limit: (value) => (/^\d+$/.test(value) ? undefined : "a whole number of rows"),
  result_overflow_mode: (value) => (/^(throw|break)$/.test(value) ? undefined : "throw or break"),
  readonly: (value) => (value === "1" || value === "2" ? undefined : "1 or 2: this interface only reads"),
  // 64-bit integers are always quoted here (as in the REST API); clients that send 0 by
  // default (the `clickhouse` npm package) still connect and read strings.
  output_format_json_quote_64bit_integers: (value) => (value === "0" || value === "1" ? undefined : "0 or 1"),
  session_timezone: (value) => (/^(UTC|Etc\/UTC|)$/.test(value) ? undefined : "UTC: the archive is kept in UTC"),
  max_execution_time: (value) => (/^\d+(\.\d+)?$/.test(value) ? undefined : "a number of seconds"),
  enable_http_compression: () => undefined,
  // Frames under compress=1 are LZ4 (ZSTD frames are not written here).
  network_compression_method: (value) => (/^lz4$/i.test(value) ? undefined : "LZ4: compressed answers are LZ4 frames"),
  send_progress_in_http_headers: () => undefined,
  http_headers_progress_interval_ms: () => undefined,
  cancel_http_readonly_queries_on_client_close: () => undefined,
  date_time_input_format: () => undefined,
  cast_string_to_dynamic_use_inference: () => undefined,
  async_insert: () => undefined,
  wait_for_async_insert: () => undefined,
  extremes: (value) => (value === "0" ? undefined : "0"),
};

/** A failure in ClickHouse's form: its code and name, and the HTTP status a server would give. */
export interface ClickHouseFailure {
  status: number;
  code: number;
  name: string;
  message: string;
  headers?: Record<string, string>;
}

export function failure(status: number, code: number, name: string, message: string): ClickHouseFailure {
  return { status, code, name, message };
}

/** A request the interface refuses, with the failure a ClickHouse server would give. */
export class ClickHouseRefusal extends Error {
  constructor(readonly failure: ClickHouseFailure) {
    super(failure.message);
  }
}

/** Throws the refusal for `failure(…)`. */
export function refuse(status: number, code: number, name: string, message: string): never {
  throw new ClickHouseRefusal(failure(status, code, name, message));
}

/** The engine's codes for the error names user SQL most often meets. */
const ENGINE_CODES: Readonly<Record<string, number>> = {
  BAD_ARGUMENTS: 36,
  NUMBER_OF_ARGUMENTS_DOESNT_MATCH: 42,
  ILLEGAL_TYPE_OF_ARGUMENT: 43,
  UNKNOWN_FUNCTION: 46,
  UNKNOWN_IDENTIFIER: 47,
  TYPE_MISMATCH: 53,
  UNKNOWN_TABLE: 60,
  SYNTAX_ERROR: 62,
  UNKNOWN_DATABASE: 81,
  CANNOT_PARSE_TEXT: 6,
  CANNOT_CONVERT_TYPE: 70,
  ILLEGAL_COLUMN: 44,
  NOT_AN_AGGREGATE: 215,
  ILLEGAL_AGGREGATION: 184,
  UNKNOWN_QUERY_PARAMETER: 456,
  BAD_QUERY_PARAMETER: 457,
  TIMEOUT_EXCEEDED: 159,
  MEMORY_LIMIT_EXCEEDED: 241,
  TOO_MANY_ROWS_OR_BYTES: 396,
};

/** 404 for what does not exist, 400 for what cannot be read, as ClickHouse answers them. */
const NOT_FOUND = new Set(["UNKNOWN_TABLE", "UNKNOWN_FUNCTION", "UNKNOWN_IDENTIFIER", "UNKNOWN_DATABASE"]);

/** A thrown error as ClickHouse would report it; undefined for one that is ours to log (a bug). */
export function failureOf(error: unknown): ClickHouseFailure | undefined {
  if (error instanceof ClickHouseRefusal) return error.failure;
  if (error instanceof StatementError) {
    // What a read-only server will not do is forbidden, not malformed (ClickHouse: 403).
    return failure(error.errorName === "READONLY" ? 403 : 400, error.code, error.errorName, error.message);
  }
  if (error instanceof NativeRevisionError) return failure(400, 48, "NOT_IMPLEMENTED", error.message);
  if (error instanceof QueryServiceBusy) {
    return {
      ...failure(503, 202, "TOO_MANY_SIMULTANEOUS_QUERIES", error.message),
      headers: { "retry-after": String(error.retryAfterSeconds) },
    };
  }
  // The REST API's 503 for the same refusal (the server cannot confine user SQL, not the
  // caller's fault), in ClickHouse's words so that the drivers show the message.
  if (error instanceof UnconfinedSqlRefused) return failure(503, 497, "ACCESS_DENIED", error.message);
  if (!(error instanceof SandboxError)) return undefined;
  switch (error.kind) {
    case "refused":
      return failure(403, 497, "ACCESS_DENIED", error.message);
    case "syntax":
      return failure(400, 62, "SYNTAX_ERROR", error.message);
    case "timeout":
      return failure(500, 159, "TIMEOUT_EXCEEDED", error.message);
    case "cancelled":
      return failure(500, 394, "QUERY_WAS_CANCELLED", error.message);
    case "memory":
      return failure(500, 241, "MEMORY_LIMIT_EXCEEDED", error.message);
    case "too_large":
      return failure(500, 396, "TOO_MANY_ROWS_OR_BYTES", error.message);
    case "engine": {
      const name = error.engineCode ?? "UNKNOWN_EXCEPTION";
      return failure(NOT_FOUND.has(name) ? 404 : 400, ENGINE_CODES[name] ?? 1002, name, error.message);
    }
    default: {
      const unknown: never = error.kind;
      return failure(500, 1002, "UNKNOWN_EXCEPTION", `${String(unknown)}`);
    }
  }
}

/** The body ClickHouse sends for an exception, which every client's error parser reads. */
export function failureText(failed: ClickHouseFailure, version: string): string {
  const message = failed.message.replace(/\.$/, "");
  return `Code: ${failed.code}. DB::Exception: ${message}. (${failed.name}) (version ${version} (epicenter))\n`;
}

/** Checks every setting in the URL; answers the row limits they ask for. */
export function checkSettings(parameters: Map<string, string>): { rowLimits: number[] } {
  const rowLimits: number[] = [];
  for (const [name, value] of parameters) {
    if (PROTOCOL_PARAMETERS.has(name) || name.startsWith("param_")) continue;
    const check = ACCEPTED_SETTINGS[name];
    if (!check) {
      refuse(
        400,
        164,
        "READONLY",
        `Setting ${name} cannot be set here: this interface is read-only with fixed limits. Accepted settings: ${Object.keys(ACCEPTED_SETTINGS).join(", ")}`,
      );
    }
    const expected = check(value);
    if (expected) refuse(400, 164, "READONLY", `Setting ${name} must be ${expected}; got ${value}`);
    if ((name === "max_result_rows" || name === "limit") && Number(value) > 0) rowLimits.push(Number(value));
  }
  return { rowLimits };
}
