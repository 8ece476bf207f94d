/**
 * The sandbox: the connections user SQL runs on, and nothing else runs on.
 *
 * Embedded (chDB), it opens its own small pool on the warehouse's data path, distinct from
 * the app's writers, because through `chdb/connection` settings are `SET` statements that
 * stick to a connection (DESIGN.md "Query service"). Each sandbox connection gets the
 * limits below once, `USE polymarket` (so an unqualified name that slipped past the
 * allow-list still resolves inside a market database) and `readonly = 1` LAST; after that
 * it cannot change a setting, which is also why no setting is ever sent per query. One
 * more connection, the control connection, only ever runs our own fixed statements:
 * reading `system.processes` and `KILL QUERY … ASYNC` (chDB has no cancel of its own; an
 * aborted call keeps computing, and `SYNC` hangs).
 *
 * Every running chDB call holds a libuv thread; with the app's writers (4) plus this
 * pool (2) plus the control connection, the default `UV_THREADPOOL_SIZE` of 4 can make a
 * KILL wait behind the very queries it should stop, so the process should raise it
 * (DESIGN.md), e.g. to 16.
 *
 * On a ClickHouse server the same checks run, and user SQL additionally runs as a
 * dedicated user whose profile is read-only and whose only grant is SELECT on the market
 * databases: `sandboxUserDdl()` prints that DDL for the operator docs. HTTP is stateless,
 * so there the limits travel with every request, and `readonly` comes from the profile
 * (`readonly = 2`, so the per-request limits are accepted while `readonly` itself cannot be
 * lowered; `SETTINGS` in user SQL is refused by the parser check anyway).
 *
 * Settings, chosen for a 2-core machine and measured on chDB 26.7:
 * - `max_execution_time` (seconds, engine-enforced: `TIMEOUT_EXCEEDED` after the limit).
 * - `max_memory_usage` per query (`MEMORY_LIMIT_EXCEEDED` for that query only; a
 *   concurrent small query on another connection completed).
 * - `max_threads = 2`: one core's worth each for the two pooled connections would starve
 *   a lone heavy query; two lets one query use the machine and the OS share it.
 * - `max_result_bytes` with `result_overflow_mode = 'throw'`: a row limit does not bound
 *   bytes when a row holds a whole `raw` payload.
 * - `output_format_json_quote_64bit_integers = 1`, as the warehouse pins it, so 64-bit
 *   integers reach JavaScript as exact strings.
 * - `optimize_aggregation_in_order = 1`: the questions people ask most group by day and
 *   market, which is the snapshot tables' sort-key prefix, so the engine can aggregate as
 *   it reads instead of hashing every snapshot. Measured on 20 M rows (medians of 7, both
 *   values sent explicitly, since chDB keeps a setting on its connection): a 7-day daily
 *   query over the snapshots 277 → 202 ms (Polymarket) and 302 → 257 ms (Kalshi) on a quiet
 *   machine, 638 → 407 and 723 → 450 ms with another job running. It costs the whole-day
 *   form that the per-day projection answers 8–11 ms (34 → 42 ms, Kalshi 35 → 46 ms), and
 *   changes nothing measurable on the other sample queries, so it stays on.
 * - `enable_analyzer` stays at its default (on). The analyzer is what lets a nested
 *   `SETTINGS readonly = 0` lift readonly (ClickHouse #116028, reproduced here), but a
 *   query-level `SETTINGS` is the only carrier of that bypass and the allow-list refuses
 *   every `Set` node at any depth; turning the analyzer off would instead change how
 *   users' CTEs, JOINs and correlated subqueries behave (the documented dialect today).
 */
import { randomUUID } from "node:crypto";
import { type ClickHouseClient, type ClickHouseSettings, createClient, type DataFormat } from "@clickhouse/client";
import { createChdbConnection } from "chdb/connection";
import { quoteIdentifier, quoteString } from "../ddl";
import { type AllowListPolicy, allowListPolicy, MARKET_DATABASES } from "./allow-list";
import { QueryCancelledError } from "./errors";

export type SandboxTarget = { path: string } | { url: string; username?: string; password?: string };

export interface SandboxLimits {
  /** Engine-enforced time limit of one query. */
  maxExecutionSeconds: number;
  /** Memory one query may use. */
  maxMemoryBytes: number;
  maxThreads: number;
  /** Bytes of one result, whatever the row limit. */
  maxResultBytes: number;
  /** Connections user SQL runs on (each runs one query at a time). */
  poolSize: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  maxExecutionSeconds: 30,
  maxMemoryBytes: 2 * 1024 ** 3,
  maxThreads: 2,
  maxResultBytes: 512 * 1024 ** 2,
  poolSize: 2,
};

