/**
 * Fault suite (issue 8 item 5), on one real server over embedded stores:
 * - a query that exhausts its memory limit (the sandbox's default 2 GiB) fails alone, with
 *   a 400 that says so, while small queries beside it keep succeeding and the server
 *   stays healthy;
 * - a second server started on the same DATA_DIR refuses to start with one line naming
 *   the embedded warehouse and exit 1, and the first one is not disturbed.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Caller,
  call,
  createApiKeyOverHttp,
  killAllServers,
  lastLine,
  runUntilExit,
  type ServerProcess,
  signInOverHttp,
  startServerProcess,
  tempDataDir,
} from "./server-process";

const ADMIN = "ops@faults.test";
let server: ServerProcess;
let caller: Caller;

beforeAll(async () => {
  server = await startServerProcess({ dataDir: tempDataDir("embedded"), env: { ADMIN_EMAILS: ADMIN } });
  const session = await signInOverHttp(server, ADMIN);
  caller = { apiKey: (await createApiKeyOverHttp(server, session, "faults")).key };
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await killAllServers();
  if (server) rmSync(server.dataDir, { recursive: true, force: true });
});

const query = (sql: string) => call(server, "/api/query", { body: { query: sql, limit: 10 }, as: caller });

describe("a query that exhausts its memory limit", () => {
  it("fails alone with a clear 400 while concurrent small queries succeed and /health stays 200", async () => {
    // ~8 GB of UInt64 if it could finish: it crosses the 2 GiB limit within a second or two.
    const hungry = query("SELECT length(groupArray(number)) AS n FROM numbers(1000000000)");
    let done = false;
    void hungry.finally(() => {
      done = true;
    });
    const small: number[] = [];
    const healths: number[] = [];
    // Small queries and health checks beside it, for as long as it runs (at least a few).
    while (!done || small.length < 5) {
      const [answer, health] = await Promise.all([
        query("SELECT count() AS n FROM numbers(1000)"),
        call(server, "/health"),
      ]);
      small.push(answer.status);
      healths.push(health.status);
      if (answer.status === 200)
        expect(answer.body).toMatchObject({ success: true, result: { data: [{ n: "1000" }] } });
    }
    const failed = await hungry;
    expect(failed.status).toBe(400);
    expect(failed.body).toMatchObject({
      error: { code: "query_too_large", message: expect.stringMatching(/more than the 2 GiB memory limit/) },
    });
    expect(small.every((status) => status === 200)).toBe(true);
    expect(healths.every((status) => status === 200)).toBe(true);

    // Afterwards the pool's connections are all usable again.
    const after = await Promise.all([query("SELECT 1 AS one"), query("SELECT 2 AS two"), query("SELECT 3 AS three")]);
    expect(after.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect((await call(server, "/health")).status).toBe(200);
  });
});

describe("a DATA_DIR already held by a running server", () => {
  it("makes a second server exit 1 with one line naming the embedded warehouse; the first keeps serving", async () => {
    const second = await runUntilExit({ dataDir: server.dataDir });
    expect(second.code).toBe(1);
    // chDB prints its own "Cannot lock file …" line first; the process's verdict is the last line.
    expect(lastLine(second.stderr)).toMatch(
      /^The embedded warehouse at \S+\/warehouse cannot be opened; if another Epicenter process uses this DATA_DIR, stop it first/,
    );
    expect(lastLine(second.stderr)).toContain(server.dataDir);
    const health = await call(server, "/health");
    expect(health).toMatchObject({ status: 200, body: { status: "healthy" } });
    expect((await query("SELECT 1 AS one")).status).toBe(200);
  });
});
