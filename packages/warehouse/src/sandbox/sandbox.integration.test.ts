import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rowsAsObjects } from "@epicenter/contracts";
import { tableFromIPC } from "apache-arrow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWarehouse, type Warehouse } from "../client";
import { migrateWarehouse } from "../migrate";
import { toDateTime64 } from "../values";
import {
  QueryCancelledError,
  QueryEngineError,
  QueryMemoryError,
  QuerySyntaxError,
  QueryTimeoutError,
  SandboxRefusal,
} from "./errors";
import { Sandbox } from "./sandbox";

const dir = mkdtempSync(join(tmpdir(), "epicenter-sandbox-"));
const path = join(dir, "warehouse");
const outfile = join(dir, "stolen.csv");
let warehouse: Warehouse;
let sandbox: Sandbox;

// A query that keeps both cores busy for as long as it is allowed to run.
const SLOW = "SELECT count() FROM numbers_mt(1000000000000) WHERE sipHash64(number) % 7 = 3";

beforeAll(async () => {
  warehouse = openWarehouse({ path, poolSize: 2 });
  await migrateWarehouse(warehouse);
  await warehouse.command(
    "CREATE TABLE IF NOT EXISTS internal.secret (id UInt32, value String) ENGINE = MergeTree ORDER BY id",
  );
  await warehouse.insert("internal.secret", [{ id: 1, value: "api-key" }]);
  const now = toDateTime64(Date.now());
  await warehouse.insert(
    "polymarket.markets",
    ["a", "b", "c"].map((id, index) => ({ sync_timestamp: now, id, question: `Will ${id}?`, volume24hr: index * 10 })),
  );
  await warehouse.insert(
    "kalshi.markets",
    ["K1", "K2"].map((ticker) => ({ sync_timestamp: now, ticker, title: `Kalshi ${ticker}` })),
  );
  sandbox = await Sandbox.open(
    { path, warehouse },
    { limits: { maxExecutionSeconds: 3, maxMemoryBytes: 150 * 1024 ** 2, poolSize: 2 }, maxStalenessMs: 0 },
  );
});

