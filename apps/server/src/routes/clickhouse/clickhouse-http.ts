/**
 * The ClickHouse-compatible HTTP interface: what `@clickhouse/client`, clickhouse-connect,
 * clickhouse-go (Grafana), JDBC (DBeaver, Metabase) and curl speak to a ClickHouse server,
 * answered from the archive with an Epicenter API key. Served under `/clickhouse/` on the
 * main port and, when `CLICKHOUSE_HTTP_PORT` is set, at the root of its own port (for tools
 * that cannot take a path).
 *
 * - `GET /ping` and a bare `GET /` answer `Ok.`.
 * - The statement is the URL's `query` and the body joined (as ClickHouse joins them), or a
 *   `multipart/form-data` body's `query` part; `param_<name>` values bind `{name:Type}`.
 * - The key comes as the HTTP Basic password (any user name), `X-ClickHouse-Key`,
 *   `Authorization: Bearer`, or the `password` URL parameter; session tokens are not keys.
 * - The statement goes through `services/clickhouse/statement.ts` (FORMAT, introspection,
 *   `system.x`) and then the same query service as `POST /api/query`: admission, the
 *   sandbox and its limits, a run recorded with origin `clickhouse`. The engine formats the
 *   answer; it streams to the client as it is produced (or whole, with a true
 *   `X-ClickHouse-Summary`, under `wait_end_of_query=1`).
 * - `session_id`: a session keeps the settings it `SET`s (`services/clickhouse/sessions.ts`).
 * - Errors are ClickHouse's text with `X-ClickHouse-Exception-Code`.
 */
import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { MAX_QUERY_LENGTH, QUERY_BODY_BYTES } from "@epicenter/contracts";
import { MAX_EXPORT_ROWS, type UserQueryExport } from "@epicenter/warehouse";
import { type Context, Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { type AccessDeps, resolvePrincipal } from "../../services/access/principal";
import { isApiKey } from "../../services/access/secrets";
import {
  ACCEPTED_SETTINGS,
  type ClickHouseFailure,
  failure,
  failureOf,
  failureText,
  OUTPUT_FORMATS,
  PROTOCOL_PARAMETERS,
} from "../../services/clickhouse/protocol";
import { createSessionStore, MAX_SESSION_TIMEOUT_SECONDS, type SessionStore } from "../../services/clickhouse/sessions";
import { prepareStatement, type ServerFacts, setStatementOf } from "../../services/clickhouse/statement";
import { type QueryServiceDeps, streamQuery } from "../../services/queries/run-query";

const QUERY_ID = /^[\x21-\x7e]{1,128}$/;
/** ClickHouse's clients send UUIDs or short names. */
const SESSION_ID = /^[\x21-\x7e]{1,128}$/;

export interface ClickHouseHttpDeps extends QueryServiceDeps {
  access: AccessDeps;
  warehouse: { query<T>(sql: string): Promise<T[]> };
}

/** Databases a client may choose, and what each means here. */
const DATABASES: Readonly<Record<string, string>> = {
  polymarket: "polymarket",
  kalshi: "kalshi",
  crossvenue: "crossvenue",
  // The user's default database on a ClickHouse server; here, as for the sandbox's server user.
  default: "polymarket",
  system: "epicenter_system",
  information_schema: "epicenter_information_schema",
  INFORMATION_SCHEMA: "epicenter_information_schema",
};

class Failed extends Error {
  constructor(readonly failure: ClickHouseFailure) {
    super(failure.message);
  }
}

/**
 * The interface as a Hono app, to mount at `base` (`/clickhouse`; its own port serves the
 * same paths under it). Clients ask for `base` with and without the trailing slash.
 */
export function clickhouseHttp(deps: ClickHouseHttpDeps, base: string): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Its own port forwards here, so one store serves both.
  const sessions = createSessionStore(deps.clock);
  let facts: Promise<ServerFacts> | undefined;
  const serverFacts = () => {
    facts ??= deps.warehouse
      .query<{ version: string; revision: string }>("SELECT version() AS version, revision() AS revision")
      .then(([row]) => ({ version: row?.version ?? "0", revision: Number(row?.revision ?? 0) }));
    return facts;
  };

  const query = async (c: Context<AppEnv>) => {
    const server = await serverFacts();
    try {
      return await answer(c, deps, server, sessions);
    } catch (error) {
      const failed = error instanceof Failed ? error.failure : failureOf(error);
      if (!failed) throw error;
      c.get("logger")?.info({ code: failed.code, name: failed.name }, "clickhouse interface refused a request");
      return c.text(failureText(failed, server.version), failed.status as 400, {
        "x-clickhouse-exception-code": String(failed.code),
        ...failed.headers,
      });
    }
  };
  app.get("/ping", (c) => c.text("Ok.\n"));
  app.on(["GET", "POST"], "/", query);
  app.all("*", async (c) => {
    if (c.req.path === `${base}/` && (c.req.method === "GET" || c.req.method === "POST")) return query(c);
    return c.text(
      failureText(
        failure(404, 1002, "UNKNOWN_EXCEPTION", `There is no handle ${c.req.path}: use / or /ping`),
        (await serverFacts()).version,
      ),
      404,
      { "x-clickhouse-exception-code": "1002" },
    );
  });
  return app;
}