/** A handle on the sandbox; everything else goes through `runUserQuery` and friends. */
export interface Sandbox {
  readonly kind: "chdb" | "server";
  readonly limits: SandboxLimits;
  close(): Promise<void>;
}

/** The chDB-only streaming call, reached through the connection's `.chdb` extension. */
export interface ChdbStreaming {
  queryStream(
    sql: string,
    options: { format: string },
  ): AsyncIterable<{ raw(): Uint8Array; numRows: number }> & { cancel(): void };
}

export interface SandboxConnection {
  readonly client: ClickHouseClient;
  /** Present on the embedded engine: its real chunked stream (the client's path buffers). */
  readonly streaming: ChdbStreaming | undefined;
}

interface RunningQuery {
  isCancelled: boolean;
  /** Settles once the engine has stopped and the connection is back in the pool. */
  finished: Promise<void>;
}

/** What the run, cancel and export modules share; not exported from the package. */
export interface SandboxInternals {
  readonly kind: "chdb" | "server";
  readonly limits: SandboxLimits;
  readonly policy: AllowListPolicy;
  readonly running: Map<string, RunningQuery>;
  lease<T>(work: (connection: SandboxConnection) => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Runs one of our own statements on the control connection, one at a time. */
  control(sql: string, format?: string): Promise<string>;
}

const internals = new WeakMap<Sandbox, SandboxInternals>();

export function internalsOf(sandbox: Sandbox): SandboxInternals {
  const found = internals.get(sandbox);
  if (!found) throw new Error("not a sandbox opened by openSandbox");
  return found;
}

export async function openSandbox(target: SandboxTarget, limits: Partial<SandboxLimits> = {}): Promise<Sandbox> {
  const resolved: SandboxLimits = { ...DEFAULT_SANDBOX_LIMITS, ...limits };
  const settings = limitSettings(resolved);
  const size = Math.max(1, resolved.poolSize);
  let connections: SandboxConnection[];
  let controlClient: ClickHouseClient;
  if ("url" in target) {
    const server = () =>
      createClient({
        url: target.url,
        ...(target.username ? { username: target.username } : {}),
        ...(target.password ? { password: target.password } : {}),
        database: MARKET_DATABASES[0],
        request_timeout: (resolved.maxExecutionSeconds + 30) * 1000,
        clickhouse_settings: settings,
      });
    connections = [{ client: server(), streaming: undefined }];
    controlClient = server();
  } else {
    connections = Array.from({ length: size }, () => embedded(target.path));
    controlClient = embedded(target.path).client;
    await Promise.all(connections.map((connection) => lockDown(connection.client, settings)));
    await lockDown(controlClient, {});
  }

  const clients = [...connections.map((connection) => connection.client), controlClient];
  try {
    for (const client of clients) {
      const readonly = (await text(client, "SELECT getSetting('readonly')")).trim();
      if (readonly === "0") {
        throw new Error(
          "The sandbox's ClickHouse user can write (readonly = 0); give it the read-only profile printed by sandboxUserDdl().",
        );
      }
    }
    const tableFunctions = (await text(controlClient, "SELECT name FROM system.table_functions")).split("\n");
    const databases = (await text(controlClient, "SELECT name FROM system.databases")).split("\n");
    const policy = allowListPolicy(tableFunctions.filter(Boolean), databases.filter(Boolean));

    const pool = "url" in target ? undefined : new ConnectionPool(connections);
    let controlQueue: Promise<unknown> = Promise.resolve();
    const sandbox: Sandbox = {
      kind: "url" in target ? "server" : "chdb",
      limits: resolved,
      close: async () => {
        pool?.close();
        await Promise.allSettled(clients.map((client) => client.close()));
      },
    };
    const shared = connections[0] as SandboxConnection;
    internals.set(sandbox, {
      kind: sandbox.kind,
      limits: resolved,
      policy,
      running: new Map(),
      lease: (work, signal) => (pool ? pool.use(work, signal) : work(shared)),
      control: (sql, format) => {
        const next = controlQueue.then(() => text(controlClient, sql, format ? { format } : {}));
        controlQueue = next.catch(() => undefined);
        return next;
      },
    });
    return sandbox;
  } catch (error) {
    await Promise.allSettled(clients.map((client) => client.close()));
    throw error;
  }
}

type ClientConnection = NonNullable<NonNullable<Parameters<typeof createClient>[0]>["connection"]>;

function embedded(path: string): SandboxConnection {
  const connection = createChdbConnection({ path });
  return {
    // chdb pins its own copy of @clickhouse/client-common (see ../client.ts).
    client: createClient({ connection: connection as unknown as ClientConnection }),
    streaming: connection.chdb as unknown as ChdbStreaming,
  };
}

/** Limits first, then the database, then `readonly`, which freezes everything before it. */
async function lockDown(client: ClickHouseClient, settings: ClickHouseSettings): Promise<void> {
  if (Object.keys(settings).length > 0) await client.command({ query: "SELECT 1", clickhouse_settings: settings });
  try {
    await client.command({ query: `USE ${MARKET_DATABASES[0]}` });
  } catch (error) {
    throw new Error(
      `The sandbox needs the ${MARKET_DATABASES[0]} database; run the warehouse migrations before opening it.`,
      { cause: error },
    );
  }
  await client.command({ query: "SELECT 1", clickhouse_settings: { readonly: "1" } });
}

/**
 * The engine settings user SQL runs under (limits, threads, aggregation in order), for
 * measuring the engine's own time of a query as the sandbox would run it.
 */
export function sandboxSettings(limits: Partial<SandboxLimits> = {}): ClickHouseSettings {
  return limitSettings({ ...DEFAULT_SANDBOX_LIMITS, ...limits });
}

function limitSettings(limits: SandboxLimits): ClickHouseSettings {
  return {
    max_execution_time: limits.maxExecutionSeconds,
    timeout_overflow_mode: "throw",
    max_memory_usage: String(limits.maxMemoryBytes),
    max_threads: limits.maxThreads,
    max_result_bytes: String(limits.maxResultBytes),
    result_overflow_mode: "throw",
    output_format_json_quote_64bit_integers: 1,
    optimize_aggregation_in_order: 1,
  };
}

/** Runs `sql` with our own output format and returns the body as text. */
export async function text(
  client: ClickHouseClient,
  sql: string,
  options: { format?: string; params?: Record<string, unknown>; queryId?: string } = {},
): Promise<string> {
  const result = await client.exec({
    query: sql,
    // `default_format` is an output option rather than a `SET` on chDB, and a plain
    // setting on a server: the statement text stays exactly what we built.
    clickhouse_settings: { default_format: (options.format ?? "TabSeparatedRaw") as DataFormat },
    ...(options.params ? { query_params: options.params } : {}),
    ...(options.queryId ? { query_id: options.queryId } : {}),
  });
  const chunks: Buffer[] = [];
  for await (const chunk of result.stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}

/** Hands each caller a connection no one else is using; callers queue in arrival order. */
class ConnectionPool {
  private readonly free: SandboxConnection[];
  private readonly waiting: Array<{ resolve: (connection: SandboxConnection) => void; reject: (e: Error) => void }> =
    [];
  private closed = false;

  constructor(connections: SandboxConnection[]) {
    this.free = [...connections];
  }

  async use<T>(work: (connection: SandboxConnection) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const connection = await this.acquire(signal);
    try {
      return await work(connection);
    } finally {
      this.release(connection);
    }
  }

  close(): void {
    this.closed = true;
    for (const waiter of this.waiting.splice(0)) waiter.reject(new Error("the sandbox is closed"));
  }

  private acquire(signal: AbortSignal | undefined): Promise<SandboxConnection> {
    if (this.closed) return Promise.reject(new Error("the sandbox is closed"));
    if (signal?.aborted) return Promise.reject(new QueryCancelledError());
    const connection = this.free.pop();
    if (connection) return Promise.resolve(connection);
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve: (found: SandboxConnection) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(found);
        },
        reject,
      };
      const onAbort = () => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        reject(new QueryCancelledError());
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  private release(connection: SandboxConnection): void {
    const next = this.waiting.shift();
    if (next) next.resolve(connection);
    else this.free.push(connection);
  }
}

export function newQueryId(): string {
  return randomUUID();
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
      bounded("max_result_bytes", limits.maxResultBytes),
    ].join(", ")}`,
    `CREATE USER IF NOT EXISTS ${user}${cluster} IDENTIFIED WITH sha256_password BY ${quoteString(options.password)} DEFAULT DATABASE ${MARKET_DATABASES[0]} SETTINGS PROFILE ${profile}`,
    `REVOKE${cluster} ALL ON *.* FROM ${user}`,
    ...MARKET_DATABASES.map((database) => `GRANT${cluster} SELECT ON ${database}.* TO ${user}`),
  ];
}
