/**
 * Issue 23: the layers under the allow-list, each holding alone. Every statement here runs
 * with the allow-list switched off, as a miss in it would let it through: reading files
 * through an aggregate's parameters or a column transformer, and raising the limits with a
 * subquery's SETTINGS. The engine (grants, memory cap), the supervisor (time) and the
 * process (bubblewrap: no host file system) must stop each.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWarehouse, type Warehouse } from "../client";
import { migrateWarehouse } from "../migrate";
import { toDateTime64 } from "../values";
import { QueryMemoryError, QueryTimeoutError } from "./errors";
import { Sandbox } from "./sandbox";

const dir = mkdtempSync(join(tmpdir(), "epicenter-engine-layer-"));
const path = join(dir, "warehouse");
let warehouse: Warehouse;
let sandbox: Sandbox;
const hostname = readFileSync("/etc/hostname", "utf8").trim();

beforeAll(async () => {
  warehouse = openWarehouse({ path, poolSize: 2 });
  await migrateWarehouse(warehouse);
  await warehouse.insert("polymarket.markets", [{ sync_timestamp: toDateTime64(Date.now()), id: "a" }]);
  sandbox = await Sandbox.open(
    { path, warehouse },
    {
      limits: { maxExecutionSeconds: 2, maxMemoryBytes: 256 * 1024 ** 2, poolSize: 2 },
      maxStalenessMs: 0,
      allowList: "off",
    },
  );
});

afterAll(async () => {
  await sandbox?.close();
  await warehouse?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The rows as text, or the error's message: what the caller of a bypass would see. */
const attempt = (sql: string) =>
  sandbox.run(sql, { limit: 100 }).then(
    (result) => JSON.stringify(result.rows),
    (error: Error) => `${error.name}: ${error.message}`,
  );

describe("with the allow-list off", () => {
  it("runs what it is given (the layer is really off)", async () => {
    expect(await attempt("SELECT arrayReduce('groupConcat(\\'-\\')', ['a', 'b'])")).toBe('[["a-b"]]');
  });

  it.runIf(process.platform === "linux")("reads no host file through an aggregate's parameters or APPLY", async () => {
    expect(sandbox.isConfined, "bubblewrap must be installed for user SQL to be confined").toBe(true);
    for (const sql of [
      "SELECT arrayReduce('groupConcat(file(''/etc/hostname''))', ['a', 'b'])",
      "SELECT arrayReduce(concat('groupConcat(file(''/etc/', 'hostname''))'), ['a'])",
      "SELECT initializeAggregation('groupConcatState(file(''/etc/hostname''))', 'a')",
      "SELECT * APPLY(file) FROM (SELECT '/etc/hostname' AS p)",
      "SELECT file('/etc/hostname')",
      `SELECT file('${join(dir, "warehouse", "metadata", "internal.sql")}')`,
    ]) {
      const answer = await attempt(sql);
      expect(answer, sql).toMatch(/Error/);
      expect(answer, sql).not.toContain(hostname);
    }
  });

  it.runIf(process.platform === "linux")("sees its own hostname, processes and environment only", async () => {
    expect(await attempt("SELECT hostName()")).toBe('[["epicenter-sandbox"]]');
    const environment = await attempt("SELECT * APPLY(x -> file('/proc/self/environ')) FROM (SELECT 1 AS p)");
    expect(environment).not.toMatch(/SMTP_URL|DATABASE_URL|SEISMO|_KEY=/);
    expect(await attempt("SELECT file('/proc/1/environ')")).not.toMatch(/SMTP_URL|DATABASE_URL/);
  });

  it("keeps the time limit when a subquery's SETTINGS raises it", async () => {
    const started = performance.now();
    const failure = await sandbox
      .run(
        "SELECT * FROM (SELECT count() FROM numbers_mt(100000000000) WHERE sipHash64(number) = 1 SETTINGS max_execution_time = 1000, timeout_overflow_mode = 'break')",
        { limit: 10 },
      )
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(QueryTimeoutError);
    // The engine's limit (2 s), KILL QUERY 2 s past it, the process 1.5 s after that.
    expect(performance.now() - started).toBeLessThan(8_000);
  });

  it("keeps the memory cap when a subquery's SETTINGS raises the limit", async () => {
    const failure = await sandbox
      .run(
        "SELECT * FROM (SELECT length(groupArray(repeat('x', 100))) FROM numbers(50000000) SETTINGS max_memory_usage = 100000000000)",
        { limit: 10 },
      )
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(QueryMemoryError);
  });

  it("grants no file or network source when a subquery's SETTINGS says readonly = 0", async () => {
    for (const sql of [
      "SELECT * FROM (SELECT * FROM file('/etc/hostname', 'LineAsString') SETTINGS readonly = 0)",
      "SELECT * FROM (SELECT * FROM url('http://127.0.0.1:9/x', CSV, 'a String') SETTINGS readonly = 0)",
      "SELECT * FROM (SELECT count() FROM internal.sync_run_history SETTINGS readonly = 0)",
    ]) {
      expect(await attempt(sql), sql).toMatch(/privileges|ACCESS_DENIED|READ ON|does not exist/i);
    }
  });
});