async function answer(
  c: Context<AppEnv>,
  deps: ClickHouseHttpDeps,
  server: ServerFacts,
  sessions: SessionStore,
): Promise<Response> {
  const url = new URL(c.req.url);
  const form = await readRequest(c);
  const parameters = new Map([...url.searchParams, ...form.fields]);
  const text = [parameters.get("query"), form.body].filter((part) => part !== undefined && part !== "").join("\n");
  if (text.trim() === "") {
    if (c.req.method === "GET") return c.text("Ok.\n");
    throw new Failed(failure(400, 62, "SYNTAX_ERROR", "Empty query: send it in the query parameter or the body"));
  }
  if (text.length > MAX_QUERY_LENGTH) {
    throw new Failed(
      failure(413, 202, "QUERY_IS_TOO_LARGE", `The query is longer than ${MAX_QUERY_LENGTH} characters`),
    );
  }

  const principal = await authenticate(c, deps.access, url);
  const session = sessionOf(parameters, principal, sessions);
  const assignments = setStatementOf(text);
  if (assignments) {
    // Checked as URL settings are; kept for the session's later requests (none without one).
    readSettings(new Map(assignments));
    if (session) sessions.set(session.owner, session.id, assignments, session.timeoutSeconds);
    return c.body(null, 200, { "x-clickhouse-summary": summary(0, 0), "x-clickhouse-timezone": "UTC" });
  }
  // The session's settings first, the request's own over them.
  const settings = readSettings(new Map([...(session?.settings ?? []), ...parameters]));
  const database = databaseOf(parameters.get("database") ?? c.req.header("x-clickhouse-database"));
  const prepared = prepareStatement(text, database, server);
  const format =
    prepared.format ?? parameters.get("default_format") ?? c.req.header("x-clickhouse-format") ?? "TabSeparated";
  const contentType = OUTPUT_FORMATS[format];
  if (!contentType) {
    throw new Failed(
      failure(
        400,
        73,
        "UNKNOWN_FORMAT",
        `Format ${format} is not served here; use one of ${Object.keys(OUTPUT_FORMATS).join(", ")}`,
      ),
    );
  }
  // JDBC v2 asks for ClickHouse's own LZ4 framing of the answer by default.
  if (parameters.get("compress") === "1") {
    throw new Failed(
      failure(
        400,
        48,
        "NOT_IMPLEMENTED",
        "compress=1 (ClickHouse's LZ4 framing) is not produced here: connect with compression off (JDBC: compress=false)",
      ),
    );
  }
  // A protocol revision asks for Native with per-block and per-column fields (BlockInfo,
  // custom serialization) that the engine writes only for its own server's clients.
  // clickhouse-connect probes for them and falls back on an error; others get a clear one.
  if (format === "Native" && Number(parameters.get("client_protocol_version") ?? 0) > 0) {
    throw new Failed(
      failure(
        400,
        48,
        "NOT_IMPLEMENTED",
        "Native with client_protocol_version (block info) is not produced here: send the query without client_protocol_version, or ask for RowBinaryWithNamesAndTypes",
      ),
    );
  }
  const params = Object.fromEntries(
    [...parameters].filter(([name]) => name.startsWith("param_")).map(([name, value]) => [name.slice(6), value]),
  );
  const queryId = parameters.get("query_id") || randomUUID();
  // It goes back in a header: a line break or a control character would fail the answer
  // after the query ran. ClickHouse's own ids are UUIDs; clients send those or short tags.
  if (!QUERY_ID.test(queryId)) {
    throw new Failed(
      failure(400, 36, "BAD_ARGUMENTS", "query_id must be 1 to 128 printable ASCII characters without spaces"),
    );
  }
  const started = performance.now();
  const download = await streamQuery(deps, {
    sql: prepared.sql,
    format: { engine: format, contentType },
    maxRows: Math.min(MAX_EXPORT_ROWS, ...settings.rowLimits),
    userId: principal.userId,
    apiKeyId: principal.apiKeyId,
    origin: "clickhouse",
    signal: c.req.raw.signal,
    database,
    ...(Object.keys(params).length > 0 ? { params } : {}),
  });
  const headers: Record<string, string> = {
    "content-type": contentType,
    "x-clickhouse-format": format,
    "x-clickhouse-query-id": queryId,
    "x-clickhouse-timezone": "UTC",
    "x-clickhouse-server-display-name": "epicenter",
  };
  if (parameters.get("wait_end_of_query") === "1") {
    return whole(c, download, headers, started, deps.sandbox.limits.maxResultBytes);
  }
  headers["x-clickhouse-summary"] = summary(0, 0);
  return c.body(Readable.toWeb(download.stream) as ReadableStream<Uint8Array>, 200, headers);
}

