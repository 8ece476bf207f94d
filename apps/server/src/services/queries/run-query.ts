/**
 * The one way user SQL runs, for the editor, the REST API, dashboards, the catalog's
 * samples, downloads and Seismo alike: admission (a bounded queue, per caller too), the
 * sandbox, and a record of every run — success or failure — in `query_runs` for the
 * statistics and the admin's error list. Recording is write-behind (`run-recorder.ts`) and
 * never fails a query: a run that could not be recorded is logged. A run's start is the
 * injected clock's; its duration is measured, never a difference of two clocks.
 */
import { paramText, type QueryParams, type QueryResult } from "@epicenter/contracts";
import type { AppDb, QueryRunRecord } from "@epicenter/db";
import {
  type EngineOutputFormat,
  type ExportFormat,
  type RunUserQueryOptions,
  type Sandbox,
  SandboxError,
  type UserQueryExport,
  type UserQueryJson,
} from "@epicenter/warehouse";
import type { Logger } from "pino";
import { type QueryAdmission, QueryServiceBusy } from "./admission";
import type { QueryRunRecorder } from "./run-recorder";

export interface QueryServiceDeps {
  sandbox: Sandbox;
  /**
   * Who may run SQL they wrote when the sandbox cannot confine it (`Sandbox.isConfined`
   * false): absent, everyone (confined, or the operator allowed it); present, the users it
   * admits (admins). SQL the product writes (dashboards, catalog samples) always runs.
   */
  unconfinedSql?: { admits(userId: string | null | undefined): Promise<boolean> };
  admission: QueryAdmission;
  db: AppDb;
  queryRuns: QueryRunRecorder;
  logger: Logger;
  clock: () => Date;
}

export interface QueryRequest {
  sql: string;
  limit: number;
  savedQueryId?: string | null;
  userId?: string | null;
  apiKeyId?: string | null;
  origin: QueryRunRecord["origin"];
  signal?: AbortSignal;
  timeoutMs?: number;
  /** The answer goes out as objects keyed by column name (`runQueryJson`): count the keys against the byte limit. */
  isKeyed?: boolean;
  /** Values of the statement's `{name:Type}` parameters; the engine binds them. */
  params?: QueryParams | undefined;
  /** The market database unqualified table names are read from (the ClickHouse interface's `database`). */
  database?: string | undefined;
  /** A lower byte bound on the answer than the sandbox's (MCP keeps a tool call small). */
  maxBytes?: number | undefined;
}

/** What the sandbox takes from a request besides the SQL: parameters as text, and the database. */
function bindingOf(request: Pick<QueryRequest, "params" | "database">) {
  return {
    ...(request.params
      ? { params: Object.fromEntries(Object.entries(request.params).map(([name, value]) => [name, paramText(value)])) }
      : {}),
    ...(request.database ? { database: request.database } : {}),
  };
}

/** Who a run belongs to, for the fair share of the engine: the user, else the key, else nobody in particular. */
export function ownerOf(request: Pick<QueryRequest, "userId" | "apiKeyId">): string {
  return request.userId ?? request.apiKeyId ?? "anonymous";
}

/** Origins whose SQL the product writes itself; every other origin runs what a person or a model wrote. */
const PRODUCT_SQL: ReadonlySet<QueryRequest["origin"]> = new Set(["dashboard", "catalog"]);

/** Refused: this install cannot confine user SQL, and the caller is not an admin. */
export class UnconfinedSqlRefused extends Error {
  override readonly name = "UnconfinedSqlRefused";
  constructor() {
    super(
      "Running SQL is open to administrators only on this server: it cannot confine user SQL here (bubblewrap is not installed). An administrator can install bubblewrap and restart the server.",
    );
  }
}

/**
 * Refuses a caller who may not run SQL here (`unconfinedSql`); also asked by the ClickHouse
 * interface for a `SET`, which never reaches the query service, so both answer alike.
 */
export async function admit(deps: QueryServiceDeps, request: Pick<QueryRequest, "origin" | "userId">): Promise<void> {
  if (!deps.unconfinedSql || PRODUCT_SQL.has(request.origin)) return;
  if (!(await deps.unconfinedSql.admits(request.userId))) throw new UnconfinedSqlRefused();
}

