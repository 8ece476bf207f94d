import type { ClickHouseSettings } from "@clickhouse/client";
import { paramsProblem, queryParameters } from "@epicenter/contracts";
import type { Warehouse } from "../client";
import { quoteIdentifier, quoteString } from "../ddl";
import {
  type AllowListPolicy,
  allowListPolicy,
  CATALOG_DATABASES,
  type EngineFunction,
  MARKET_DATABASES,
} from "./allow-list";
import { nameAsOfArguments } from "./as-of";
import { SYSTEM_TABLES_READ } from "./catalog-views";
import type { EngineSession, EngineStream, SandboxEngine } from "./engine";
import { type FailureLimits, QueryCancelledError, QueryTimeoutError, runFailure, SandboxRefusal } from "./errors";
import { type StreamUserQueryOptions, streamUserQuery, type UserQueryExport } from "./export";
import {
  type RunUserQueryOptions,
  runUserQuery,
  runUserQueryJson,
  type UserQueryJson,
  type UserQueryResult,
} from "./run";
import { ServerEngine } from "./server-engine";
import { assertQueryId, singleStatement } from "./sql-text";
import { type QueryBinding, type ValidatedStatement, ValidationCache } from "./validate";
import { type ConfinementKind, chooseConfinement } from "./workers/confinement";
import { WorkerPool } from "./workers/worker-pool";

export type SandboxTarget =
  | { path: string; warehouse: Warehouse; workDirectory?: string }
  | { url: string; username?: string; password?: string; warehouse: Warehouse };

export interface SandboxLimits {
  /** Engine-enforced time limit of one query. */
  maxExecutionSeconds: number;
  /** Memory one query may use. */
  maxMemoryBytes: number;
  maxThreads: number;
  /** Bytes of one interactive result, as JSON; past it the result is cut and marked truncated. */
  maxResultBytes: number;
  /** Bytes the engine may produce for one download before it stops it. */
  maxDownloadBytes: number;
  /** Sessions user SQL runs on at once (worker processes, or server requests). */
  poolSize: number;
  /** How long a download may go without its reader taking a byte. */
  downloadIdleMs: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  maxExecutionSeconds: 30,
  maxMemoryBytes: 2 * 1024 ** 3,
  maxThreads: 2,
  maxResultBytes: 32 * 1024 ** 2,
  maxDownloadBytes: 1024 ** 3,
  poolSize: 3,
  downloadIdleMs: 20_000,
};

export interface SandboxOptions {
  limits?: Partial<SandboxLimits>;
  /** Embedded: how to confine the workers; `auto` picks the strongest this machine allows. */
  confinement?: ConfinementKind | "auto";
  /**
   * Embedded: how old the queried snapshot may be, once the warehouse has been written,
   * before a query waits for a fresh one. 0 makes every write visible to the next query.
   */
  maxStalenessMs?: number;
  log?: (level: "info" | "warn", message: string, fields?: Record<string, unknown>) => void;
  /**
   * `off` skips the allow-list (one statement is still split off): only for the tests that
   * prove the engine and the process hold alone, as they must when a check misses a way
   * out. Never set from configuration.
   */
  allowList?: "on" | "off";
}

/** What a caller is, for sharing the engine fairly: a user's id, or a name for the service's own work. */
export type SandboxOwner = string;

export interface RunningQuery {
  sql: string;
  isCancelled: boolean;
  /** Set while the engine runs the statement: stops it. */
  stop?: () => Promise<void>;
  /** Settles once the engine has let go of the query and its session is free. */
  finished: Promise<void>;
}

/** One statement's engine call under the sandbox's time limit and cancellation. */
export interface Supervised {
  stream: EngineStream;
  /** True once the time limit stopped it. */
  readonly isTimedOut: boolean;
  /** True once Cancel or the caller's signal stopped it. */
  readonly isCancelled: boolean;
  /** Clears the timers; call when the stream is done. */
  done(): void;
}

export class Sandbox {
  private readonly cache = new ValidationCache();
  private readonly runningQueries = new Map<string, RunningQuery>();

  private constructor(
    readonly kind: "chdb" | "server",
    readonly limits: SandboxLimits,
    readonly policy: AllowListPolicy,
    private readonly engine: SandboxEngine,
    private readonly isAllowListOff = false,
  ) {}

  /** How user SQL is confined here, in words. */
  get confinement(): string {
    return this.engine.confinement;
  }