/** The whole answer, then the headers: a summary with the true row count, and errors as errors. */
async function whole(
  c: Context<AppEnv>,
  download: UserQueryExport,
  headers: Record<string, string>,
  started: number,
  maxBytes: number,
): Promise<Response> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of download.stream) {
    bytes += (chunk as Buffer).length;
    // Held in this process until the end: bounded like an interactive result.
    if (bytes > maxBytes) {
      download.stream.destroy();
      throw new Failed(
        failure(
          500,
          396,
          "TOO_MANY_ROWS_OR_BYTES",
          `The result is larger than ${Math.round(maxBytes / 1024 ** 2)} MiB, the most wait_end_of_query=1 holds; leave wait_end_of_query out to stream it`,
        ),
      );
    }
    chunks.push(chunk as Buffer);
  }
  const { rows, error } = await download.finished;
  if (error) throw error;
  const elapsedNs = Math.round((performance.now() - started) * 1e6);
  return c.body(Buffer.concat(chunks), 200, { ...headers, "x-clickhouse-summary": summary(rows ?? 0, elapsedNs) });
}

function summary(rows: number, elapsedNs: number): string {
  return JSON.stringify({
    read_rows: "0",
    read_bytes: "0",
    written_rows: "0",
    written_bytes: "0",
    total_rows_to_read: "0",
    result_rows: String(rows),
    result_bytes: "0",
    elapsed_ns: String(elapsedNs),
  });
}

/** The caller's API key, from wherever ClickHouse clients send a password. */
async function authenticate(
  c: Context<AppEnv>,
  access: AccessDeps,
  url: URL,
): Promise<{ userId: string; apiKeyId: string }> {
  const authorization = c.req.header("authorization") ?? "";
  const basic = /^Basic\s+(\S+)$/i.exec(authorization)?.[1];
  const basicPassword = basic ? Buffer.from(basic, "base64").toString("utf8").split(":").slice(1).join(":") : undefined;
  const credential =
    basicPassword ||
    c.req.header("x-clickhouse-key") ||
    /^Bearer\s+(\S+)$/i.exec(authorization)?.[1] ||
    url.searchParams.get("password") ||
    undefined;
  const refused = (message: string) => new Failed(failure(401, 516, "AUTHENTICATION_FAILED", message));
  if (!credential) {
    throw refused(
      "Authentication required: send an Epicenter API key as the password (HTTP Basic, any user name), in X-ClickHouse-Key, or as Authorization: Bearer",
    );
  }
  if (!isApiKey(credential))
    throw refused("Only Epicenter API keys (ep_live_…) are accepted here; create one on the API keys page");
  const principal = await resolvePrincipal(access, credential);
  if (!principal?.apiKeyId) throw refused("This API key is not valid: it is unknown or was revoked");
  if (!principal.isAllowed) {
    throw new Failed(
      failure(403, 497, "ACCESS_DENIED", `Your email (${principal.user.email}) is not whitelisted for access`),
    );
  }
  return { userId: principal.user.id, apiKeyId: principal.apiKeyId };
}