export async function runQuery(deps: QueryServiceDeps, request: QueryRequest): Promise<QueryResult> {
  const { queryId: _queryId, ...result } = await runRecorded(deps, request, (options) =>
    deps.sandbox.run(request.sql, options),
  );
  return result;
}

/** The same run, its rows left as the engine's JSON text (keyed by column name with `isKeyed`): for the REST edge. */
export async function runQueryJson(deps: QueryServiceDeps, request: QueryRequest): Promise<QueryJson> {
  const { queryId: _queryId, ...result } = await runRecorded(deps, request, (options) =>
    deps.sandbox.runJson(request.sql, options),
  );
  return result;
}

/** A result whose rows are still JSON text: `[[…],…]`, or `[{…},…]` when keyed. */
export type QueryJson = Omit<UserQueryJson, "queryId">;

async function runRecorded<T extends { execution_time_ms: number; row_count: number }>(
  deps: QueryServiceDeps,
  request: QueryRequest,
  run: (options: RunUserQueryOptions) => Promise<T>,
): Promise<T> {
  const startedAt = deps.clock();
  const started = performance.now();
  const owner = ownerOf(request);
  try {
    await admit(deps, request);
    const answer = await deps.admission.run(owner, () =>
      run({
        limit: request.limit,
        owner,
        ...(request.isKeyed ? { isKeyed: true } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
        ...(request.timeoutMs ? { timeoutMs: request.timeoutMs } : {}),
        ...(request.maxBytes ? { maxBytes: request.maxBytes } : {}),
        ...bindingOf(request),
      }),
    );
    record(deps, request, startedAt, {
      durationMs: answer.execution_time_ms,
      rowCount: answer.row_count,
      failure: null,
    });
    return answer;
  } catch (error) {
    record(deps, request, startedAt, { durationMs: performance.now() - started, rowCount: 0, failure: error });
    throw error;
  }
}

/**
 * Starts a download of the result (CSV, JSON or Parquet, or one of the engine's formats for
 * the ClickHouse interface) and resolves when its first
 * bytes are ready; the run is recorded when the download ends, with the rows it wrote
 * and what cut it short (the reader left, stalled, the time limit).
 */
export async function streamQuery(
  deps: QueryServiceDeps,
  request: Omit<QueryRequest, "limit" | "isKeyed" | "timeoutMs" | "maxBytes"> & {
    format: ExportFormat | EngineOutputFormat;
    maxRows: number;
  },
): Promise<UserQueryExport> {
  const startedAt = deps.clock();
  const started = performance.now();
  const owner = ownerOf(request);
  const logged = { ...request, limit: request.maxRows };
  try {
    await admit(deps, request);
    // Admitted for as long as it takes the engine to produce the first chunk; the
    // sandbox's fair share holds the session until the download ends.
    const download = await deps.admission.run(owner, () =>
      deps.sandbox.stream(request.sql, {
        format: request.format,
        maxRows: request.maxRows,
        owner,
        ...(request.signal ? { signal: request.signal } : {}),
        ...bindingOf(request),
      }),
    );
    void download.finished.then(({ rows, error }) =>
      record(deps, logged, startedAt, {
        durationMs: performance.now() - started,
        rowCount: rows ?? 0,
        failure: error ?? null,
      }),
    );
    return download;
  } catch (error) {
    record(deps, logged, startedAt, { durationMs: performance.now() - started, rowCount: 0, failure: error });
    throw error;
  }
}

/** What a failed run's record says: the user-facing message, never an internal one. */
export function runErrorText(failure: unknown): string {
  return failure instanceof SandboxError ||
    failure instanceof QueryServiceBusy ||
    failure instanceof UnconfinedSqlRefused
    ? failure.message
    : "internal error";
}

function record(
  deps: QueryServiceDeps,
  request: QueryRequest,
  startedAt: Date,
  outcome: { durationMs: number; rowCount: number; failure: unknown },
): void {
  deps.queryRuns.record({
    queryId: request.savedQueryId ?? null,
    userId: request.userId ?? null,
    apiKeyId: request.apiKeyId ?? null,
    origin: request.origin,
    sql: request.sql,
    startedAt,
    durationMs: Math.round(outcome.durationMs),
    rowCount: outcome.rowCount,
    error: outcome.failure === null ? null : runErrorText(outcome.failure),
  });
}