afterAll(async () => {
  await sandbox?.close();
  await warehouse?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What a refused statement could have changed: databases, tables, their rows. */
async function warehouseState(): Promise<unknown> {
  return warehouse.query(
    "SELECT database, name, total_rows FROM system.tables WHERE database NOT IN ('system', 'INFORMATION_SCHEMA', 'information_schema') ORDER BY database, name",
  );
}

async function refusal(sql: string): Promise<SandboxRefusal> {
  const error = await sandbox.run(sql, { limit: 10 }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, sql).toBeInstanceOf(SandboxRefusal);
  return error as SandboxRefusal;
}

const ONLY_SELECT = /Only SELECT queries are allowed/;
const ONE_STATEMENT = /Only one statement can run at a time/;
const REFUSED: Array<[string, RegExp]> = [
  ["INSERT INTO polymarket.markets (id) VALUES ('evil')", ONLY_SELECT],
  ["INSERT INTO polymarket.markets (id) SELECT 'evil'", ONLY_SELECT],
  ["CREATE TABLE polymarket.evil (a UInt8) ENGINE = Memory", ONLY_SELECT],
  ["CREATE DATABASE evil", ONLY_SELECT],
  ["DROP TABLE polymarket.markets", ONLY_SELECT],
  ["ALTER TABLE polymarket.markets DELETE WHERE 1", ONLY_SELECT],
  ["TRUNCATE TABLE polymarket.markets", ONLY_SELECT],
  ["SET readonly = 0", ONLY_SELECT],
  ["SYSTEM STOP MERGES", ONLY_SELECT],
  ["KILL QUERY WHERE 1", ONLY_SELECT],
  ["USE internal", ONLY_SELECT],
  ["DESCRIBE TABLE polymarket.markets", ONLY_SELECT],
  ["SHOW TABLES FROM internal", ONLY_SELECT],
  ["EXPLAIN SELECT 1", ONLY_SELECT],
  ["OPTIMIZE TABLE polymarket.markets FINAL", ONLY_SELECT],
  ["SELECT 1 SETTINGS readonly = 0", /SETTINGS is not allowed/],
  ["SELECT * FROM polymarket.markets SETTINGS max_threads = 64", /SETTINGS is not allowed/],
  ["SELECT * FROM (SELECT 1 SETTINGS readonly = 0)", /SETTINGS is not allowed/],
  [
    "SELECT * FROM polymarket.markets WHERE id IN (SELECT id FROM polymarket.markets SETTINGS readonly = 0)",
    /SETTINGS/,
  ],
  [`SELECT 1 INTO OUTFILE '${outfile}'`, /INTO OUTFILE is not allowed/],
  [`SELECT 1 into   outfile '${outfile}' FORMAT CSV`, /INTO OUTFILE is not allowed/],
  ["SELECT 1 FORMAT CSV", /FORMAT is not allowed/],
  ["SELECT * FROM numbers(10) FORMAT Null", /FORMAT is not allowed/],
  ["SELECT 1; DROP TABLE polymarket.markets", ONE_STATEMENT],
  ["SELECT 1;\nSELECT 2", ONE_STATEMENT],
  ["SELECT 'it\\'s'; DROP TABLE polymarket.markets", ONE_STATEMENT],
  ["SELECT 'it''s' /* nested /* ; */ still */; TRUNCATE TABLE polymarket.markets", ONE_STATEMENT],
  ["SELECT $tag$ ; $tag$; DROP TABLE polymarket.markets", ONE_STATEMENT],
  ["SELECT file('/etc/passwd')", /function file\(\) reads outside/],
  ["SELECT `file`('/etc/passwd')", /function file\(\) reads outside/],
  ["SELECT * FROM file('/etc/passwd', 'LineAsString')", /table function file\(\) is not available/],
  ["SELECT * FROM url('http://127.0.0.1:9/x.csv', CSV, 'a String')", /table function url\(\)/],
  ["SELECT * FROM s3('http://127.0.0.1:9/bucket/x.csv')", /table function s3\(\)/],
  ["SELECT * FROM remote('127.0.0.1', system.processes)", /table function remote\(\)/],
  ["SELECT * FROM postgresql('127.0.0.1:5432', 'db', 't', 'u', 'p')", /table function postgresql\(\)/],
  ["SELECT * FROM mysql('127.0.0.1:3306', 'db', 't', 'u', 'p')", /table function mysql\(\)/],
  ["SELECT * FROM executable('cat /etc/passwd', TSV, 'line String')", /table function executable\(\)/],
  ["SELECT * FROM system.processes", /Table system\.processes is not available/],
  ["SELECT query FROM system.query_log", /Table system\.query_log is not available/],
  ["SELECT * FROM internal.secret", /Table internal\.secret is not available/],
  ["SELECT * FROM internal.schema_migrations", /Table internal\.schema_migrations is not available/],
  // Tricky ones.
  ["SELECT * FROM `system`.`processes`", /Table system\.processes is not available/],
  ['SELECT * FROM "internal"."secret"', /Table internal\.secret is not available/],
  ["SELECT * FROM `system.processes`", /Table system\.processes is not available/],
  ["SELECT * FROM INFORMATION_SCHEMA.TABLES", /Table INFORMATION_SCHEMA\.TABLES is not available/],
  ["SELECT * FROM markets", /Table markets needs its database/],
  ["SELECT 1 WHERE 1 IN system.one", /Table system\.one is not available/],
  ["SELECT id FROM polymarket.markets WHERE toUInt32(1) GLOBAL NOT IN internal.secret", /internal\.secret/],
  ["WITH x AS (SELECT * FROM system.processes) SELECT * FROM x", /system\.processes/],
  ["SELECT (SELECT count() FROM internal.secret)", /internal\.secret/],
  ["SELECT id FROM polymarket.markets UNION ALL SELECT value FROM internal.secret", /internal\.secret/],
  ["SELECT joinGet('internal.secret', 'value', toUInt32(1))", /function joinGet\(\)/],
  ["SELECT dictGet('internal.dict', 'value', toUInt64(1))", /function dictGet\(\)/],
  ["SELECT hasColumnInTable('internal', 'secret', 'value')", /function hasColumnInTable\(\)/],
  ["SELECT * FROM merge('internal', '.*')", /table function merge\(\)/],
  ["SELECT * FROM merge(currentDatabase(), '.*')", /table function merge\(\)/],
  ["SELECT * FROM cluster('default', system.processes)", /table function cluster\(\)/],
  ["SELECT * FROM view(SELECT 1)", /table function view\(\)/],
  ["SELECT * FROM loop(polymarket.markets)", /table function loop\(\)/],
  ["SELECT * FROM input('a UInt8')", /table function input\(\)/],
  ["SELECT * FROM dictionary('internal.dict')", /table function dictionary\(\)/],
  ["SELECT * FROM filesystem('/')", /table function filesystem\(\)/],
  // The parser turns an EXPLAIN subquery into the table function viewExplain().
  ["SELECT * FROM (EXPLAIN SELECT 1)", /table function viewExplain\(\)/],
  ["SELECT 1 SETTINGS\n  readonly = 0", /SETTINGS is not allowed/],
];

describe("the sandbox refuses what it must not run", () => {
  it.each(REFUSED)("%s", async (sql, reason) => {
    const error = await refusal(sql);
    expect(error.reason).toMatch(reason);
  });

  it("left the warehouse as it was: no table, row or file changed", async () => {
    const before = await warehouseState();
    for (const [sql] of REFUSED) await refusal(sql);
    expect(await warehouseState()).toEqual(before);
    expect(existsSync(outfile)).toBe(false);
    const rows = await warehouse.query<{ n: string }>("SELECT count() AS n FROM polymarket.markets");
    expect(rows[0]?.n).toBe("3");
  });

  it("leaves the app's own connections writable (the sandbox's settings stay on its connections)", async () => {
    await warehouse.insert("internal.secret", [{ id: 2, value: "written after the sandbox opened" }]);
    const rows = await warehouse.query<{ readonly: string }>("SELECT getSetting('readonly') AS readonly");
    expect(String(rows[0]?.readonly)).toBe("0");
  });

  it("refuses before running: validate alone", async () => {
    await expect(sandbox.validate("DROP TABLE polymarket.markets")).rejects.toBeInstanceOf(SandboxRefusal);
    await expect(sandbox.validate("SELECT 1;")).resolves.toEqual({ body: "SELECT 1" });
  });
});

describe("the sandbox runs market SQL", () => {
  const ALLOWED: Array<[string, unknown[][]]> = [
    ["SELECT count() AS n FROM polymarket.markets", [["3"]]],
    [
      "WITH recent AS (SELECT id, volume24hr FROM polymarket.markets) SELECT id FROM recent ORDER BY id",
      [["a"], ["b"], ["c"]],
    ],
    [
      "SELECT * FROM (SELECT id FROM polymarket.markets UNION ALL SELECT ticker FROM kalshi.markets) ORDER BY 1",
      [["K1"], ["K2"], ["a"], ["b"], ["c"]],
    ],
    ["SELECT 'x' AS v UNION ALL SELECT 'x' AS v", [["x"], ["x"]]],
    [
      "SELECT * FROM (WITH 2 AS two SELECT number * two AS n FROM numbers(2) UNION DISTINCT SELECT 0) ORDER BY n",
      [["0"], ["2"]],
    ],
    [
      "SELECT id, row_number() OVER (ORDER BY volume24hr DESC) AS rank FROM polymarket.markets ORDER BY rank",
      [
        ["c", "1"],
        ["b", "2"],
        ["a", "3"],
      ],
    ],
    [
      "SELECT id FROM polymarket.markets WHERE id IN (SELECT id FROM polymarket.markets WHERE volume24hr > 5) ORDER BY id",
      [["b"], ["c"]],
    ],
    [
      "SELECT m.id, k.ticker FROM polymarket.markets AS m CROSS JOIN kalshi.markets AS k WHERE m.id = 'a' ORDER BY k.ticker",
      [
        ["a", "K1"],
        ["a", "K2"],
      ],
    ],
    ["SELECT sum(number) AS total FROM numbers(10)", [["45"]]],
    ["SELECT number FROM numbers(3); -- done", [["0"], ["1"], ["2"]]],
    ["SELECT number FROM numbers(2) -- a trailing comment", [["0"], ["1"]]],
    ["SELECT 1 AS one -- ; DROP TABLE polymarket.markets", [[1]]],
    ["SELECT $$a;b$$ AS s, format('{} rows', 5) AS f", [["a;b", "5 rows"]]],
    ["SELECT number FROM numbers(100) ORDER BY number DESC LIMIT 3", [["99"], ["98"], ["97"]]],
    ["WITH processes AS (SELECT 7 AS n) SELECT n FROM processes", [[7]]],
  ];

  it.each(ALLOWED)("%s", async (sql, rows) => {
    const result = await sandbox.run(sql, { limit: 100 });
    expect(result.rows, JSON.stringify(result.rows)).toEqual(rows);
    expect(result.truncated).toBe(false);
    expect(result.row_count).toBe(rows.length);
  });

  it("returns the engine's column types, and objects for the API", async () => {
    const result = await sandbox.run("SELECT toUInt64(1) AS a, 'x' AS b, toNullable(1.5) AS c", {
      limit: 10,
    });
    expect(result.columns).toEqual([
      { name: "a", type: "UInt64" },
      { name: "b", type: "String" },
      { name: "c", type: "Nullable(Float64)" },
    ]);
    expect(rowsAsObjects(result)).toEqual([{ a: "1", b: "x", c: 1.5 }]);
    expect(result.execution_time_ms).toBeGreaterThan(0);
  });

  it("returns exactly the limit and says the result was cut", async () => {
    const cut = await sandbox.run("SELECT number FROM numbers(100000)", { limit: 10 });
    expect(cut.rows).toHaveLength(10);
    expect(cut.row_count).toBe(10);
    expect(cut.truncated).toBe(true);
    const whole = await sandbox.run("SELECT number FROM numbers(10)", { limit: 10 });
    expect(whole.rows).toHaveLength(10);
    expect(whole.truncated).toBe(false);
  });

  it("reports a syntax error with its line, column and offset", async () => {
    const sql = "SELECT 1,\n  2 FROM polymarket.markets WHERE\nORDER BY id";
    const error = await sandbox.run(sql, { limit: 10 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuerySyntaxError);
    const syntax = error as QuerySyntaxError;
    expect(syntax.position).toEqual({ line: 3, column: 7, offset: sql.indexOf("BY") });
    expect(syntax.message).toMatch(/^Syntax error/);
    expect(syntax.message).not.toMatch(/formatQuery|In scope/);
  });

  it("reports the engine's error about the user's query, not about our wrapping", async () => {
    const error = await sandbox.run("SELECT nope FROM polymarket.markets", { limit: 10 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueryEngineError);
    expect((error as QueryEngineError).engineCode).toBe("UNKNOWN_IDENTIFIER");
    expect((error as Error).message).toMatch(/nope/);
    expect((error as Error).message).not.toMatch(/epicenter-qid/);
  });
});

async function waitUntilRunning(): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (sandbox.running().length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the query never showed up in system.processes");
}

describe("the sandbox stops queries", () => {
  it("stops a slow query at the engine's time limit, and it is gone from the process list", async () => {
    const error = await sandbox.run(SLOW, { limit: 10 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueryTimeoutError);
    expect((error as Error).message).toMatch(/3-second limit/);
    expect(sandbox.running()).toEqual([]);
  });

  it("stops a slow query at a tighter per-call limit", async () => {
    const error = await sandbox.run(SLOW, { limit: 10, timeoutMs: 600 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueryTimeoutError);
    expect((error as QueryTimeoutError).limitMs).toBe(600);
    expect(sandbox.running()).toEqual([]);
  });

  it("cancels a running query by id", async () => {
    const queryId = "cancel-me-1";
    const running = sandbox.run(SLOW, { limit: 10, queryId }).catch((e: unknown) => e);
    await waitUntilRunning();
    expect(await sandbox.cancel(queryId)).toBe(true);
    expect(await running).toBeInstanceOf(QueryCancelledError);
    expect(sandbox.running()).toEqual([]);
    expect(await sandbox.cancel(queryId)).toBe(false);
  });

  it("kills the engine query when the caller aborts (the HTTP client went away)", async () => {
    const controller = new AbortController();
    const running = sandbox.run(SLOW, { limit: 10, signal: controller.signal }).catch((e: unknown) => e);
    await waitUntilRunning();
    controller.abort();
    expect(await running).toBeInstanceOf(QueryCancelledError);
    expect(sandbox.running()).toEqual([]);
    // The connection is free again: the next queries answer (how soon: `npm run bench -- --only hostile`).
    expect((await sandbox.run("SELECT 1", { limit: 1 })).rows).toEqual([[1]]);
    expect((await sandbox.run("SELECT 2", { limit: 1 })).rows).toEqual([[2]]);
  });

  it("fails a memory-hungry query alone while a small one beside it succeeds", async () => {
    const [hungry, small] = await Promise.allSettled([
      sandbox.run(
        "SELECT number % 20000000 AS k, count() AS n FROM numbers_mt(40000000) GROUP BY k ORDER BY n DESC LIMIT 1",
        { limit: 1 },
      ),
      sandbox.run("SELECT count() AS n FROM polymarket.markets", { limit: 1 }),
    ]);
    expect(hungry.status === "rejected" && hungry.reason).toBeInstanceOf(QueryMemoryError);
    expect(small.status === "fulfilled" && small.value.rows).toEqual([["3"]]);
    expect(sandbox.running()).toEqual([]);
  });
});

describe("downloads", () => {
  async function read(stream: NodeJS.ReadableStream): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
    return Buffer.concat(chunks);
  }

  it("streams CSV with a header, cut at maxRows", async () => {
    const result = await sandbox.stream("SELECT number, toString(number) AS s FROM numbers(300000)", {
      format: "csv",
      maxRows: 250_000,
    });
    expect(result.contentType).toMatch(/text\/csv/);
    const lines = (await read(result.stream)).toString("utf8").trimEnd().split("\n");
    expect(lines[0]).toBe('"number","s"');
    expect(lines).toHaveLength(250_001);
    expect(lines.at(-1)).toBe('249999,"249999"');
  });

  it("streams JSON as an array of row objects", async () => {
    const result = await sandbox.stream("SELECT id, volume24hr FROM polymarket.markets ORDER BY id", {
      format: "json",
      maxRows: 10,
    });
    expect(JSON.parse((await read(result.stream)).toString("utf8"))).toEqual([
      { id: "a", volume24hr: 0 },
      { id: "b", volume24hr: 10 },
      { id: "c", volume24hr: 20 },
    ]);
    const empty = await sandbox.stream("SELECT 1 AS x WHERE 0", { format: "json", maxRows: 10 });
    expect(JSON.parse((await read(empty.stream)).toString("utf8"))).toEqual([]);
  });

  it("streams Parquet that reads back whole", async () => {
    const result = await sandbox.stream("SELECT number FROM numbers(300000)", {
      format: "parquet",
      maxRows: 200_000,
    });
    const bytes = await read(result.stream);
    expect(bytes.subarray(0, 4).toString()).toBe("PAR1");
    expect(bytes.subarray(-4).toString()).toBe("PAR1");
    const file = join(dir, "export.parquet");
    writeFileSync(file, bytes);
    const rows = await warehouse.query<{ n: string; top: string }>(
      `SELECT count() AS n, max(number) AS top FROM file('${file}', Parquet)`,
    );
    expect(rows).toEqual([{ n: "200000", top: "199999" }]);
  });

  it("streams an Arrow IPC stream that arrow-js reads back with the engine's types", async () => {
    const result = await sandbox.stream(
      "SELECT number AS n, toString(number) AS s, number / 4 AS f FROM numbers(100000)",
      { format: "arrow", maxRows: 70_000 },
    );
    expect(result.contentType).toBe("application/vnd.apache.arrow.stream");
    const table = tableFromIPC(await read(result.stream));
    expect(table.numRows).toBe(70_000);
    expect(table.schema.fields.map((field) => `${field.name} ${field.type}`)).toEqual([
      "n Uint64",
      "s Utf8",
      "f Float64",
    ]);
    expect(table.get(69_999)?.toJSON()).toEqual({ n: 69_999n, s: "69999", f: 17_499.75 });
  });

  it("refuses before the first byte, and stops the engine when the reader goes away", async () => {
    await expect(
      sandbox.stream("SELECT * FROM internal.secret", { format: "csv", maxRows: 10 }),
    ).rejects.toBeInstanceOf(SandboxRefusal);
    const result = await sandbox.stream("SELECT number FROM numbers(100000000)", {
      format: "csv",
      maxRows: 1_000_000,
    });
    for await (const _chunk of result.stream) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sandbox.running()).toEqual([]);
    const after = await sandbox.run("SELECT 1 AS ok", { limit: 1 });
    expect(after.rows).toEqual([[1]]);
  });
});
