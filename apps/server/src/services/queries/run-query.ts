/**
 * The one way user SQL runs, for the editor, the REST API, dashboards and Seismo alike:
 * the sandbox checks and runs it, and every run — success or failure — is recorded in
 * `query_runs` for the statistics and the admin's error list. Recording is write-behind
 * (`run-recorder.ts`) and never fails a query: a run that could not be recorded is logged.
 */
import type { AppDb, QueryRunRecord } from "@epicenter/db";
import { runUserQuery, type Sandbox, SandboxError, type UserQueryResult } from "@epicenter/warehouse";
import type { Logger } from "pino";
import { type QueryAdmission, QueryServiceBusy } from "./admission";
import type { QueryRunRecorder } from "./run-recorder";

export interface QueryServiceDeps {
  sandbox: Sandbox;
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
}

export async function runQuery(deps: QueryServiceDeps, request: QueryRequest): Promise<UserQueryResult> {
  const startedAt = deps.clock();
  const started = performance.now();
  let result: UserQueryResult | undefined;
  let failure: unknown = null;
  try {
    result = await deps.admission.run(() =>
      runUserQuery(deps.sandbox, request.sql, {
        limit: request.limit,
        ...(request.signal ? { signal: request.signal } : {}),
        ...(request.timeoutMs ? { timeoutMs: request.timeoutMs } : {}),
      }),
    );
    return result;
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    const run: QueryRunRecord = {
      queryId: request.savedQueryId ?? null,
      userId: request.userId ?? null,
      apiKeyId: request.apiKeyId ?? null,
      origin: request.origin,
      sql: request.sql,
      startedAt,
      durationMs: Math.round(result?.elapsedMs ?? performance.now() - started),
      rowCount: result?.rowCount ?? 0,
      error: result
        ? null
        : failure instanceof SandboxError || failure instanceof QueryServiceBusy
          ? failure.message
          : "internal error",
    };
    deps.queryRuns.record(run);
  }
}
