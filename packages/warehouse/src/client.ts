/**
 * The warehouse client: the one door to the ClickHouse-dialect store of market data.
 *
 * Two backends sit behind the same interface. With no server configured it is chDB, the
 * ClickHouse engine embedded in this process, driven through the official
 * `@clickhouse/client` with `chdb/connection`; with `CLICKHOUSE_URL` it is a ClickHouse
 * server over HTTP. Callers never know which, so every query, insert and migration is
 * written once.
 *
 * One chDB connection runs one query at a time, while several connections on the same
 * data path run in parallel, so the embedded backend keeps a small pool and hands each
 * call a free connection. The HTTP client multiplexes on its own, so the server backend
 * needs no pool of ours.
 *
 * A call's own settings hold for that call only, on both backends. Over HTTP they go with
 * the request; chDB's connection applies them as `SET`s on its session, where they would
 * stay for whichever caller the pooled connection serves next (a reader's `join_use_nulls`
 * under the matcher's joins, a writer's `input_format_*` under the next insert), so each is
 * set back to its default when the call ends.
 */
import { mkdirSync } from "node:fs";
import { type ClickHouseClient, type ClickHouseSettings, createClient } from "@clickhouse/client";
import { drainPending } from "chdb";
import { createChdbConnection } from "chdb/connection";

export type WarehouseKind = "chdb" | "server";

export interface WarehouseOptions {
  /** Directory of the embedded engine; used when `url` is unset. */
  path?: string;
  /** ClickHouse server URL (credentials and database may be in the URL). */
  url?: string;
  username?: string;
  password?: string;
  /** Cluster name: DDL runs `ON CLUSTER` and tables are replicated and distributed. */
  cluster?: string;
  /** Connections kept for the embedded engine. */
  poolSize?: number;
  /** Settings sent with every statement of this warehouse handle. */
  settings?: ClickHouseSettings;
}

export type QueryParams = Record<string, unknown>;

export interface QueryOptions {
  params?: QueryParams;
  /** Tag that lets another connection find and kill this query. */
  queryId?: string;
  settings?: ClickHouseSettings;
  signal?: AbortSignal;
}

