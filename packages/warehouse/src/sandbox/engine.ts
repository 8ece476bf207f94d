/**
 * What the sandbox needs of an engine, whichever runs user SQL: confined worker
 * processes over snapshots of the embedded warehouse (`workers/worker-pool.ts`), or a
 * ClickHouse server reached as a read-only user (`server-engine.ts`). The sandbox above
 * it (validation, wrapping, limits, results) is written once against this.
 */

export interface EngineStream extends AsyncIterable<Buffer> {
  /**
   * Stops the query and resolves once the engine has let go of it — by KILL QUERY, or by
   * ending the process it runs in when that does not take.
   */
  stop(): Promise<void>;
}

/** One leased slot of the engine: a worker, or a server connection. */
export interface EngineSession {
  /** Runs one of our own statements (validation, a tiny answer) and returns its output. */
  queryText(sql: string, options?: { format?: string; params?: Record<string, unknown> }): Promise<string>;
  /**
   * Runs a user statement (already validated and wrapped, starting with its tag comment)
   * and yields its output as it is produced, pulled by the reader; with `maxBytes`, stops
   * the engine once one byte more than that has been produced.
   */
  stream(
    sql: string,
    options: {
      format: string;
      queryId: string;
      maxBytes?: number;
      /** Values of the statement's `{name:Type}` parameters, bound by the engine. */
      params?: Readonly<Record<string, string>>;
      /** The database unqualified table names are read from. */
      database?: string;
    },
  ): EngineStream;
}

export interface SandboxEngine {
  readonly kind: "chdb" | "server";
  /** How user SQL is confined, in words, for the start-up log and the admin. */
  readonly confinement: string;
  /**
   * True when what user SQL runs in cannot reach the host's files, network or other
   * processes whatever the SQL says: workers in bubblewrap, or a ClickHouse server (its
   * own machine, its own grants). False for workers that run with the server's view of the
   * file system, where the server admits user SQL from admins only unless told otherwise.
   */
  readonly isConfined: boolean;
  /**
   * Runs `work` on a session of its own. `owner` (a user) holds at most a share of the
   * sessions, and waiting owners are served in turn, so one caller cannot take them all.
   */
  lease<T>(owner: string, work: (session: EngineSession) => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Makes the next queries see the warehouse as it is now. */
  refresh(): Promise<void>;
  close(): Promise<void>;
}
