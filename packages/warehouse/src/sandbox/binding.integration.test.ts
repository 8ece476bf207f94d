/**
 * What a statement runs with besides its text — typed parameters, a default database —
 * and the engine's own output formats, on the embedded engine's confined workers; and the
 * catalogue views ClickHouse clients read, which show the market databases and nothing else.
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

const dir = mkdtempSync(join(tmpdir(), "epicenter-binding-"));
const path = join(dir, "warehouse");
let warehouse: Warehouse;
let sandbox: Sandbox;

beforeAll(async () => {
  warehouse = openWarehouse({ path, poolSize: 2 });
  await migrateWarehouse(warehouse);
  await warehouse.command("CREATE TABLE IF NOT EXISTS internal.secret (id UInt32) ENGINE = MergeTree ORDER BY id");
  const now = toDateTime64(Date.now());
  await warehouse.insert(
    "polymarket.markets",
    ["a", "b", "c"].map((id, index) => ({ sync_timestamp: now, id, question: `Will ${id}?`, volume24hr: index * 10 })),
  );
  sandbox = await Sandbox.open({ path, warehouse }, { limits: { poolSize: 1 }, maxStalenessMs: 0 });
});

afterAll(async () => {
  await sandbox?.close();
  await warehouse?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function text(sql: string, format: string, binding: { params?: Record<string, string>; database?: string } = {}) {
  const download = await sandbox.stream(sql, {
    format: { engine: format, contentType: "application/octet-stream" },
    maxRows: 1000,
    ...binding,
  });
  const chunks: Buffer[] = [];
  for await (const chunk of download.stream) chunks.push(chunk as Buffer);
  return { body: Buffer.concat(chunks), finished: await download.finished };
}

describe("typed parameters", () => {
  it("binds values in the engine, so a value is never SQL", async () => {
    const sql = "SELECT id FROM polymarket.markets WHERE id = {id:String} ORDER BY id";
    const found = await sandbox.run(sql, { limit: 10, params: { id: "b" } });
    expect(found.rows).toEqual([["b"]]);
    const injected = await sandbox.run(sql, { limit: 10, params: { id: "b' OR '1'='1" } });
    expect(injected.rows).toEqual([]);
  });

  it("names a parameter without a value, and one of the wrong type, before the engine runs", async () => {
    const sql = "SELECT number FROM numbers({n:UInt8}) WHERE number >= {from:UInt8}";
    await expect(sandbox.run(sql, { limit: 10, params: { n: "3" } })).rejects.toThrow(
      new SandboxRefusal("Parameter from (UInt8) has no value."),
    );
    await expect(sandbox.run(sql, { limit: 10, params: { n: "300", from: "1" } })).rejects.toThrow(
      /parameter n must be a whole number from 0 to 255 \(UInt8\); got "300"/i,
    );
    expect((await sandbox.run(sql, { limit: 10, params: { n: "3", from: "1" } })).rows).toEqual([["1"], ["2"]]);
  });

  it("checks the statement with its values bound: an Identifier parameter cannot name a forbidden table", async () => {
    await expect(
      sandbox.run("SELECT * FROM {t:Identifier}", { limit: 10, params: { t: "internal.secret" } }),
    ).rejects.toBeInstanceOf(SandboxRefusal);
    const allowed = await sandbox.run("SELECT count() AS n FROM {t:Identifier}", {
      limit: 10,
      params: { t: "markets" },
      database: "polymarket",
    });
    expect(allowed.rows).toEqual([["3"]]);
  });
});

describe("a default database", () => {
  it("reads unqualified names from it, and only when it is a market database", async () => {
    const result = await sandbox.run("SELECT count() AS n FROM markets", { limit: 10, database: "polymarket" });
    expect(result.rows).toEqual([["3"]]);
    await expect(sandbox.run("SELECT count() FROM markets", { limit: 10 })).rejects.toBeInstanceOf(SandboxRefusal);
    await expect(sandbox.run("SELECT count() FROM secret", { limit: 10, database: "internal" })).rejects.toBeInstanceOf(
      SandboxRefusal,
    );
    // The next statement on the same worker, without one, is back to qualified names only.
    const after = await sandbox.run("SELECT currentDatabase() AS db", { limit: 1 });
    expect(after.rows).toEqual([["default"]]);
  });
});

describe("the catalogue views", () => {
  it("list the market databases and their tables only", async () => {
    const databases = await sandbox.run("SELECT name FROM epicenter_system.databases ORDER BY name", { limit: 100 });
    expect(databases.rows).toEqual([["crossvenue"], ["kalshi"], ["polymarket"]]);
    const tables = await sandbox.run(
      "SELECT DISTINCT database FROM epicenter_system.tables UNION DISTINCT SELECT DISTINCT table_schema FROM epicenter_information_schema.TABLES",
      { limit: 100 },
    );
    expect(tables.rows.flat().sort()).toEqual(["crossvenue", "kalshi", "polymarket"]);
    const columns = await sandbox.run(
      "SELECT count() FROM epicenter_system.columns WHERE database = 'polymarket' AND table = 'markets'",
      { limit: 1 },
    );
    expect(Number(columns.rows[0]?.[0])).toBeGreaterThan(10);
  });

  it("show no snapshot paths, and the truth about writes", async () => {
    const ddl = await sandbox.run(
      "SELECT create_table_query FROM epicenter_system.tables WHERE name = 'markets' AND database = 'polymarket'",
      { limit: 1 },
    );
    expect(String(ddl.rows[0]?.[0])).toContain("CREATE TABLE polymarket.markets");
    expect(String(ddl.rows[0]?.[0])).not.toContain("disk(");
    expect(String(ddl.rows[0]?.[0])).not.toContain(dir);
    const readonly = await sandbox.run("SELECT value FROM epicenter_system.settings WHERE name = 'readonly'", {
      limit: 1,
    });
    expect(readonly.rows).toEqual([["1"]]);
  });

  it("leave the engine's own system tables refused", async () => {
    await expect(sandbox.run("SELECT * FROM system.tables", { limit: 1 })).rejects.toBeInstanceOf(SandboxRefusal);
    await expect(sandbox.run("SELECT * FROM system.query_log", { limit: 1 })).rejects.toBeInstanceOf(SandboxRefusal);
  });
});

describe("engine formats", () => {
  it("streams line formats with one header and counts their rows", async () => {
    const { body, finished } = await text("SELECT number FROM numbers(200000)", "TabSeparatedWithNamesAndTypes");
    const lines = body.toString().trimEnd().split("\n");
    expect(lines.slice(0, 3)).toEqual(["number", "UInt64", "0"]);
    expect(lines).toHaveLength(200_002 - 199_000);
    expect(finished.rows).toBe(1000);
  });

  it("answers one-document formats whole: JSON with its meta, and Native", async () => {
    const { body } = await text("SELECT number, {s:String} AS s FROM numbers(3)", "JSON", { params: { s: "x" } });
    const json = JSON.parse(body.toString()) as { meta: unknown; data: unknown[]; rows: number };
    expect(json.meta).toEqual([
      { name: "number", type: "UInt64" },
      { name: "s", type: "String" },
    ]);
    expect(json.rows).toBe(3);
    const native = await text("SELECT number FROM numbers(5)", "Native");
    // Native: columns count, rows count (varints), then the column's name, type and values.
    expect([native.body[0], native.body[1]]).toEqual([1, 5]);
    expect(native.body.subarray(2).toString("latin1")).toContain("number\u0006UInt64");
  });
});

describe("values for parameters a statement does not use (issue 23, finding 8)", () => {
  it("are dropped before the validation cache, so they cannot grow it", async () => {
    const before = sandbox.validationCacheSize.entries;
    for (let index = 0; index < 50; index++) {
      const result = await sandbox.run("SELECT {n:UInt8} AS n", {
        limit: 1,
        params: { n: "7", [`unused_${index}`]: "x".repeat(10_000) },
      });
      expect(result.rows).toEqual([[7]]);
    }
    // One statement, one value of the parameter it uses: one entry, however many unused values came.
    expect(sandbox.validationCacheSize.entries - before).toBe(1);
    expect(sandbox.validationCacheSize.bytes).toBeLessThan(100_000);
  });
});
