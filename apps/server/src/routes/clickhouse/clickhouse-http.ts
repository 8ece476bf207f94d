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
 *   It is checked before the body is read: a caller without one (or whose key may not run
 *   SQL here) costs its headers, never a decoded body.
 * - The statement goes through `services/clickhouse/statement.ts` (FORMAT, introspection,
 *   `system.x`) and then the same query service as `POST /api/query`: admission, the
 *   sandbox and its limits, a run recorded with origin `clickhouse`. The engine formats the
 *   answer; it streams to the client as it is produced (or whole, with a true
 *   `X-ClickHouse-Summary`, under `wait_end_of_query=1`).
 * - `session_id`: a session keeps the settings it `SET`s (`services/clickhouse/sessions.ts`),
 *   within bounds per session and per key.
 * - Native for a client that names its protocol revision (`client_protocol_version`:
 *   clickhouse-go under Grafana, clickhouse-connect) gets the block info and serialization
 *   bytes it reads (`services/clickhouse/native-revision.ts`).
 * - Compression as clients ask for it: ClickHouse's LZ4 framing of the answer under
 *   `compress=1` (JDBC's default) and of the request under `decompress=1`
 *   (`services/clickhouse/compressed.ts`); HTTP `Content-Encoding` of the request (gzip,
 *   deflate, br, lz4), and of the answer under `enable_http_compression=1` with
 *   `Accept-Encoding` (gzip, deflate, br).
 * - Errors are ClickHouse's text with `X-ClickHouse-Exception-Code`.
 */
import { randomUUID } from "node:crypto";
import { pipeline, Readable } from "node:stream";
import { MARKET_DATABASES, MAX_EXPORT_ROW_LIMIT, MAX_QUERY_LENGTH, QUERY_BODY_BYTES } from "@epicenter/contracts";
import type { UserQueryExport } from "@epicenter/warehouse";
import { type Context, Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { type AccessDeps, resolvePrincipal } from "../../services/access/principal";
import { isApiKey } from "../../services/access/secrets";
import { compressFrame, compressFrames } from "../../services/clickhouse/compressed";
import { answerEncoder, decodeRequestBody } from "../../services/clickhouse/http-encoding";
import { nativeForRevision } from "../../services/clickhouse/native-revision";
import {
  ClickHouseRefusal,
  checkSettings,
  failure,
  failureOf,
  failureText,
  OUTPUT_FORMATS,
  refuse,
} from "../../services/clickhouse/protocol";
import { createSessionStore, type SessionStore, sessionOf } from "../../services/clickhouse/sessions";
import { prepareStatement, type ServerFacts, setStatementOf } from "../../services/clickhouse/statement";
import { admit, type QueryServiceDeps, streamQuery } from "../../services/queries/run-query";

const QUERY_ID = /^[\x21-\x7e]{1,128}$/;

export interface ClickHouseHttpDeps extends QueryServiceDeps {
  access: AccessDeps;
  warehouse: { query<T>(sql: string, options?: { params?: Record<string, string> }): Promise<T[]> };
}

/** Databases a client may choose, and what each means here. */
const DATABASES: Readonly<Record<string, string>> = {
  ...Object.fromEntries(MARKET_DATABASES.map((name) => [name, name])),
  // The user's default database on a ClickHouse server; here, as for the sandbox's server user.
  default: MARKET_DATABASES[0],
  system: "epicenter_system",
  information_schema: "epicenter_information_schema",
  INFORMATION_SCHEMA: "epicenter_information_schema",
};

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
      const failed = failureOf(error);
      if (!failed) throw error;
      c.get("logger")?.info({ code: failed.code, name: failed.name }, "clickhouse interface refused a request");
      const text = failureText(failed, server.version);
      const headers = { "x-clickhouse-exception-code": String(failed.code), ...failed.headers };
      // A client that asked for frames reads the error through them too, unless it was
      // refused before it could be trusted (JDBC reads 401 and 403 plain).
      if (c.req.query("compress") === "1" && failed.status !== 401 && failed.status !== 403) {
        return c.body(new Uint8Array(compressFrame(Buffer.from(text))), failed.status as 400, {
          "content-type": "application/octet-stream",
          ...headers,
        });
      }
      return c.text(text, failed.status as 400, headers);
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
  // A bare GET is a client's ping: it needs no key.
  if (c.req.method === "GET" && (url.searchParams.get("query") ?? "").trim() === "") return c.text("Ok.\n");
  // The key comes only from the headers and the URL, so it is checked before the body is
  // read: a caller without a valid one is answered without its body being read or
  // decoded (which is bounded, but work), and so is a key that may not run SQL here.
  const principal = await authenticate(c, deps.access, url);
  await admit(deps, { origin: "clickhouse", userId: principal.userId });
  const form = await readRequest(c);
  const parameters = new Map([...url.searchParams, ...form.fields]);
  const text = [parameters.get("query"), form.body].filter((part) => part !== undefined && part !== "").join("\n");
  if (text.trim() === "") refuse(400, 62, "SYNTAX_ERROR", "Empty query: send it in the query parameter or the body");
  if (text.length > MAX_QUERY_LENGTH) {
    refuse(413, 229, "QUERY_IS_TOO_LARGE", `The query is longer than ${MAX_QUERY_LENGTH} characters`);
  }

  const session = sessionOf(parameters, principal, sessions);
  const assignments = setStatementOf(text);
  if (assignments) {
    // Checked as URL settings are; kept for the session's later requests (none without
    // one), within the store's bounds per session and per key.
    checkSettings(new Map(assignments));
    if (session) sessions.set(session.owner, session.id, assignments, session.timeoutSeconds);
    return c.body(null, 200, { "x-clickhouse-summary": summary(0, 0), "x-clickhouse-timezone": "UTC" });
  }
  // The session's settings and parameters first, the request's own over them.
  const effective = new Map([...(session?.settings ?? []), ...parameters]);
  const settings = checkSettings(effective);
  const database = databaseOf(parameters.get("database") ?? c.req.header("x-clickhouse-database"));
  const prepared = prepareStatement(text, database, server);
  if (prepared.table) await mustExist(deps, prepared.table);
  const format =
    prepared.format ?? parameters.get("default_format") ?? c.req.header("x-clickhouse-format") ?? "TabSeparated";
  const contentType = OUTPUT_FORMATS[format];
  if (!contentType) {
    refuse(
      400,
      73,
      "UNKNOWN_FORMAT",
      `Format ${format} is not served here; use one of ${Object.keys(OUTPUT_FORMATS).join(", ")}`,
    );
  }
  const revision = protocolRevisionOf(parameters.get("client_protocol_version"));
  const params = Object.fromEntries(
    [...effective].filter(([name]) => name.startsWith("param_")).map(([name, value]) => [name.slice(6), value]),
  );
  const queryId = parameters.get("query_id") || randomUUID();
  // It goes back in a header: a line break or a control character would fail the answer
  // after the query ran. ClickHouse's own ids are UUIDs; clients send those or short tags.
  if (!QUERY_ID.test(queryId)) {
    refuse(400, 36, "BAD_ARGUMENTS", "query_id must be 1 to 128 printable ASCII characters without spaces");
  }
  const startedAt = performance.now();
  const download = await streamQuery(deps, {
    sql: prepared.sql,
    format: { engine: format, contentType },
    maxRows: Math.min(MAX_EXPORT_ROW_LIMIT, ...settings.rowLimits),
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
  // Only Native changes with the client's revision (as on a ClickHouse server).
  let body: AsyncIterable<Buffer> = download.stream;
  if (format === "Native" && revision > 0) {
    try {
      body = await firstChunkProduced(nativeForRevision(body, revision));
    } catch (error) {
      // Refused before the engine's answer was read to its end: the query stops here.
      download.stream.destroy();
      throw error;
    }
  }
  if (parameters.get("compress") === "1") body = compressFrames(body);
  if (parameters.get("wait_end_of_query") === "1") {
    return whole(c, body, download, headers, startedAt, deps.sandbox.limits.maxResultBytes);
  }
  headers["x-clickhouse-summary"] = summary(0, 0);
  // The engine's own stream when nothing rewrites it: no extra hop for the common answer.
  let stream: Readable = body === download.stream ? download.stream : Readable.from(body, { objectMode: false });
  const encoder =
    parameters.get("enable_http_compression") === "1" ? answerEncoder(c.req.header("accept-encoding")) : undefined;
  if (encoder) {
    headers["content-encoding"] = encoder.name;
    const encoded = encoder.create();
    // A failure on either side ends both, as the answer's own stream would.
    pipeline(stream, encoded, () => undefined);
    stream = encoded;
  }
  return c.body(Readable.toWeb(stream) as ReadableStream<Uint8Array>, 200, headers);
}

/** Refuses as ClickHouse does a DESCRIBE or SHOW CREATE of a table the catalogue does not list. */
async function mustExist(deps: ClickHouseHttpDeps, table: { database: string; name: string }): Promise<void> {
  const [found] = await deps.warehouse.query<{ tables: string }>(
    "SELECT count() AS tables FROM epicenter_system.tables WHERE database = {database:String} AND name = {name:String}",
    { params: { database: table.database, name: table.name } },
  );
  if (Number(found?.tables ?? 0) === 0) {
    refuse(404, 60, "UNKNOWN_TABLE", `Table ${table.database}.${table.name} does not exist`);
  }
}

/**
 * `body` with its first chunk already produced, so that what the rewriting refuses (a type
 * it cannot measure) is an error with its status rather than a broken answer.
 */
async function firstChunkProduced(body: AsyncIterable<Buffer>): Promise<AsyncIterable<Buffer>> {
  const iterator = body[Symbol.asyncIterator]();
  const first = await iterator.next();
  return (async function* () {
    if (first.done) return;
    yield first.value;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  })();
}

/** The client's protocol revision: 0 when it names none. */
function protocolRevisionOf(value: string | undefined): number {
  if (value === undefined || value === "") return 0;
  const revision = Number(value);
  if (!Number.isSafeInteger(revision) || revision < 0) {
    refuse(400, 36, "BAD_ARGUMENTS", `client_protocol_version must be a whole number; got ${value}`);
  }
  return revision;
}

/** The whole answer, then the headers: a summary with the true row count, and errors as errors. */
async function whole(
  c: Context<AppEnv>,
  body: AsyncIterable<Buffer>,
  download: UserQueryExport,
  headers: Record<string, string>,
  startedAt: number,
  maxBytes: number,
): Promise<Response> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of body) {
    bytes += chunk.length;
    // Held in this process until the end: bounded like an interactive result.
    if (bytes > maxBytes) {
      download.stream.destroy();
      refuse(
        500,
        396,
        "TOO_MANY_ROWS_OR_BYTES",
        `The result is larger than ${Math.round(maxBytes / 1024 ** 2)} MiB, the most wait_end_of_query=1 holds; leave wait_end_of_query out to stream it`,
      );
    }
    chunks.push(chunk);
  }
  const { rows, error } = await download.finished;
  if (error) throw error;
  const elapsedNs = Math.round((performance.now() - startedAt) * 1e6);
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
  const refused = (message: string) => new ClickHouseRefusal(failure(401, 516, "AUTHENTICATION_FAILED", message));
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
    refuse(403, 497, "ACCESS_DENIED", `Your email (${principal.user.email}) is not whitelisted for access`);
  }
  return { userId: principal.user.id, apiKeyId: principal.apiKeyId };
}