export interface Warehouse {
  readonly kind: WarehouseKind;
  readonly cluster: string | undefined;
  /**
   * How many writes this handle has sent (commands, inserts, raw client use): a change
   * tells the sandbox its snapshot may be out of date.
   */
  readonly writes: number;
  /** A statement that returns rows, decoded as JSON objects. */
  query<Row = Record<string, unknown>>(sql: string, options?: QueryOptions): Promise<Row[]>;
  /** A statement that returns nothing (DDL, INSERT … SELECT, KILL). */
  command(sql: string, options?: QueryOptions): Promise<void>;
  /** Rows appended to a table as JSONEachRow. */
  insert<Row extends object>(
    table: string,
    rows: readonly Row[],
    options?: { settings?: ClickHouseSettings },
  ): Promise<void>;
  /**
   * Runs `work` on one pooled client (for calls the interface above does not cover); the
   * `settings` it sends are its own, set back afterwards as every call's are.
   */
  withClient<T>(
    work: (client: ClickHouseClient) => Promise<T>,
    options?: { settings?: ClickHouseSettings },
  ): Promise<T>;
  /** True when the engine answers `SELECT 1`. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

const DEFAULT_POOL_SIZE = 4;

// chDB and a server disagree on this default; pin the server's (64-bit integers as JSON
// strings, which keeps their precision) so both backends answer byte for byte alike.
const CONSISTENT_SETTINGS: ClickHouseSettings = { output_format_json_quote_64bit_integers: 1 };

export function openWarehouse(options: WarehouseOptions): Warehouse {
  if (options.url) return fromClients("server", [serverClient(options)], options.cluster, false);
  if (!options.path) throw new Error("openWarehouse needs either a server url or an embedded path");
  mkdirSync(options.path, { recursive: true });
  const size = Math.max(1, options.poolSize ?? DEFAULT_POOL_SIZE);
  const clients = Array.from({ length: size }, () =>
    createClient({
      // chdb pins its own copy of @clickhouse/client-common, whose types differ only in
      // name from the client's; the runtime contract is the same Connection interface.
      connection: createChdbConnection({ path: options.path }) as unknown as ClientConnection,
      clickhouse_settings: { ...CONSISTENT_SETTINGS, ...options.settings },
    }),
  );
  return fromClients("chdb", clients, undefined, true);
}

function serverClient(options: WarehouseOptions): ClickHouseClient {
  return createClient({
    url: options.url,
    ...(options.username ? { username: options.username } : {}),
    ...(options.password ? { password: options.password } : {}),
    request_timeout: 300_000,
    max_open_connections: 32,
    clickhouse_settings: { ...CONSISTENT_SETTINGS, ...options.settings },
  });
}

function fromClients(
  kind: WarehouseKind,
  clients: ClickHouseClient[],
  cluster: string | undefined,
  exclusive: boolean,
): Warehouse {
  const pool = exclusive ? new ExclusivePool(clients) : undefined;
  const shared = clients[0] as ClickHouseClient;
  // A pooled session keeps what a call SETs on it: the call's own settings are set back
  // to their defaults before the next caller gets the connection.
  const use = <T>(work: (client: ClickHouseClient) => Promise<T>, settings?: ClickHouseSettings): Promise<T> =>
    pool ? pool.use((client) => withSettingsReset(client, settings, work)) : work(shared);
  let writes = 0;
  // Counted when the write ends, so a snapshot taken after it sees it.
  const write = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } finally {
      writes += 1;
    }
  };

  return {
    kind,
    cluster,
    get writes() {
      return writes;
    },
    withClient: (work, options = {}) => write(() => use(work, options.settings)),
    query: <Row>(sql: string, options: QueryOptions = {}) =>
      use(async (client) => {
        const result = await client.query({
          query: sql,
          format: "JSONEachRow",
          ...callOptions(options),
        });
        return result.json<Row>();
      }, options.settings),
    command: (sql, options = {}) =>
      write(() =>
        use(async (client) => {
          await client.command({ query: sql, ...callOptions(options) });
        }, options.settings),
      ),
    insert: (table, rows, options = {}) =>
      rows.length === 0
        ? Promise.resolve()
        : write(() =>
            use(async (client) => {
              await client.insert({
                table,
                values: rows as Row[],
                format: "JSONEachRow",
                ...(options.settings ? { clickhouse_settings: options.settings } : {}),
              });
            }, options.settings),
          ),
    ping: async () => {
      try {
        const rows = await use(async (client) => {
          const result = await client.query({ query: "SELECT 1 AS ok", format: "JSONEachRow" });
          return result.json<{ ok: number }>();
        });
        return rows[0]?.ok === 1;
      } catch {
        return false;
      }
    },
    close: async () => {
      pool?.drain();
      // An aborted chDB call rejects at once while the engine goes on computing on a
      // libuv thread; closing, or exiting the process, under it crashes the engine
      // (SIGSEGV at exit). So the embedded engine's native work is waited for, before
      // the connections close and after (their teardown can be deferred behind it).
      if (kind === "chdb") await drainPending();
      await Promise.all(clients.map((client) => client.close()));
      if (kind === "chdb") await drainPending();
    },
  };
}

/** Runs `work`, then sets each of `settings` back to its default on `client`'s session. */
async function withSettingsReset<T>(
  client: ClickHouseClient,
  settings: ClickHouseSettings | undefined,
  work: (client: ClickHouseClient) => Promise<T>,
): Promise<T> {
  const names = Object.keys(settings ?? {}).filter((name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name));
  if (names.length === 0) return work(client);
  const reset = () => client.command({ query: names.map((name) => `SET ${name} = DEFAULT`).join("; ") });
  let result: T;
  try {
    result = await work(client);
  } catch (error) {
    // The call's own error is the one to report, whatever the reset meets.
    await reset().catch(() => undefined);
    throw error;
  }
  await reset();
  return result;
}

type Row = Record<string, unknown>;
type ClientConnection = NonNullable<NonNullable<Parameters<typeof createClient>[0]>["connection"]>;

function callOptions(options: QueryOptions) {
  return {
    ...(options.params ? { query_params: options.params } : {}),
    ...(options.queryId ? { query_id: options.queryId } : {}),
    ...(options.settings ? { clickhouse_settings: options.settings } : {}),
    ...(options.signal ? { abort_signal: options.signal } : {}),
  };
}

/** Hands each caller a client no one else is using; callers queue in arrival order. */
class ExclusivePool {
  private readonly free: ClickHouseClient[];
  private readonly waiting: Array<(client: ClickHouseClient) => void> = [];
  private closed = false;

  constructor(clients: ClickHouseClient[]) {
    this.free = [...clients];
  }

  async use<T>(work: (client: ClickHouseClient) => Promise<T>): Promise<T> {
    const client = await this.acquire();
    try {
      return await work(client);
    } finally {
      this.release(client);
    }
  }

  drain(): void {
    this.closed = true;
  }

  private acquire(): Promise<ClickHouseClient> {
    if (this.closed) return Promise.reject(new Error("warehouse is closed"));
    const client = this.free.pop();
    if (client) return Promise.resolve(client);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(client: ClickHouseClient): void {
    const next = this.waiting.shift();
    if (next) next(client);
    else this.free.push(client);
  }
}