  /** True when the engine user SQL runs in cannot reach files, hosts or processes (`SandboxEngine.isConfined`). */
  get isConfined(): boolean {
    return this.engine.isConfined;
  }

  /** Runs `sql` and answers its rows, cut at `options.limit` rows and the sandbox's bytes. */
  run(sql: string, options: RunUserQueryOptions): Promise<UserQueryResult> {
    return runUserQuery(this, sql, options);
  }

  /**
   * The same run with its rows left as the engine's JSON text (value arrays, or objects
   * keyed by column name with `isKeyed`): what an answer sent on as JSON needs, no value read.
   */
  runJson(sql: string, options: RunUserQueryOptions): Promise<UserQueryJson> {
    return runUserQueryJson(this, sql, options);
  }

  /** Starts a download of `sql`'s result in CSV, JSON or Parquet. */
  stream(sql: string, options: StreamUserQueryOptions): Promise<UserQueryExport> {
    return streamUserQuery(this, sql, options);
  }

  /** Validates `sql` without running it; throws `SandboxRefusal` or `QuerySyntaxError`. */
  validate(sql: string, owner: SandboxOwner = "service", binding: QueryBinding = {}): Promise<ValidatedStatement> {
    const used = usedOnly(sql, binding);
    return this.engine.lease(owner, (session) => this.cache.validate(session, sql, this.policy, used));
  }

