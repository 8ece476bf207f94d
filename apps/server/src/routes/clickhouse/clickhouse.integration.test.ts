/**
 * The ClickHouse HTTP interface, driven by real ClickHouse clients from npm against the
 * app listening on real ports: `@clickhouse/client` (the official Node client) under
 * `/clickhouse`, and the independent `clickhouse` package at the root of the
 * `CLICKHOUSE_HTTP_PORT` port (it cannot take a path). Raw requests cover what clients
 * send that a client library hides: formats, introspection, settings, refusals.
 */
import { type ClickHouseClient, ClickHouseError } from "@clickhouse/client";
import { schema } from "@epicenter/db";
import { ClickHouse } from "clickhouse";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OUTPUT_FORMATS } from "../../services/clickhouse/protocol";
import { type ClickHouseInterface, startClickHouseInterface } from "../../testing/clickhouse-interface";
import type { TestApp } from "../../testing/test-app";

let t: TestApp;
let key: string;
let session: string;
let base: string;
let rootBase: string;
let client: ClickHouseClient;
let connect: ClickHouseInterface["connect"];
let post: ClickHouseInterface["post"];
let rowsOf: ClickHouseInterface["rowsOf"];
let chi: ClickHouseInterface;

beforeAll(async () => {
  chi = await startClickHouseInterface();
  ({ t, key, session, base, rootBase, connect, post, rowsOf } = chi);
  client = connect();
});

afterAll(async () => {
  await client?.close();
  await chi?.close();
});

describe("@clickhouse/client", () => {
  it("pings", async () => {
    expect((await client.ping()).success).toBe(true);
    expect((await client.ping({ select: true })).success).toBe(true);
  });

  it("selects as JSON, with the engine's meta and 64-bit integers as strings", async () => {
    const result = await client.query({
      query: "SELECT id, question, count() OVER () AS total FROM polymarket.markets ORDER BY id",
      format: "JSON",
    });
    const body = await result.json<{ id: string; question: string; total: string }>();
    expect(body.data.map((row) => row.id)).toEqual(["m1", "m2", "m3"]);
    expect(body.meta?.map((column) => column.name)).toEqual(["id", "question", "total"]);
    expect(body.data[0]?.total).toBe("3");
    expect(result.response_headers["x-clickhouse-format"]).toBe("JSON");
    expect(JSON.parse(String(result.response_headers["x-clickhouse-summary"]))).toHaveProperty("read_rows");
  });

  it("streams JSONEachRow row by row", async () => {
    const result = await client.query({
      query: "SELECT number AS n, toString(number) AS s FROM numbers(25000)",
      format: "JSONEachRow",
    });
    let count = 0;
    let last: { n: string; s: string } | undefined;
    for await (const rows of result.stream<{ n: string; s: string }>()) {
      for (const row of rows) {
        count++;
        last = row.json();
      }
    }
    expect(count).toBe(25_000);
    expect(last).toEqual({ n: "24999", s: "24999" });
  });

  it("binds query_params in the engine, with a default database for unqualified names", async () => {
    const kalshi = connect({ database: "kalshi" });
    try {
      const result = await kalshi.query({
        query: "SELECT ticker, title FROM markets WHERE ticker = {ticker:String}",
        format: "JSONEachRow",
        query_params: { ticker: "K-1" },
      });
      expect(await result.json()).toEqual([{ ticker: "K-1", title: "Kalshi one" }]);
      const injected = await kalshi.query({
        query: "SELECT ticker FROM markets WHERE ticker = {ticker:String}",
        format: "JSONEachRow",
        query_params: { ticker: "K-1' OR '1'='1" },
      });
      expect(await injected.json()).toEqual([]);
    } finally {
      await kalshi.close();
    }
  });

  it("surfaces refusals and engine errors as its ClickHouseError, with ClickHouse's codes", async () => {
    const refused = await client.query({ query: "SELECT * FROM internal.secret", format: "JSON" }).catch((e) => e);
    expect(refused).toBeInstanceOf(ClickHouseError);
    expect(refused).toMatchObject({ code: "497", type: "ACCESS_DENIED" });
    expect(refused.message).toContain("query the polymarket, kalshi and crossvenue databases");
    const unknown = await client
      .query({ query: "SELECT nope FROM polymarket.markets", format: "JSON" })
      .catch((e) => e);
    expect(unknown).toBeInstanceOf(ClickHouseError);
    expect(unknown).toMatchObject({ code: "47", type: "UNKNOWN_IDENTIFIER" });
    const syntax = await client.query({ query: "SELEC 1", format: "JSON" }).catch((e) => e);
    expect(syntax).toMatchObject({ code: "62", type: "SYNTAX_ERROR" });
  });

  it("refuses a wrong key and a session token as AUTHENTICATION_FAILED", async () => {
    for (const password of ["ep_live_wrong", session]) {
      const stranger = connect({ password });
      const error = await stranger.query({ query: "SELECT 1", format: "JSON" }).catch((e) => e);
      await stranger.close();
      expect(error).toBeInstanceOf(ClickHouseError);
      expect(error).toMatchObject({ code: "516", type: "AUTHENTICATION_FAILED" });
    }
  });
});