function databaseOf(requested: string | undefined): string {
  if (requested === undefined || requested === "") return MARKET_DATABASES[0];
  const database = DATABASES[requested];
  if (!database) {
    refuse(
      404,
      81,
      "UNKNOWN_DATABASE",
      `Database ${requested} does not exist; the databases here are ${MARKET_DATABASES.join(", ")}`,
    );
  }
  return database;
}

/** The body as text, or a multipart form's `query` and `param_*` parts; bounded like `POST /api/query`. */
async function readRequest(c: Context<AppEnv>): Promise<{ body: string | undefined; fields: [string, string][] }> {
  if (c.req.method !== "POST") return { body: undefined, fields: [] };
  const length = Number(c.req.header("content-length") ?? 0);
  const tooLarge = () =>
    new ClickHouseRefusal(
      failure(413, 229, "QUERY_IS_TOO_LARGE", `The request body is larger than ${QUERY_BODY_BYTES} bytes`),
    );
  if (length > QUERY_BODY_BYTES) throw tooLarge();
  const bytes: Buffer[] = [];
  let size = 0;
  for await (const chunk of c.req.raw.body ?? []) {
    size += chunk.length;
    if (size > QUERY_BODY_BYTES) throw tooLarge();
    bytes.push(Buffer.from(chunk));
  }
  const raw = decodeRequestBody(Buffer.concat(bytes), {
    encoding: c.req.header("content-encoding"),
    framed: c.req.query("decompress") === "1",
    maxBytes: QUERY_BODY_BYTES,
  });
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
