/**
 * Fault suite (issue 8 item 5): `kill -9` of the real server in the middle of a stream of
 * concurrent saved-query and API-key writes, then a restart on the same stores. Every
 * write the server acknowledged with a 2xx before it died must be there afterwards, whole
 * (the saved query's text, the key still authenticates), and the stores must open
 * cleanly — on embedded PGlite and on a real PostgreSQL (a fresh database of its own).
 */
import { rmSync } from "node:fs";
import { appDatabaseTargets } from "@epicenter/db/testing";
import { afterAll, describe, expect, it } from "vitest";
import {
  call,
  killAllServers,
  type ServerProcess,
  signInOverHttp,
  startServerProcess,
  tempDataDir,
  waitFor,
} from "./server-process";

const ADMIN = "writer@faults.test";
const WORKERS = 16;
/** Acknowledged writes to wait for before the kill; the rest are in flight or not sent. */
const ACKED_BEFORE_KILL = 60;

afterAll(async () => {
  await killAllServers();
});

interface Acked {
  queries: Map<string, { title: string; sql: string }>;
  keys: Map<string, string>;
}

describe.each(await appDatabaseTargets())("kill -9 during saved-query and key writes ($name)", (target) => {
  it(`loses no acknowledged write, and the stores open cleanly on restart (${target.name})`, async () => {
    const store = await target.create();
    const dataDir = tempDataDir(`writes-${target.name}`);
    const env: Record<string, string> = { ADMIN_EMAILS: ADMIN, ...(store.url ? { DATABASE_URL: store.url } : {}) };
    let server: ServerProcess | undefined;
    try {
      server = await startServerProcess({ dataDir, env });
      const session = await signInOverHttp(server, ADMIN);
      const as = { bearer: session.access_token };
      const acked: Acked = { queries: new Map(), keys: new Map() };
      let sent = 0;
      let settled = 0;
      let stop = false;
      const running = server;

      const worker = async () => {
        while (!stop) {
          const n = sent;
          sent += 1;
          try {
            if (n % 2 === 0) {
              const body = { title: `fault ${n}`, sql: `SELECT ${n} AS n -- written under fire` };
              const response = await call(running, "/api/queries", { body, as });
              if (response.status === 201) acked.queries.set((response.body as { id: string }).id, body);
            } else {
              const response = await call(running, "/api/keys/create", {
                body: { name: `fault key ${n}`, user_id: session.user.id },
                as,
              });
              if (response.status === 201) {
                const key = response.body as { id: string; key: string };
                acked.keys.set(key.id, key.key);
              }
            }
          } catch {
            // The server died under this request: it was never acknowledged.
            stop = true;
          } finally {
            settled += 1;
          }
        }
      };
      const workers = Array.from({ length: WORKERS }, worker);
      await waitFor(() => acked.queries.size + acked.keys.size >= ACKED_BEFORE_KILL, {
        timeoutMs: 60_000,
        intervalMs: 5,
        what: "acknowledged writes",
      });
      const inFlightAtKill = sent - settled;
      await server.kill9();
      stop = true;
      await Promise.all(workers);
      // The kill really did land in the middle of writes.
      expect(inFlightAtKill).toBeGreaterThan(0);
      expect(acked.queries.size).toBeGreaterThan(0);
      expect(acked.keys.size).toBeGreaterThan(0);

      // Restart on the same stores: they open (PGlite recovers its WAL; PostgreSQL never noticed).
      server = await startServerProcess({ dataDir, env });
      expect((await call(server, "/health")).body).toMatchObject({ status: "healthy", catalog_connected: true });

      const queries = await call(server, "/api/queries", { as });
      expect(queries.status).toBe(200);
      const found = new Map(
        (queries.body as { queries: { id: string; title: string; sql: string }[] }).queries.map((q) => [q.id, q]),
      );
      for (const [id, body] of acked.queries) expect(found.get(id)).toMatchObject(body);

      const keys = await call(server, "/api/keys/list", { as });
      expect(keys.status).toBe(200);
      const keyIds = new Set((keys.body as { keys: { id: string }[] }).keys.map((key) => key.id));
      for (const id of acked.keys.keys()) expect(keyIds.has(id)).toBe(true);
      // Every acknowledged key still authenticates (its hash was committed with it).
      for (const secret of acked.keys.values()) {
        const asKey = await call(server, "/api/queries", { as: { apiKey: secret } });
        expect(asKey.status).toBe(200);
      }

      // And the store takes new writes.
      const next = await call(server, "/api/queries", { body: { title: "after restart", sql: "SELECT 1" }, as });
      expect(next.status).toBe(201);
      expect((await server.stop()).code).toBe(0);
    } finally {
      await server?.kill9();
      await store.cleanup();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