describe("the clickhouse npm package, at the root of its own port", () => {
  it("selects with Basic auth and its own defaults (JSON, quote_64bit_integers=0, session ids)", async () => {
    const other = new ClickHouse({
      url: "http://127.0.0.1",
      port: Number(new URL(rootBase).port),
      basicAuth: { username: "default", password: key },
      format: "json",
      config: { database: "polymarket" },
    });
    const rows = (await other
      .query("SELECT id, volume24hr FROM markets WHERE volume24hr >= 200 ORDER BY id")
      .toPromise()) as Array<{ id: string; volume24hr: number }>;
    expect(rows).toEqual([
      { id: "m2", volume24hr: 200 },
      { id: "m3", volume24hr: 300 },
    ]);
    await expect(other.query("SELECT * FROM internal.secret").toPromise()).rejects.toThrow(/ACCESS_DENIED/);
  });

  it("answers ping and a bare GET at its root", async () => {
    expect(await (await fetch(`${rootBase}/ping`)).text()).toBe("Ok.\n");
    expect(await (await fetch(`${rootBase}/`)).text()).toBe("Ok.\n");
  });
});

describe("what connecting tools send", () => {
  it("answers the introspection statements from the market databases only", async () => {
    expect(await rowsOf("SHOW DATABASES")).toEqual([["crossvenue"], ["kalshi"], ["polymarket"]]);
    const tables = (await rowsOf('SHOW TABLES FROM "polymarket"')).flat();
    expect(tables).toContain("markets_latest");
    expect(tables).not.toContain("secret");
    expect((await rowsOf("SHOW TABLES LIKE 'markets%'", "database=kalshi")).flat()).toEqual([
      "markets",
      "markets_asof",
      "markets_latest",
    ]);
    // The as-of views answer through the interface as through the editor, the argument unnamed.
    const asOf = await rowsOf("SELECT count() FROM kalshi.book_asof(now() - INTERVAL 20 MINUTE)");
    expect(asOf).toEqual([["0"]]);
    const describe = await rowsOf('DESC TABLE "polymarket"."markets"');
    expect(describe.map((row) => row.slice(0, 2))).toContainEqual(["question", "LowCardinality(String)"]);
    expect(await rowsOf("EXISTS TABLE polymarket.markets")).toEqual([["1"]]);
    expect(await rowsOf("EXISTS TABLE internal.secret")).toEqual([["0"]]);
    expect((await rowsOf("SHOW CREATE TABLE polymarket.markets"))[0]?.[0]).toContain("CREATE TABLE polymarket.markets");
    // A table the catalogue does not list is unknown, as on a ClickHouse server, not an empty answer.
    for (const statement of ["DESCRIBE TABLE polymarket.nope", "SHOW CREATE TABLE internal.secret", "DESC nope"]) {
      const refused = await post(statement);
      expect(refused.status).toBe(404);
      expect(refused.headers.get("x-clickhouse-exception-code")).toBe("60");
      expect(await refused.text()).toMatch(/Table (polymarket|internal)\.(nope|secret) does not exist/);
    }
    // A write is forbidden on a read-only server, whatever format its data says it is in.
    const insert = await post("INSERT INTO polymarket.markets FORMAT TSV");
    expect(insert.status).toBe(403);
    expect(insert.headers.get("x-clickhouse-exception-code")).toBe("164");
  });

  it("runs drivers' metadata SQL over system.* unchanged, seeing nothing but the market databases", async () => {
    const [[version, timezone]] = (await rowsOf("SELECT version(), timezone()")) as [[string, string]];
    expect(version).toMatch(/^\d+\.\d+/);
    expect(timezone).toBe("UTC");
    expect(await rowsOf("SELECT currentDatabase()", "database=kalshi")).toEqual([["kalshi"]]);
    expect(await rowsOf("SELECT DISTINCT database FROM system.tables ORDER BY database")).toEqual([
      ["crossvenue"],
      ["kalshi"],
      ["polymarket"],
    ]);
    // JDBC's getTables: a join of system.tables and system.databases with qualified columns.
    const joined = await rowsOf(
      `SELECT system.tables.database, system.tables.name, multiIf(system.tables.engine LIKE '%View', 'VIEW', 'TABLE')
       FROM system.tables JOIN system.databases ON system.tables.database = system.databases.name
       WHERE system.tables.name = 'markets' ORDER BY 1`,
    );
    expect(joined).toEqual([
      ["kalshi", "markets", "TABLE"],
      ["polymarket", "markets", "TABLE"],
    ]);
    expect((await rowsOf("SELECT count() FROM system.columns WHERE database = 'internal'")).flat()).toEqual(["0"]);
    expect(
      (await rowsOf("SELECT count() FROM information_schema.COLUMNS WHERE table_name = 'markets'")).flat()[0],
    ).not.toBe("0");
    expect(await rowsOf("SELECT value FROM system.settings WHERE name = 'readonly'")).toEqual([["1"]]);
    // Paths blanked, but present: JDBC reads an empty data_paths as a remote table. A view
    // (the coverage ledger's days) has none, as on any server.
    expect(
      await rowsOf(
        `SELECT DISTINCT engine LIKE '%View', empty(data_paths), length(arrayStringConcat(data_paths) || metadata_path)
         FROM system.tables ORDER BY 1`,
      ),
    ).toEqual([
      ["0", "0", "0"],
      ["1", "1", "0"],
    ]);
    // The engine's real system tables stay out of reach by any other name.
    expect((await post("SELECT * FROM system.query_log")).status).toBeGreaterThanOrEqual(400);
    expect((await post("SELECT * FROM system.users")).status).toBeGreaterThanOrEqual(400);
  });

  it("takes the format from FORMAT, default_format or X-ClickHouse-Format, and the engine produces it", async () => {
    const parquet = await post("SELECT id FROM polymarket.markets FORMAT Parquet");
    expect(parquet.headers.get("x-clickhouse-format")).toBe("Parquet");
    const bytes = Buffer.from(await parquet.arrayBuffer());
    expect(bytes.subarray(0, 4).toString()).toBe("PAR1");
    const native = Buffer.from(await (await post("SELECT 1 AS check", "default_format=Native")).arrayBuffer());
    expect([native[0], native[1]]).toEqual([1, 1]);
    expect(native.subarray(2, 8).toString()).toBe("\u0005check");
    const rowBinary = await post("SELECT 'a' AS x", "", { "x-clickhouse-format": "RowBinaryWithNamesAndTypes" });
    expect(Buffer.from(await rowBinary.arrayBuffer()).toString("latin1")).toBe("\u0001\u0001x\u0006String\u0001a");
    const tsv = await post("SELECT 1 AS a, 'b' AS b FORMAT TabSeparatedWithNamesAndTypes");
    expect(await tsv.text()).toBe("a\tb\nUInt8\tString\n1\tb\n");
    const unknown = await post("SELECT 1 FORMAT XML");
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get("x-clickhouse-exception-code")).toBe("73");
  });

  it("honours row limits sent as settings, and refuses settings that would change the sandbox", async () => {
    expect(await rowsOf("SELECT number FROM numbers(10)", "limit=2")).toEqual([["0"], ["1"]]);
    expect(await rowsOf("SELECT number FROM numbers(10)", "max_result_rows=3&result_overflow_mode=break")).toHaveLength(
      3,
    );
    for (const setting of ["readonly=0", "max_threads=64", "max_execution_time=x", "allow_ddl=1"]) {
      const response = await post("SELECT 1", setting);
      expect(response.status, setting).toBe(400);
      expect(response.headers.get("x-clickhouse-exception-code")).toBe("164");
      expect(await response.text()).toMatch(/^Code: 164\. DB::Exception: Setting \w+/);
    }
  });

  it("reports the true row count in X-ClickHouse-Summary under wait_end_of_query", async () => {
    const response = await post("SELECT number FROM numbers(7)", "wait_end_of_query=1");
    expect(JSON.parse(response.headers.get("x-clickhouse-summary") ?? "{}")).toMatchObject({ result_rows: "7" });
  });

  it("takes the key from X-ClickHouse-Key and Bearer too, and names what is missing without one", async () => {
    const ways: Record<string, string>[] = [{ "x-clickhouse-key": key }, { authorization: `Bearer ${key}` }];
    for (const headers of ways) {
      const response = await fetch(`${base}/?query=SELECT%2042`, { headers });
      expect(await response.text()).toBe("42\n");
    }
    const anonymous = await fetch(`${base}/?query=SELECT%201`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("x-clickhouse-exception-code")).toBe("516");
    expect(await anonymous.text()).toMatch(/^Code: 516\. DB::Exception: Authentication required/);
  });

  it("records each run with origin clickhouse", async () => {
    expect(await (await post("SELECT 'recorded' AS marker")).text()).toBe("recorded\n");
    // The run is recorded as its answer's stream ends, which the client may see first.
    const recorded = async () => {
      await t.stores.queryRuns.flush();
      const runs = await t.stores.appDatabase.db
        .select({ sql: schema.queryRuns.sql })
        .from(schema.queryRuns)
        .where(eq(schema.queryRuns.origin, "clickhouse"));
      return runs.map((run) => run.sql);
    };
    await expect.poll(recorded, { timeout: 5_000 }).toContain("SELECT 'recorded' AS marker");
  });
});

