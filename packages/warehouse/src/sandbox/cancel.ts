/**
 * Stopping user queries in the engine, for Cancel, for a client that went away and for
 * the time limit.
 *
 * Aborting a call of the client does not stop chDB: the call rejects at once while the
 * engine keeps computing, and the connection stays busy (the next query on it waited
 * 2.7 s in a measurement). So every run is tagged (`/* epicenter-qid:… *\/` at the start
 * of its text, plus `query_id` on a server) and stopped with `KILL QUERY … ASYNC` from
 * the control connection (`SYNC` hangs), repeated until the run's own call returns, which
 * also covers a kill that raced the query's start.
 *
 * One more chDB behaviour shapes this: a query that ended in an error (killed, timed out,
 * out of memory) stays listed in `system.processes` until the next statement on its
 * connection. Every failed run is therefore followed by a `SELECT 1` on that connection
 * before it goes back to the pool, so the list shows only what really runs.
 */
import { quoteString } from "../ddl";
import { type FailureLimits, QueryCancelledError, QueryTimeoutError, runFailure } from "./errors";
import { internalsOf, type Sandbox, type SandboxConnection, type SandboxInternals, text } from "./sandbox";
import { queryTag } from "./sql-text";

const KILL_RETRY_MS = 250;

/** One run's entry in the sandbox's registry, created before validation so Cancel works from the start. */
export interface RunningEntry {
  isCancelled: boolean;
  finished: Promise<void>;
  /** Set while the engine runs the statement: stops it. */
  kill?: () => void;
}

/**
 * Registers `queryId` while `work` runs, so `cancelUserQuery` and `signal` can stop it.
 * `finished` resolves after `work` settles, i.e. after the engine stopped and the
 * connection was cleaned and returned.
 */
export async function registerRun<T>(
  inner: SandboxInternals,
  queryId: string,
  signal: AbortSignal | undefined,
  work: (entry: RunningEntry) => Promise<T>,
): Promise<T> {
  if (inner.running.has(queryId)) throw new Error(`query ${queryId} is already running`);
  let markFinished = () => {};
  const entry: RunningEntry = { isCancelled: false, finished: new Promise((resolve) => (markFinished = resolve)) };
  inner.running.set(queryId, entry);
  const onAbort = () => requestCancel(entry);
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    if (signal?.aborted) requestCancel(entry);
    return await work(entry);
  } finally {
    signal?.removeEventListener("abort", onAbort);
    inner.running.delete(queryId);
    markFinished();
  }
}

function requestCancel(entry: RunningEntry): void {
  entry.isCancelled = true;
  entry.kill?.();
}

export interface SuperviseOptions {
  /** A tighter limit than the engine's for this call (the engine's always applies). */
  timeoutMs?: number;
}

/**
 * Runs the engine call `work` of a registered run under its time limit and cancellation,
 * and maps its failure to a typed error. The engine enforces `max_execution_time`; the
 * timer here enforces a tighter per-call limit and is a backstop two seconds past the
 * engine's (a sleeping block is only checked between blocks).
 */
export async function supervise<T>(
  inner: SandboxInternals,
  connection: SandboxConnection,
  queryId: string,
  entry: RunningEntry,
  options: SuperviseOptions,
  work: () => Promise<T>,
): Promise<T> {
  const engineMs = inner.limits.maxExecutionSeconds * 1000;
  const isTighter = options.timeoutMs !== undefined && options.timeoutMs < engineMs;
  const limitMs = isTighter ? (options.timeoutMs as number) : engineMs;
  const failureLimits: FailureLimits = {
    timeoutMs: limitMs,
    maxMemoryBytes: inner.limits.maxMemoryBytes,
    maxResultBytes: inner.limits.maxResultBytes,
  };
  let isSettled = false;
  let isTimedOut = false;
  let isKilling = false;
  const kill = () => {
    if (isKilling) return;
    isKilling = true;
    const deadline = Date.now() + engineMs + 10_000;
    const repeat = async () => {
      while (!isSettled && Date.now() < deadline) {
        await killByTag(inner, queryId).catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, KILL_RETRY_MS));
      }
    };
    void repeat();
  };
  if (entry.isCancelled) throw new QueryCancelledError();
  entry.kill = kill;
  const timer = setTimeout(
    () => {
      isTimedOut = true;
      kill();
    },
    isTighter ? limitMs : engineMs + 2_000,
  );
  let isFailed = false;
  try {
    const result = await work();
    if (entry.isCancelled) throw new QueryCancelledError();
    return result;
  } catch (error) {
    isFailed = true;
    if (entry.isCancelled) throw new QueryCancelledError();
    if (isTimedOut) throw new QueryTimeoutError(limitMs);
    throw runFailure(error, failureLimits);
  } finally {
    isSettled = true;
    clearTimeout(timer);
    entry.kill = undefined;
    if (isFailed || entry.isCancelled) await clearProcessEntry(connection);
  }
}

/** `KILL QUERY … ASYNC` for a tagged run; returns without waiting for the engine. */
export async function killByTag(inner: SandboxInternals, queryId: string): Promise<void> {
  await inner.control(
    `KILL QUERY WHERE query_id = ${quoteString(queryId)} OR startsWith(query, ${quoteString(queryTag(queryId))}) ASYNC`,
  );
}

/** The statement after a failed one, which is what removes it from chDB's process list. */
export async function clearProcessEntry(connection: SandboxConnection): Promise<void> {
  await text(connection.client, "SELECT 1").catch(() => undefined);
}

/**
 * Stops the run with this id, started by `runUserQuery` or `streamUserQuery` on this
 * sandbox, and resolves once the engine has stopped it (true) — or at once with false
 * when no such run is going on (it finished, or never started here).
 */
export async function cancelUserQuery(sandbox: Sandbox, queryId: string): Promise<boolean> {
  const entry = internalsOf(sandbox).running.get(queryId);
  if (!entry) return false;
  requestCancel(entry);
  await entry.finished;
  return true;
}

/** Queries of user SQL the engine lists as running now (for tests and the admin view). */
export async function runningUserQueries(sandbox: Sandbox): Promise<string[]> {
  const listed = await internalsOf(sandbox).control(
    "SELECT query FROM system.processes WHERE startsWith(query, '/* epicenter-qid:')",
    "JSONEachRow",
  );
  return listed
    .split("\n")
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { query: string }).query);
}
