/**
 * The sandbox on a ClickHouse server: user SQL runs over HTTP as a dedicated read-only
 * user whose profile carries `readonly = 2` and the limits and whose only grant is SELECT
 * on the market databases (`sandboxUserDdl()`), so the server enforces what the
 * allow-list checked. HTTP is stateless: the limits travel with every request too. A
 * query is stopped with `KILL QUERY` by its `query_id` from a second client, and the
 * server cancels a read-only query whose client went away
 * (`cancel_http_readonly_queries_on_client_close`).
 */
import { type ClickHouseClient, type ClickHouseSettings, createClient, type DataFormat } from "@clickhouse/client";
import { quoteString } from "../ddl";
import type { EngineSession, EngineStream, SandboxEngine } from "./engine";
import { FairGate } from "./fair-gate";

export interface ServerEngineOptions {
  url: string;
  username?: string;
  password?: string;
  database: string;
  settings: ClickHouseSettings;
  requestTimeoutMs: number;
  size: number;
  perOwner: number;
}

export class ServerEngine implements SandboxEngine {
  readonly kind = "server" as const;
  readonly confinement: string;
  readonly isConfined = true;
  private readonly gate: FairGate;
  /** A client per database a caller chose for unqualified names (HTTP has no `USE`). */
  private readonly byDatabase = new Map<string, ClickHouseClient>();

  private constructor(
    private readonly client: ClickHouseClient,
    private readonly control: ClickHouseClient,
    private readonly options: ServerEngineOptions,
    private readonly make: (database: string) => ClickHouseClient,
  ) {
    this.gate = new FairGate(options.size, options.perOwner);
    this.confinement = `a ClickHouse server as ${options.username ?? "the default user"}`;
  }

  static async open(options: ServerEngineOptions): Promise<ServerEngine> {
    const make = (database = options.database) =>
      createClient({
        url: options.url,
        ...(options.username ? { username: options.username } : {}),
        ...(options.password ? { password: options.password } : {}),
        database,
        request_timeout: options.requestTimeoutMs,
        clickhouse_settings: { ...options.settings, cancel_http_readonly_queries_on_client_close: 1 },
      });
    const engine = new ServerEngine(make(), make(), options, make);
    try {
      const readonly = (await textOf(engine.client, "SELECT getSetting('readonly')")).trim();
      if (readonly === "0") {
        throw new Error(
          "The sandbox's ClickHouse user can write (readonly = 0); give it the read-only profile printed by sandboxUserDdl().",
        );
      }
    } catch (error) {
      await engine.close();
      throw error;
    }
    return engine;
  }

  async lease<T>(owner: string, work: (session: EngineSession) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.gate.enter(owner, signal);
    try {
      return await work({
        queryText: (sql, options = {}) => textOf(this.client, sql, options),
        stream: (sql, options) => this.stream(sql, options),
      });
    } finally {
      release();
    }
  }

  /** The server's data is always current. */
  async refresh(): Promise<void> {}

  async close(): Promise<void> {
    this.gate.close();
    await Promise.allSettled([
      this.client.close(),
      this.control.close(),
      ...[...this.byDatabase.values()].map((client) => client.close()),
    ]);
  }

  private clientFor(database: string | undefined): ClickHouseClient {
    if (database === undefined || database === this.options.database) return this.client;
    let client = this.byDatabase.get(database);
    if (!client) {
      client = this.make(database);
      this.byDatabase.set(database, client);
    }
    return client;
  }

  private stream(sql: string, options: Parameters<EngineSession["stream"]>[1]): EngineStream {
    const { format, queryId } = options;
    const abort = new AbortController();
    const started = this.clientFor(options.database).exec({
      query: sql,
      query_id: queryId,
      abort_signal: abort.signal,
      clickhouse_settings: { default_format: format as DataFormat },
      ...(options.params ? { query_params: options.params } : {}),
    });
    let isDone = false;
    const stop = async () => {
      if (isDone) return;
      isDone = true;
      abort.abort();
      await this.control
        .command({ query: `KILL QUERY WHERE query_id = ${quoteString(queryId)} ASYNC` })
        .catch(() => undefined);
    };
    return {
      async *[Symbol.asyncIterator]() {
        try {
          const result = await started;
          for await (const chunk of result.stream as AsyncIterable<Buffer>) yield chunk;
          isDone = true;
        } finally {
          await stop();
        }
      },
      stop,
    };
  }
}

async function textOf(
  client: ClickHouseClient,
  sql: string,
  options: { format?: string; params?: Record<string, unknown> } = {},
): Promise<string> {
  const result = await client.exec({
    query: sql,
    clickhouse_settings: { default_format: (options.format ?? "TabSeparatedRaw") as DataFormat },
    ...(options.params ? { query_params: options.params } : {}),
  });
  const chunks: Buffer[] = [];
  for await (const chunk of result.stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}