/** Checks every setting in the URL; answers the row limits they ask for. */
function readSettings(parameters: Map<string, string>): { rowLimits: number[] } {
  const rowLimits: number[] = [];
  for (const [name, value] of parameters) {
    if (PROTOCOL_PARAMETERS.has(name) || name.startsWith("param_")) continue;
    const check = ACCEPTED_SETTINGS[name];
    if (!check) {
      throw new Failed(
        failure(
          400,
          164,
          "READONLY",
          `Setting ${name} cannot be set here: this interface is read-only with fixed limits. Accepted settings: ${Object.keys(ACCEPTED_SETTINGS).join(", ")}`,
        ),
      );
    }
    const expected = check(value);
    if (expected) throw new Failed(failure(400, 164, "READONLY", `Setting ${name} must be ${expected}; got ${value}`));
    if ((name === "max_result_rows" || name === "limit") && Number(value) > 0) rowLimits.push(Number(value));
  }
  return { rowLimits };
}

/**
 * The caller's session, when the request names one: its settings so far (none for a new
 * one), or a failure when `session_check=1` asks for a session that is not live, or the id
 * or timeout cannot be used.
 */
function sessionOf(
  parameters: Map<string, string>,
  principal: { userId: string; apiKeyId?: string | null },
  sessions: SessionStore,
):
  | { owner: string; id: string; timeoutSeconds: number | undefined; settings: ReadonlyMap<string, string> | undefined }
  | undefined {
  const id = parameters.get("session_id");
  if (id === undefined || id === "") return undefined;
  if (!SESSION_ID.test(id)) {
    throw new Failed(
      failure(400, 36, "BAD_ARGUMENTS", "session_id must be 1 to 128 printable ASCII characters without spaces"),
    );
  }
  const timeout = parameters.get("session_timeout");
  const timeoutSeconds = timeout === undefined || timeout === "" ? undefined : Number(timeout);
  if (
    timeoutSeconds !== undefined &&
    !(Number.isInteger(timeoutSeconds) && timeoutSeconds > 0 && timeoutSeconds <= MAX_SESSION_TIMEOUT_SECONDS)
  ) {
    throw new Failed(
      failure(
        400,
        36,
        "BAD_ARGUMENTS",
        `session_timeout must be a whole number of seconds from 1 to ${MAX_SESSION_TIMEOUT_SECONDS}; got ${timeout}`,
      ),
    );
  }
  const owner = principal.apiKeyId ?? principal.userId;
  const settings = sessions.settings(owner, id, timeoutSeconds);
  if (!settings && parameters.get("session_check") === "1") {
    throw new Failed(
      failure(
        404,
        372,
        "SESSION_NOT_FOUND",
        `Session ${id} not found (sessions end after being idle for their session_timeout)`,
      ),
    );
  }
  return { owner, id, timeoutSeconds, settings };
}

function databaseOf(requested: string | undefined): string {
  if (requested === undefined || requested === "") return "polymarket";
  const database = DATABASES[requested];
  if (!database) {
    throw new Failed(
      failure(
        404,
        81,
        "UNKNOWN_DATABASE",
        `Database ${requested} does not exist; the databases here are polymarket, kalshi and crossvenue`,
      ),
    );
  }
  return database;
}

/** The body as text, or a multipart form's `query` and `param_*` parts; bounded like `POST /api/query`. */
async function readRequest(c: Context<AppEnv>): Promise<{ body: string | undefined; fields: [string, string][] }> {
  if (c.req.method !== "POST") return { body: undefined, fields: [] };
  const length = Number(c.req.header("content-length") ?? 0);
  const tooLarge = () =>
    new Failed(failure(413, 202, "QUERY_IS_TOO_LARGE", `The request body is larger than ${QUERY_BODY_BYTES} bytes`));
  if (length > QUERY_BODY_BYTES) throw tooLarge();
  if (c.req.header("content-encoding")) {
    throw new Failed(
      failure(
        400,
        1002,
        "UNKNOWN_EXCEPTION",
        "Compressed request bodies are not accepted; send the query uncompressed",
      ),
    );
  }
  const bytes: Buffer[] = [];
  let size = 0;
  for await (const chunk of c.req.raw.body ?? []) {
    size += chunk.length;
    if (size > QUERY_BODY_BYTES) throw tooLarge();
    bytes.push(Buffer.from(chunk));
  }
  const raw = Buffer.concat(bytes);
  if ((c.req.header("content-type") ?? "").startsWith("multipart/form-data")) {
    const form = await new Response(raw, {
      headers: { "content-type": c.req.header("content-type") as string },
    }).formData();
    const fields: [string, string][] = [];
    for (const [name, value] of form) if (typeof value === "string") fields.push([name, value]);
    return { body: undefined, fields };
  }
  return { body: raw.toString("utf8"), fields: [] };
}