  /**
   * Runs `work` with a session of the engine leased for `owner` and `sql` validated on
   * it (with `binding`'s parameters and database), registered under `queryId` so `cancel`
   * and `signal` can stop it. A parameter without a value, or with one its type cannot
   * hold, is refused here, naming it, before the engine is asked.
   */
  async session<T>(
    owner: SandboxOwner,
    sql: string,
    queryId: string,
    signal: AbortSignal | undefined,
    work: (session: EngineSession, statement: ValidatedStatement, entry: RunningQuery) => Promise<T>,
    binding: QueryBinding = {},
  ): Promise<T> {
    assertQueryId(queryId);
    const problem = paramsProblem(sql, binding.params);
    if (problem) throw new SandboxRefusal(problem);
    const used = usedOnly(sql, binding);
    if (this.runningQueries.has(queryId)) throw new Error(`query ${queryId} is already running`);
    let markFinished = () => {};
    const entry: RunningQuery = {
      sql,
      isCancelled: false,
      finished: new Promise((resolve) => (markFinished = resolve)),
    };
    this.runningQueries.set(queryId, entry);
    const onAbort = () => requestCancel(entry);
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      if (signal?.aborted) requestCancel(entry);
      return await this.engine.lease(
        owner,
        async (session) => {
          const statement = this.isAllowListOff
            ? { body: singleStatement(nameAsOfArguments(sql)).body }
            : await this.cache.validate(session, sql, this.policy, used);
          if (entry.isCancelled) throw new QueryCancelledError();
          return work(session, statement, entry);
        },
        signal,
      );
    } finally {
      signal?.removeEventListener("abort", onAbort);
      this.runningQueries.delete(queryId);
      markFinished();
    }
  }

  /**
   * Starts a validated, wrapped statement on `session` under the time limit: the engine's
   * own, KILL QUERY two seconds past it, and the end of its process when that does not
   * take (`EngineStream.stop`); or a tighter per-call limit.
   */
  supervise(
    session: EngineSession,
    sql: string,
    format: string,
    queryId: string,
    entry: RunningQuery,
    options: { timeoutMs?: number | undefined; maxBytes?: number | undefined; binding?: QueryBinding } = {},
  ): Supervised {
    const { timeoutMs, binding = {} } = options;
    const engineMs = this.limits.maxExecutionSeconds * 1000;
    const isTighter = timeoutMs !== undefined && timeoutMs < engineMs;
    const stream = session.stream(sql, {
      format,
      queryId,
      ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
      ...(binding.params === undefined ? {} : { params: binding.params }),
      ...(binding.database === undefined ? {} : { database: binding.database }),
    });
    let isTimedOut = false;
    entry.stop = () => stream.stop();
    const timer = setTimeout(
      () => {
        isTimedOut = true;
        void stream.stop();
      },
      isTighter ? timeoutMs : engineMs + 2_000,
    );
    if (entry.isCancelled) void stream.stop();
    return {
      stream,
      get isTimedOut() {
        return isTimedOut;
      },
      get isCancelled() {
        return entry.isCancelled;
      },
      done: () => {
        clearTimeout(timer);
        entry.stop = undefined;
      },
    };
  }

  /** The error a failed supervised call is reported as. */
  failureOf(error: unknown, supervised: Pick<Supervised, "isTimedOut" | "isCancelled">, timeoutMs?: number): Error {
    if (supervised.isCancelled) return new QueryCancelledError();
    const limits = this.failureLimits(timeoutMs);
    if (supervised.isTimedOut) return new QueryTimeoutError(limits.timeoutMs);
    return runFailure(error, limits);
  }

  failureLimits(timeoutMs?: number): FailureLimits {
    const engineMs = this.limits.maxExecutionSeconds * 1000;
    return {
      timeoutMs: timeoutMs !== undefined && timeoutMs < engineMs ? timeoutMs : engineMs,
      maxMemoryBytes: this.limits.maxMemoryBytes,
      maxResultBytes: this.limits.maxDownloadBytes,
    };
  }

  /**
   * Stops the run with this id and resolves once the engine has stopped it (true) — or at
   * once with false when no such run is going on (it finished, or never started here).
   */
  async cancel(queryId: string): Promise<boolean> {
    const entry = this.runningQueries.get(queryId);
    if (!entry) return false;
    requestCancel(entry);
    await entry.finished;
    return true;
  }

  /** Entries and bytes of text the validation cache holds (it stays bounded whatever callers send). */
  get validationCacheSize(): { entries: number; bytes: number } {
    return this.cache.size;
  }

  /** The SQL of the runs under way (validated or running in the engine), for tests and the admin. */
  running(): string[] {
    return [...this.runningQueries.values()].map((entry) => entry.sql);
  }

  /** Makes the next queries see the warehouse as it is now (a new snapshot, embedded). */
  refresh(): Promise<void> {
    return this.engine.refresh();
  }

  async close(): Promise<void> {
    for (const entry of this.runningQueries.values()) requestCancel(entry);
    await this.engine.close();
  }

  static async open(target: SandboxTarget, options: SandboxOptions = {}): Promise<Sandbox> {
    const limits: SandboxLimits = { ...DEFAULT_SANDBOX_LIMITS, ...options.limits };
    const policy = await policyOf(target.warehouse);
    const settings = sandboxSettings(limits);
    const size = Math.max(1, limits.poolSize);
    const perOwner = Math.max(1, size - 1);
    const log = options.log ?? (() => {});
    if ("url" in target) {
      const engine = await ServerEngine.open({
        url: target.url,
        ...(target.username ? { username: target.username } : {}),
        ...(target.password ? { password: target.password } : {}),
        database: MARKET_DATABASES[0] as string,
        settings,
        requestTimeoutMs: (limits.maxExecutionSeconds + 30) * 1000,
        size,
        perOwner,
      });
      return new Sandbox("server", limits, policy, engine, options.allowList === "off");
    }
    const confinement = await chooseConfinement(options.confinement ?? "auto");
    const workDirectory = target.workDirectory ?? `${target.path}.sandbox`;
    const engine = await WorkerPool.open({
      warehouse: target.warehouse,
      warehousePath: target.path,
      workDirectory,
      databases: MARKET_DATABASES,
      // The catalogue views, and the market databases' own views (the coverage ledger's days).
      viewDatabases: [...CATALOG_DATABASES, ...MARKET_DATABASES],
      settings: settings as Record<string, string | number>,
      size,
      perOwner,
      maxServerMemoryBytes: limits.maxMemoryBytes * 1.5,
      maxStalenessMs: options.maxStalenessMs ?? 60_000,
      confinement,
      log,
    });
    log(engine.isConfined ? "info" : "warn", `user SQL runs in ${engine.confinement}`);
    return new Sandbox("chdb", limits, policy, engine, options.allowList === "off");
  }
}

/**
 * The binding without values for parameters the statement does not use: the engine ignores
 * them, and neither the validation cache nor a worker should hold them.
 */
function usedOnly(sql: string, binding: QueryBinding): QueryBinding {
  if (binding.params === undefined) return binding;
  const used = new Set(queryParameters(sql).map((parameter) => parameter.name));
  const params = Object.fromEntries(Object.entries(binding.params).filter(([name]) => used.has(name)));
  return { ...binding, params: Object.keys(params).length === 0 ? undefined : params };
}

