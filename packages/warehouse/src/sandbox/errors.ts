/**
 * The ways a user query can fail, as typed errors the HTTP layer maps to a 400 (a person
 * wrote something we will not or cannot run) without reading messages. Every one carries
 * a sentence a person can act on; syntax errors carry the position the engine reported,
 * converted to the editor's line, column and string offset.
 *
 * The engine's own message is kept (it is the best description of what went wrong), with
 * the parts that describe our wrapping rather than the user's query removed: the
 * `Code: N. DB::Exception:` prefix, the version, `In scope …` clauses that quote the
 * statement we built around theirs, and any absolute path on the server.
 */

export interface QueryPosition {
  /** From 1. */
  line: number;
  /** From 1, in characters of the line. */
  column: number;
  /** From 0, a string index into the submitted text. */
  offset: number;
}

export type SandboxErrorKind = "refused" | "syntax" | "timeout" | "cancelled" | "memory" | "too_large" | "engine";

export abstract class SandboxError extends Error {
  abstract readonly kind: SandboxErrorKind;
  /** The engine's error name (`UNKNOWN_IDENTIFIER`), when the engine raised it. */
  readonly engineCode: string | undefined;

  constructor(message: string, engineCode?: string) {
    super(message);
    this.name = new.target.name;
    this.engineCode = engineCode;
  }

  /** The `details` of the API error (`ZQueryErrorDetails` in contracts). */
  get details(): { position?: QueryPosition; engine_code?: string } {
    return this.engineCode ? { engine_code: this.engineCode } : {};
  }
}

/** The query is outside what the sandbox allows; `reason` says what and what to do instead. */
export class SandboxRefusal extends SandboxError {
  readonly kind = "refused";
  get reason(): string {
    return this.message;
  }
}

export class QuerySyntaxError extends SandboxError {
  readonly kind = "syntax";
  constructor(
    message: string,
    readonly position: QueryPosition | undefined,
  ) {
    super(message, "SYNTAX_ERROR");
  }
  override get details() {
    return { ...(this.position ? { position: this.position } : {}), engine_code: "SYNTAX_ERROR" };
  }
}

export class QueryTimeoutError extends SandboxError {
  readonly kind = "timeout";
  constructor(readonly limitMs: number) {
    super(
      `The query ran longer than the ${formatSeconds(limitMs)} limit and was stopped. Filter on sync_timestamp, select fewer columns or aggregate before reading.`,
      "TIMEOUT_EXCEEDED",
    );
  }
}

export class QueryCancelledError extends SandboxError {
  readonly kind = "cancelled";
  constructor() {
    super("The query was cancelled.", "QUERY_WAS_CANCELLED");
  }
}

export class QueryMemoryError extends SandboxError {
  readonly kind = "memory";
  constructor(limitBytes: number) {
    super(
      `The query needed more than the ${formatBytes(limitBytes)} memory limit and was stopped. Aggregate fewer groups, filter earlier or read fewer columns.`,
      "MEMORY_LIMIT_EXCEEDED",
    );
  }
}

export class QueryTooLargeError extends SandboxError {
  readonly kind = "too_large";
  constructor(limitBytes: number) {
    super(
      `The result is larger than ${formatBytes(limitBytes)}; select fewer columns or rows.`,
      "TOO_MANY_ROWS_OR_BYTES",
    );
  }
}

/** Any other error of the engine about the query (unknown column, bad types, …). */
export class QueryEngineError extends SandboxError {
  readonly kind = "engine";
}

export interface EngineFailure {
  /** Numeric code (`Code: 62`) when present. */
  code: number | undefined;
  /** Error name in brackets at the end (`SYNTAX_ERROR`) when present. */
  name: string | undefined;
  message: string;
}

/** Longest engine message shown; the engine quotes the user's text, which may be 100,000 characters. */
export const MAX_MESSAGE_LENGTH = 2_000;

/**
 * Reads `Code: N. DB::Exception: … (NAME)` out of whatever the client threw. Linear in
 * the message whatever it holds: the patterns below only ever see a bounded head or tail.
 */
export function readEngineFailure(error: unknown): EngineFailure {
  const raw = error instanceof Error ? error.message : String(error);
  const codeField = (error as { code?: unknown } | null)?.code;
  const typeField = (error as { type?: unknown } | null)?.type;
  const code = Number(codeField ?? /Code: (\d{1,6})/.exec(raw.slice(0, 200))?.[1]);
  const name = typeof typeField === "string" ? typeField : /\(([A-Z_]{1,64})\)$/.exec(raw.slice(-200).trimEnd())?.[1];
  return { code: Number.isFinite(code) ? code : undefined, name, message: cleanMessage(raw) };
}

const EXCEPTION_PREFIX = /^Code: \d{1,6}\. DB::Exception: /;