describe("SQL the query API refuses", () => {
  const escapes = [
    "SELECT * FROM internal.secret",
    "SELECT * FROM file('/etc/passwd', 'LineAsString')",
    "SELECT * FROM url('http://127.0.0.1:1/', 'LineAsString', 'x String')",
    "INSERT INTO polymarket.markets (id) VALUES ('x')",
    "DROP TABLE polymarket.markets",
    "SELECT 1; DROP TABLE polymarket.markets",
    "SELECT 1 SETTINGS readonly = 0",
    "SELECT * FROM remote('127.0.0.1', 'internal', 'secret')",
    "SELECT dictGet('x', 'y', 1)",
    "SET readonly = 0",
    "SELECT * FROM internal.secret INTO OUTFILE '/tmp/stolen.csv'",
  ];

  it("is refused here too, in every accepted format, and changes nothing", async () => {
    const before = await t.stores.warehouse.query("SELECT count() AS n FROM polymarket.markets");
    for (const format of Object.keys(OUTPUT_FORMATS)) {
      for (const sql of escapes) {
        const response = await post(sql, `default_format=${format}`);
        const body = await response.text();
        expect(response.status, `${format}: ${sql}`).toBeGreaterThanOrEqual(400);
        expect(response.headers.get("x-clickhouse-exception-code"), `${format}: ${sql}`).toMatch(/^\d+$/);
        expect(body).not.toContain("hunter2");
      }
    }
    expect(await t.stores.warehouse.query("SELECT count() AS n FROM polymarket.markets")).toEqual(before);
  });
});

