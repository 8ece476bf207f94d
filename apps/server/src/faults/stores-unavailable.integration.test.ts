/**
 * Fault suite (issue 8 item 5): a store that is not there.
 * - At start-up the real server prints one line naming the store and why, and exits 1.
 * - At run time, `/health` turns 503 with the failing store false while the process
 *   stays up, and says healthy again only when the store can serve the app again.
 */
import { rmSync } from "node:fs";
import { createServer } from "node:net";
import { appDatabaseTargets } from "@epicenter/db/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  call,
  killAllServers,
  lastLine,
  runUntilExit,
  type ServerProcess,
  signInOverHttp,
  startServerProcess,
  tempDataDir,
  waitFor,
} from "./server-process";

const dirs: string[] = [];
function dataDir(label: string): string {
  const dir = tempDataDir(label);
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  await killAllServers();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

describe("a store unavailable at start-up", () => {
  it("the warehouse: CLICKHOUSE_URL at a closed port → one line naming ClickHouse, exit 1", async () => {
    const port = await closedPort();
    const result = await runUntilExit({
      dataDir: dataDir("ch-down"),
      env: { CLICKHOUSE_URL: `http://default:hunter2@127.0.0.1:${port}` },
    });
    expect(result.code).toBe(1);
    // The client library logs its own multi-line trace first; the process's verdict is its last line.
    expect(lastLine(result.stderr)).toMatch(
      new RegExp(
        `^The warehouse \\(ClickHouse at http://default:\\*\\*\\*@127\\.0\\.0\\.1:${port}/\\) is not available: .*ECONNREFUSED`,
      ),
    );
    expect(result.stderr + result.stdout).not.toContain("hunter2");
  });

  it("the app database: DATABASE_URL at a closed port → one line naming PostgreSQL and the reason, exit 1", async () => {
    const port = await closedPort();
    const result = await runUntilExit({
      dataDir: dataDir("pg-down"),
      env: { DATABASE_URL: `postgres://epicenter:hunter2@127.0.0.1:${port}/x` },
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(lastLine(result.stderr)).toMatch(
      new RegExp(
        `^The app database \\(PostgreSQL at postgres://epicenter:\\*\\*\\*@127\\.0\\.0\\.1:${port}/x\\) is not available: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}$`,
      ),
    );
    expect(result.stderr + result.stdout).not.toContain("hunter2");
  });
});

describe("/health when the PostgreSQL app database goes away at run time", async () => {
  const postgres = (await appDatabaseTargets()).find((target) => target.name === "postgres");
  let server: ServerProcess;
  let database: { url?: string; cleanup(): Promise<void> } | undefined;
  let admin: pg.Client;
  let name: string;

  beforeAll(async () => {
    if (!postgres) return;
    database = await postgres.create();
    const url = new URL(database.url as string);
    name = url.pathname.slice(1);
    // Any other database on the same server to run DROP/CREATE from.
    url.pathname = "/postgres";
    admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    server = await startServerProcess({
      dataDir: dataDir("health"),
      env: { DATABASE_URL: database.url as string, ADMIN_EMAILS: "ops@faults.test" },
    });
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await admin?.end();
    await database?.cleanup();
  });

  const health = async () => {
    const response = await call(server, "/health");
    return response as {
      status: number;
      body: { status: string; catalog_connected: boolean; warehouse: { connected: boolean } };
    };
  };

  it.runIf(postgres)("recovers by itself when its connections are cut (pg_terminate_backend)", async () => {
    const session = await signInOverHttp(server, "ops@faults.test");
    expect((await health()).status).toBe(200);
    const cut = await admin.query(
      "SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
      [name],
    );
    expect(cut.rowCount).toBeGreaterThan(0);
    // The pool drops the dead clients and opens new ones: the server is healthy again and
    // serves signed-in requests, without a restart.
    await waitFor(async () => (await health()).status === 200, { timeoutMs: 30_000, what: "health after the cut" });
    const listed = await call(server, "/api/queries", { as: { bearer: session.access_token } });
    expect(listed.status).toBe(200);
  });

  it.runIf(postgres)("turns 503 with catalog_connected false when the database is dropped, and stays so", async () => {
    await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
    await waitFor(async () => (await health()).status === 503, { timeoutMs: 30_000, what: "health 503" });
    const down = await health();
    expect(down.body).toMatchObject({ status: "unhealthy", catalog_connected: false, warehouse: { connected: true } });
    // It stays unhealthy (every connection attempt is refused: the database does not exist)…
    for (let i = 0; i < 5; i += 1) expect((await health()).status).toBe(503);
    // …the process does not crash, and an API call that needs the store fails cleanly.
    const signIn = await call(server, "/api/auth/magic-link", { body: { email: "ops@faults.test" } });
    expect(signIn.status).toBeGreaterThanOrEqual(500);
    expect(signIn.body).toMatchObject({ error: { code: expect.any(String) } });
    expect(server.output()).not.toMatch(/uncaught|unhandled rejection/i);

    // An empty database of the same name is not the app database: the schema the app
    // needs is gone, so health must not say healthy (only a restart, which migrates, can).
    await admin.query(`CREATE DATABASE ${name}`);
    for (let i = 0; i < 5; i += 1) {
      const after = await health();
      expect(after.status).toBe(503);
      expect(after.body.catalog_connected).toBe(false);
    }
    // A restart migrates the new database and is healthy again.
    expect((await server.stop()).code).toBe(0);
    server = await startServerProcess({
      dataDir: server.dataDir,
      env: { DATABASE_URL: database?.url as string, ADMIN_EMAILS: "ops@faults.test" },
    });
    expect((await health()).body).toMatchObject({ status: "healthy", catalog_connected: true });
  });
});
