/**
 * One user must never stall the others (issue 18, findings 4, 5 and 7): a query that
 * ignores its time limit and KILL QUERY, a caller who takes every session, a reader who
 * stops reading, a result that grows six times over as JSON.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWarehouse, type Warehouse } from "../client";
import { migrateWarehouse } from "../migrate";
import { QueryTimeoutError } from "./errors";
import { DownloadStalledError } from "./export";
import { Sandbox } from "./sandbox";

const dir = mkdtempSync(join(tmpdir(), "epicenter-limits-"));
const path = join(dir, "warehouse");
let warehouse: Warehouse;
let sandbox: Sandbox;

/**
 * One block of work the engine cannot interrupt: a 40-million-element array mapped in a
 * single function call, which ran 12 s past a 2-second limit and a KILL QUERY (measured).
 */
const UNSTOPPABLE = "SELECT length(arrayMap(x -> sipHash64(x, x, x, x), range(40000000))) AS n";

beforeAll(async () => {
  warehouse = openWarehouse({ path, poolSize: 2 });
  await migrateWarehouse(warehouse);
  sandbox = await Sandbox.open(
    { path, warehouse },
    {
      limits: { maxExecutionSeconds: 1, poolSize: 2, maxResultBytes: 1024 * 1024, downloadIdleMs: 500 },
      maxStalenessMs: 0,
    },
  );
});

afterAll(async () => {
  await sandbox?.close();
  await warehouse?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a query that ignores its limit", () => {
  // How soon it is stopped and the next query answers is a figure of `npm run bench -- --only hostile`.
  it("is stopped by its limit, and the next query runs", async () => {
    const error = await sandbox.run(UNSTOPPABLE, { limit: 1, owner: "mallory" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueryTimeoutError);
    expect(sandbox.running()).toEqual([]);
    expect((await sandbox.run("SELECT 1 AS ok", { limit: 1, owner: "mallory" })).rows).toEqual([[1]]);
  });

  it("leaves another caller a session while one holds its share", async () => {
    const hostile = [1, 2].map(() => sandbox.run(UNSTOPPABLE, { limit: 1, owner: "mallory" }).catch((e: unknown) => e));
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Alice's query answers beside Mallory's two (how soon: `npm run bench -- --only hostile`).
    const small = await sandbox.run("SELECT 2 AS ok", { limit: 1, owner: "alice" });
    expect(small.rows).toEqual([[2]]);
    for (const outcome of await Promise.all(hostile)) expect(outcome).toBeInstanceOf(QueryTimeoutError);
  });
});

describe("a result larger than it looks", () => {
  it("is cut by its JSON bytes, marked truncated, and the engine stops", async () => {
    // 100 rows of 100,000 control characters: 10 MB of data, 60 MB as JSON.
    const result = await sandbox.run("SELECT repeat(char(1), 100000) AS s FROM numbers(100)", { limit: 100 });
    expect(result.truncated).toBe(true);
    expect(result.row_count).toBeGreaterThan(0);
    expect(JSON.stringify(result.rows).length).toBeLessThanOrEqual(1024 * 1024);
    expect(sandbox.running()).toEqual([]);
  });

  it("counts the column names when the rows go out as objects", async () => {
    const sql = "SELECT number AS a_rather_long_column_name_repeated_on_every_row FROM numbers(100000)";
    const asArrays = await sandbox.run(sql, { limit: 100_000 });
    const asObjects = await sandbox.runJson(sql, { limit: 100_000, isKeyed: true });
    expect(asObjects.truncated).toBe(true);
    expect(asObjects.row_count).toBeLessThan(asArrays.row_count);
  });
});

describe("a download whose reader stops reading", () => {
  it("is cut after the idle deadline, and its session is free again", async () => {
    const download = await sandbox.stream("SELECT number, repeat('x', 1000) FROM numbers(10000000)", {
      format: "csv",
      maxRows: 1_000_000,
      owner: "slow-reader",
    });
    const reader = download.stream[Symbol.asyncIterator]();
    await reader.next();
    // … and then nothing is read.
    const outcome = await download.finished;
    expect(outcome.error).toBeInstanceOf(DownloadStalledError);
    expect(sandbox.running(), JSON.stringify(sandbox.running())).toEqual([]);
    expect((await sandbox.run("SELECT 3 AS ok", { limit: 1, owner: "slow-reader" })).rows).toEqual([[3]]);
  });
});

describe("a download cut by the time limit", () => {
  it("ends in an error the reader sees, never as a file that looks whole (issue 23, finding 5)", async () => {
    const download = await sandbox.stream("SELECT number, repeat('x', 200) AS pad FROM numbers(1000000)", {
      format: "csv",
      maxRows: 1_000_000,
      owner: "slow",
    });
    let bytes = 0;
    const failure = await (async () => {
      try {
        // A reader slow enough to outlast the limit, quick enough to pass the idle deadline.
        for await (const chunk of download.stream) {
          bytes += (chunk as Buffer).length;
          await new Promise((resolve) => setTimeout(resolve, 300));
        }
        return undefined;
      } catch (error) {
        return error;
      }
    })();
    expect(failure).toBeInstanceOf(QueryTimeoutError);
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThan(1_000_000 * 200);
    const { error } = await download.finished;
    expect(error).toBeInstanceOf(QueryTimeoutError);
  }, 20_000);
});

describe("CSV downloads", () => {
  it("defuse cells a spreadsheet would run, and JSON stays exact", async () => {
    const sql = "SELECT '=HYPERLINK(\"http://x\")' AS f, -5 AS n, '@SUM(1)' AS a, 'ok' AS s";
    const csv = await sandbox.stream(sql, { format: "csv", maxRows: 10 });
    let text = "";
    for await (const chunk of csv.stream) text += chunk.toString();
    expect(text).toBe('"f","n","a","s"\n"\'=HYPERLINK(""http://x"")",-5,"\'@SUM(1)","ok"\n');
    const json = await sandbox.stream(sql, { format: "json", maxRows: 10 });
    let body = "";
    for await (const chunk of json.stream) body += chunk.toString();
    expect(JSON.parse(body)).toEqual([{ f: '=HYPERLINK("http://x")', n: -5, a: "@SUM(1)", s: "ok" }]);
  });
});