/**
 * The statements drivers send on connect and for schema discovery, verbatim from their
 * source (clickhouse-connect 0.8 and its SQLAlchemy dialect, Superset, the Grafana
 * plugin's frontend, Metabase's driver, JDBC v2), in the format each asks for.
 */
describe("drivers' own statements, verbatim", () => {
  const statements: Array<[string, string, string]> = [
    ["clickhouse-connect", "SELECT version(), timezone()", ""],
    ["clickhouse-connect", "SELECT name, value, readonly FROM system.settings LIMIT 10000\n FORMAT Native", ""],
    ["clickhouse-connect", "SELECT 1 AS check\n FORMAT Native", ""],
    ["SQLAlchemy", "SELECT currentDatabase()", "database=polymarket"],
    ["SQLAlchemy", "EXISTS DATABASE `kalshi`", ""],
    [
      "SQLAlchemy",
      "SELECT engine, engine_full, comment FROM system.tables WHERE database = 'polymarket' AND name = 'markets'",
      "",
    ],
    ["SQLAlchemy", "DESCRIBE TABLE `polymarket`.`markets`", ""],
    ["Superset", "SELECT name FROM system.functions UNION ALL SELECT name FROM system.table_functions LIMIT 10000", ""],
    ["Grafana", "SELECT name, type, table FROM system.columns WHERE database IN ('polymarket')", ""],
    [
      "Grafana",
      "SELECT name, is_aggregate, case_insensitive, alias_to, origin, description, syntax, arguments, returned_value, examples, categories FROM system.functions LIMIT 10000",
      "",
    ],
    ["Grafana", "SELECT 1", "default_format=Native&limit=1000"],
    [
      "Metabase",
      "WITH s AS (SELECT version() AS ver, splitByChar('.', ver) AS verSplit) SELECT s.ver, toInt32(verSplit[1]), toInt32(verSplit[2]) FROM s",
      "",
    ],
    ["Metabase", "SELECT value='1' FROM system.settings WHERE name='cloud_mode'", ""],
    ["Metabase", "SELECT count(*) > 0 FROM system.databases WHERE name = 'polymarket'", ""],
    ["Metabase", "SELECT timezone() AS tz", "session_timezone=UTC&async_insert=0&wait_end_of_query=0"],
    [
      "JDBC 0.8.4 getTables",
      `SELECT '' AS TABLE_CAT, t.database AS TABLE_SCHEM, t.name AS TABLE_NAME, CASE WHEN t.engine LIKE '%Log' THEN 'LOG TABLE' WHEN t.engine in ('Buffer','Memory','Set') THEN 'MEMORY TABLE' WHEN t.is_temporary != 0 THEN 'TEMPORARY TABLE' WHEN t.engine like '%View' THEN 'VIEW'WHEN t.engine = 'Dictionary' THEN 'DICTIONARY' WHEN t.engine LIKE 'Async%' OR t.engine LIKE 'System%' THEN 'SYSTEM TABLE' WHEN empty(t.data_paths) THEN 'REMOTE TABLE' ELSE 'TABLE' END AS TABLE_TYPE, t.comment AS REMARKS, d.engine AS TYPE_SCHEM FROM system.tables t JOIN system.databases d ON system.tables.database = system.databases.name WHERE t.database LIKE 'polymarket' AND t.name LIKE '%' AND TABLE_TYPE IN ('TABLE', 'VIEW')`,
      "",
    ],
    [
      "JDBC getColumns",
      "SELECT database AS TABLE_SCHEM, table AS TABLE_NAME, name AS COLUMN_NAME, system.columns.type AS DATA_TYPE, toInt32(multiIf(character_octet_length IS NOT NULL, character_octet_length, numeric_precision IS NOT NULL, numeric_precision, 0)) AS COLUMN_SIZE, system.columns.comment AS REMARKS, system.columns.default_expression AS COLUMN_DEF, toInt32(system.columns.position) AS ORDINAL_POSITION FROM system.columns WHERE database LIKE 'kalshi' AND table LIKE 'markets' AND name LIKE '%' ORDER BY TABLE_SCHEM, TABLE_NAME, ORDINAL_POSITION",
      "",
    ],
    [
      "JDBC getPrimaryKeys",
      "SELECT NULL::Nullable(String) AS TABLE_CAT, system.tables.database AS TABLE_SCHEM, system.tables.name AS TABLE_NAME, trim(c.1) AS COLUMN_NAME, CAST(c.2 AS Int16) AS KEY_SEQ, 'PRIMARY' AS PK_NAME FROM system.tables ARRAY JOIN arrayZip(splitByChar(',', primary_key), arrayEnumerate(splitByChar(',', primary_key))) as c WHERE system.tables.primary_key <> '' AND system.tables.database ILIKE 'polymarket' AND system.tables.name ILIKE 'markets' ORDER BY COLUMN_NAME",
      "",
    ],
    [
      "DBeaver",
      "SELECT name as TABLE_NAME, engine as TABLE_TYPE, database as TABLE_SCHEM,comment as REMARKS, * FROM system.tables\nWHERE database = 'polymarket'",
      "",
    ],
    ["DBeaver", "SELECT name FROM system.table_engines", ""],
    [
      "DBeaver",
      "select table,sum(bytes) as table_size, sum(rows) as table_rows, max(modification_time) as latest_modification,min(min_date) AS min_date,max(max_date) AS max_date FROM system.parts\nWHERE database='polymarket' AND active\nGROUP BY table",
      "",
    ],
    [
      "JDBC v2",
      "SELECT currentUser() AS user, timezone() AS timezone, version() AS version, getSetting('readonly') AS readonly FORMAT RowBinaryWithNamesAndTypes",
      "",
    ],
  ];
  for (const [client, sql, search] of statements) {
    it(`${client}: ${sql.slice(0, 70)}`, async () => {
      const response = await post(sql, search);
      expect(response.status, await response.clone().text()).toBe(200);
    });
  }
});
