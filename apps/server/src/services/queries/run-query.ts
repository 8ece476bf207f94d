/**
 * The one way user SQL runs, for the editor, the REST API, dashboards and Seismo alike:
 * the sandbox checks and runs it, and every run — success or failure — is recorded in
 * `query_runs` for the statistics and the admin's error list. Recording is write-behind
 * (`run-recorder.ts`) and never fails a query: a run that could not be recorded is logged.
 */
import type { AppDb, QueryRunRecord } from "@epicenter/db";
import { type Sandbox, SandboxError, type UserQueryResult } from "@epicenter/warehouse";
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
  /** The answer goes out as objects keyed by column name: count the keys against the byte limit. */
  isKeyed?: boolean;
}

/** Who a run belongs to, for the fair share of the engine: the user, else the key, else nobody in particular. */
export function ownerOf(request: Pick<QueryRequest, "userId" | "apiKeyId">): string {
  return request.userId ?? request.apiKeyId ?? "anonymous";
}

export async function runQuery(deps: QueryServiceDeps, request: QueryRequest): Promise<UserQueryResult> {
  const startedAt = deps.clock();
  const started = performance.now();
  let result: UserQueryResult | undefined;
  let failure: unknown = null;
  try {
    const owner = ownerOf(request);
    const answer = await deps.admission.run(owner, () =>
      deps.sandbox.run(request.sql, {
        limit: request.limit,
        owner,
        ...(request.isKeyed ? { isKeyed: true } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
        ...(request.timeoutMs ? { timeoutMs: request.timeoutMs } : {}),
      }),
    );
    result = answer;
    return answer;
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
      error: result ? null : runErrorText(failure),
    };
    deps.queryRuns.record(run);
  }
}

/** What a failed run's record says: the user-facing message, never an internal one. */
export function runErrorText(failure: unknown): string {
  return failure instanceof SandboxError || failure instanceof QueryServiceBusy ? failure.message : "internal error";
}