function requestCancel(entry: RunningQuery): void {
  entry.isCancelled = true;
  void entry.stop?.();
}

/** The allow-list for this engine build, from its own catalogue of functions. */
async function policyOf(warehouse: Warehouse): Promise<AllowListPolicy> {
  const [tableFunctions, functions, databases] = await Promise.all([
    warehouse.query<{ name: string }>("SELECT name FROM system.table_functions"),
    warehouse.query<EngineFunction>("SELECT name, alias_to, categories FROM system.functions"),
    warehouse.query<{ name: string }>("SELECT name FROM system.databases"),
  ]);
  return allowListPolicy(
    tableFunctions.map((row) => row.name),
    databases.map((row) => row.name),
    functions,
  );
}

/**
 * Gives every directory from `paths` up to the root the search bit for others (not the
 * right to list or read), so a worker running as another user can reach its own folder
 * and the snapshot. The app database and the outbox stay owner-only.
 */

/**
 * The engine settings user SQL runs under (limits, threads, aggregation in order), for
 * measuring the engine's own time of a query as the sandbox would run it.
 */
export function sandboxSettings(limits: Partial<SandboxLimits> = {}): ClickHouseSettings {
  const resolved = { ...DEFAULT_SANDBOX_LIMITS, ...limits };
  return {
    max_execution_time: resolved.maxExecutionSeconds,
    timeout_overflow_mode: "throw",
    max_memory_usage: String(resolved.maxMemoryBytes),
    max_threads: resolved.maxThreads,
    max_result_bytes: String(resolved.maxDownloadBytes),
    result_overflow_mode: "throw",
    output_format_json_quote_64bit_integers: 1,
    optimize_aggregation_in_order: 1,
    // Arrow downloads every Arrow reader can open: arrow-js reads no compressed batches,
    // and text as Utf8 rather than Binary is what dataframes expect.
    output_format_arrow_compression_method: "none",
    output_format_arrow_string_as_string: 1,
  };
}

export interface SandboxUserOptions {
  user?: string;
  password: string;
  limits?: Partial<SandboxLimits>;
  cluster?: string;
}

/**
 * DDL an operator runs once on a ClickHouse server so user SQL runs as a user that can
 * only read the market databases. Printed by the operator docs; never run by the app,
 * whose own user should not hold the rights to create users. On servers older than 24.x,
 * or with `access_control_improvements.select_from_system_db_requires_grant` off, any user
 * can read `system.*` without a grant; turn that option on so the GRANTs below are the
 * whole story.
 */
export function sandboxUserDdl(options: SandboxUserOptions): string[] {
  const user = quoteIdentifier(options.user ?? "epicenter_sandbox");
  const profile = quoteIdentifier(`${options.user ?? "epicenter_sandbox"}_profile`);
  const limits = { ...DEFAULT_SANDBOX_LIMITS, ...options.limits };
  const cluster = options.cluster ? ` ON CLUSTER ${quoteIdentifier(options.cluster)}` : "";
  const bounded = (name: string, value: number) => `${name} = ${value} MAX ${value}`;
  return [
    `CREATE SETTINGS PROFILE IF NOT EXISTS ${profile}${cluster} SETTINGS readonly = 2, ${[
      bounded("max_execution_time", limits.maxExecutionSeconds),
      bounded("max_memory_usage", limits.maxMemoryBytes),
      bounded("max_threads", limits.maxThreads),
      bounded("max_result_bytes", limits.maxDownloadBytes),
    ].join(", ")}`,
    `CREATE USER IF NOT EXISTS ${user}${cluster} IDENTIFIED WITH sha256_password BY ${quoteString(options.password)} DEFAULT DATABASE ${MARKET_DATABASES[0]} SETTINGS PROFILE ${profile}`,
    `REVOKE${cluster} ALL ON *.* FROM ${user}`,
    ...[...MARKET_DATABASES, ...CATALOG_DATABASES].map(
      (database) => `GRANT${cluster} SELECT ON ${database}.* TO ${user}`,
    ),
    // What the catalogue views read as this user (SQL SECURITY INVOKER); user SQL cannot name them.
    ...SYSTEM_TABLES_READ.map((table) => `GRANT${cluster} SELECT ON system.${table} TO ${user}`),
    `GRANT${cluster} KILL QUERY ON *.* TO ${user}`,
  ];
}