/**
 * The engine's sentence without the framing that describes our statement rather than
 * theirs: the `Code: N. DB::Exception:` prefix (chDB nests it twice), `(version …)`, the
 * trailing `(NAME)`, and the `In scope …` clause that quotes the statement we built.
 * Cut to `MAX_MESSAGE_LENGTH` first, and scanned with `indexOf` only, so a message of a
 * million spaces costs what its length does.
 */
export function cleanMessage(raw: string): string {
  const isCut = raw.length > MAX_MESSAGE_LENGTH;
  let message = (isCut ? raw.slice(0, MAX_MESSAGE_LENGTH) : raw).trimStart();
  for (let pass = 0; pass < 2; pass++) message = message.replace(EXCEPTION_PREFIX, "").trimStart();
  message = removeBetween(message, " (version ", ")");
  const scope = message.indexOf("In scope ");
  if (scope !== -1) message = message.slice(0, scope);
  message = message.trimEnd();
  const name = /\s?\([A-Z_]{1,64}\)\.?$/.exec(message.slice(-80));
  if (name) message = message.slice(0, message.length - name[0].length);
  message = collapseSpaces(withoutPaths(message));
  while (message.endsWith(":")) message = message.slice(0, -1).trimEnd();
  if (isCut) return `${message} …`;
  return message.endsWith(".") ? message : `${message}.`;
}

/**
 * An absolute path of two or more parts, as the engine quotes a file it could not open
 * (`Permission denied [/var/lib/…/shadow/…/data.bin]`): where the server keeps its data
 * is no business of a query's author (issue 44). Each part stops at a `/`, so one pass.
 */
const ABSOLUTE_PATH = /(?<![\w.~-])\/(?:[^\s/'"`[\](){},;]+\/)+[^\s/'"`[\](){},;]*/g;

/** The message with every absolute path replaced by `<path>`. */
export function withoutPaths(message: string): string {
  return message.replace(ABSOLUTE_PATH, "<path>");
}

/** Removes every `open…close` span (the first `close` after each `open`). */
function removeBetween(text: string, open: string, close: string): string {
  let out = "";
  let from = 0;
  for (;;) {
    const at = text.indexOf(open, from);
    if (at === -1) return out + text.slice(from);
    const end = text.indexOf(close, at + open.length);
    if (end === -1) return out + text.slice(from);
    out += text.slice(from, at);
    from = end + close.length;
  }
}

/** Every run of whitespace as one space, in one pass. */
function collapseSpaces(text: string): string {
  let out = "";
  let isSpace = false;
  for (const ch of text) {
    if (ch === " " || ch === "\n" || ch === "\t" || ch === "\r") {
      isSpace = true;
      continue;
    }
    if (isSpace && out !== "") out += " ";
    isSpace = false;
    out += ch;
  }
  return out;
}

/**
 * A syntax error from parsing `sql` (the user's text, unchanged, so positions need no
 * shifting). The engine reports `failed at position N` counting UTF-8 bytes from 1.
 */
export function syntaxErrorFrom(failure: EngineFailure, sql: string): QuerySyntaxError {
  const position = /failed at position (\d{1,9})/.exec(failure.message)?.[1];
  if (position === undefined) return new QuerySyntaxError(failure.message, undefined);
  const offset = byteOffsetToIndex(sql, Number(position) - 1);
  return new QuerySyntaxError(failure.message, lineAndColumn(sql, offset));
}

export interface FailureLimits {
  timeoutMs: number;
  maxMemoryBytes: number;
  maxResultBytes: number;
}

/** Maps a failure of the wrapped user statement to the error the caller sees. */
export function runFailure(error: unknown, limits: FailureLimits): SandboxError {
  if (error instanceof SandboxError) return error;
  const failure = readEngineFailure(error);
  switch (failure.name) {
    case "TIMEOUT_EXCEEDED":
      return new QueryTimeoutError(limits.timeoutMs);
    case "QUERY_WAS_CANCELLED":
      return new QueryCancelledError();
    case "MEMORY_LIMIT_EXCEEDED":
      return new QueryMemoryError(limits.maxMemoryBytes);
    case "TOO_MANY_ROWS_OR_BYTES":
      return new QueryTooLargeError(limits.maxResultBytes);
    default:
      return new QueryEngineError(failure.message, failure.name);
  }
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)}-second`;
}

function formatBytes(bytes: number): string {
  const mib = bytes / 1024 / 1024;
  return mib >= 1024 ? `${(mib / 1024).toFixed(mib % 1024 === 0 ? 0 : 1)} GiB` : `${Math.round(mib)} MiB`;
}

/** Line and column (both from 1) of a string index, for error positions in the editor. */
export function lineAndColumn(sql: string, offset: number): { line: number; column: number; offset: number } {
  const before = sql.slice(0, Math.max(0, Math.min(offset, sql.length)));
  const lines = before.split("\n");
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1, offset };
}

/** The engine counts positions in UTF-8 bytes; the editor counts UTF-16 code units. */
export function byteOffsetToIndex(sql: string, byteOffset: number): number {
  return Buffer.from(sql, "utf8").subarray(0, Math.max(0, byteOffset)).toString("utf8").length;
}
