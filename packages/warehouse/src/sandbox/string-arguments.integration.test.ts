/**
 * Issue 18's sandbox findings at the engine: string arguments the engine parses as SQL
 * (structures, formats), the functions that describe the host, and the real work the
 * sandbox once refused. Every statement here is sent as a user would send it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWarehouse, type Warehouse } from "../client";
import { migrateWarehouse } from "../migrate";
import { toDateTime64 } from "../values";
import { SandboxRefusal } from "./errors";
import { Sandbox } from "./sandbox";

const dir = mkdtempSync(join(tmpdir(), "epicenter-string-arguments-"));
const path = join(dir, "warehouse");
let warehouse: Warehouse;
let sandbox: Sandbox;

beforeAll(async () => {
  warehouse = openWarehouse({ path, poolSize: 2 });
  await migrateWarehouse(warehouse);
  await warehouse.insert(
    "polymarket.markets",
    ["a", "b", "c"].map((id, index) => ({ sync_timestamp: toDateTime64(Date.now()), id, volume24hr: index * 10 })),
  );
  sandbox = await Sandbox.open(
    { path, warehouse },
    { limits: { maxExecutionSeconds: 5, poolSize: 2 }, maxStalenessMs: 0 },
  );
});

afterAll(async () => {
  await sandbox?.close();
  await warehouse?.close();
  rmSync(dir, { recursive: true, force: true });
});

const REFUSED: Array<[string, RegExp]> = [
  // Structure strings, whose column expressions the engine evaluates (issue 18, finding 1).
  ["SELECT * FROM values('a String DEFAULT file(\\'/etc/passwd\\')', 'x')", /DEFAULT is not allowed/],
  ["SELECT b FROM values('a String, b String ALIAS file(\\'/etc/passwd\\')', ('x'))", /ALIAS is not allowed/],
  ["SELECT b FROM values('a String, b String alias file(''/etc/shadow'')', ('x'))", /ALIAS is not allowed/],
  ["SELECT * FROM values('a String DEF\\x41ULT file(\\'/etc/passwd\\')', 'x')", /DEFAULT is not allowed/],
  ["SELECT * FROM values('a String /* c */ MATERIALIZED file(\\'/etc/passwd\\')', 'x')", /MATERIALIZED/],
  [
    "SELECT * FROM generateRandom('a String EPHEMERAL file(\\'/etc/passwd\\'), b String DEFAULT a') LIMIT 1",
    /EPHEMERAL/,
  ],
  ["SELECT * FROM generateRandom('a String MATERIALIZED file(\\'/proc/self/environ\\')') LIMIT 1", /MATERIALIZED/],
  ["SELECT * FROM values(concat('a String DEF', 'AULT file(\\'/etc/passwd\\')'), 'x')", /string literal/],
  ["WITH 'a String DEFAULT file(\\'/etc/passwd\\')' AS s SELECT * FROM values(s, 'x')", /string literal/],
  ["SELECT * FROM values((SELECT 'a String DEFAULT file(\\'/etc/passwd\\')'), 'x')", /string literal/],
  ["SELECT * FROM values(lower('A STRING DEFAULT FILE(\\'/ETC/PASSWD\\')'), 'x')", /string literal/],
  [
    "WITH t AS (SELECT b FROM values('a String, b String ALIAS file(\\'/etc/passwd\\')', 'x')) SELECT * FROM t",
    /ALIAS/,
  ],
  ["SELECT * FROM (SELECT * FROM (SELECT b FROM values('a String, b String ALIAS file(\\'/x\\')', 'x')))", /ALIAS/],
  ["SELECT 1 AS x UNION ALL SELECT b FROM values('a String, b UInt8 ALIAS length(file(\\'/x\\'))', 'x')", /ALIAS/],
  [
    "SELECT * FROM numbers(1) AS n JOIN values('a UInt64, b String ALIAS file(\\'/x\\')', 0) AS v ON n.number = v.a",
    /ALIAS/,
  ],
  ["SELECT structureToProtobufSchema('a String DEFAULT file(\\'/etc/passwd\\')', 'M')", /DEFAULT/],
  ["SELECT formatRow('Template', 1)", /format as a string literal/],
  // Functions that tell about the host or the engine (finding 8).
  ["SELECT hostName()", /reads outside the market tables/],
  ["SELECT FQDN()", /reads outside/],
  ["SELECT getOSKernelVersion()", /reads outside/],
  ["SELECT filesystemAvailable()", /reads outside/],
  ["SELECT buildId()", /reads outside/],
  ["SELECT uptime()", /reads outside/],
  ["SELECT tcpPort()", /reads outside/],
  ["SELECT version()", /reads outside/],
  ["SELECT currentUser()", /reads outside/],
  ["SELECT getServerSetting('path')", /reads outside/],
  ["SELECT sleep(3)", /reads outside/],
  ["SELECT addressToSymbol(1)", /reads outside/],
];

describe("the sandbox refuses", () => {
  it.each(REFUSED)("%s", async (sql, reason) => {
    const error = await sandbox.run(sql, { limit: 10 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error, sql).toBeInstanceOf(SandboxRefusal);
    expect((error as SandboxRefusal).reason).toMatch(reason);
  });
});

const ALLOWED: Array<[string, unknown[][]]> = [
  // Real work the sandbox once refused.
  ['SELECT avg(volume24hr) AS "avg.prob" FROM polymarket.markets', [[10]]],
  [
    "SELECT * FROM (VALUES (1, 'a'), (2, 'b')) ORDER BY 1",
    [
      [1, "a"],
      [2, "b"],
    ],
  ],
  ["SELECT * FROM values('a String, b UInt8', ('x', 1))", [["x", 1]]],
  ["SELECT count() AS n FROM (SELECT * FROM generateRandom('a UInt8, b String', 1, 10) LIMIT 5)", [["5"]]],
  ["SELECT CAST('1', 'Nullable(UInt8)') AS v", [[1]]],
];

describe("the sandbox runs", () => {
  it.each(ALLOWED)("%s", async (sql, rows) => {
    const result = await sandbox.run(sql, { limit: 100 });
    expect(result.rows, JSON.stringify(result.rows)).toEqual(rows);
  });

  it("type strings hold no expression: the engine's type parser refuses one", async () => {
    const error = await sandbox
      .run("SELECT CAST('x', 'Tuple(a String DEFAULT file(\\'/etc/passwd\\'))') AS v", { limit: 1 })
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/Syntax error \(data type\)/);
  });
});
