/**
 * Fault suite (issue 8 item 5): `kill -9` of the real server in the middle of a sync run,
 * then a restart on the same DATA_DIR.
 *
 * The upstream is the replay server: a Polymarket catalog large enough that the run has
 * written the pages before one that stalls for good (a batch starts when the upstream has
 * been quiet for two seconds), so when
 * the server is killed the warehouse really holds a partial snapshot and a run with a
 * start marker and no outcome. After the restart, seen through the product
 * (`/api/sync/status` and `/api/query` with an API key) and then through the warehouse
 * itself once the server has stopped (chDB allows one process per data dir):
 * - the interrupted run is recorded as failed ("interrupted"), its rows are gone;
 * - the next run succeeds;
 * - no (key, sync_timestamp) appears twice, and every snapshot in the tables belongs to a
 *   successful run and is complete (its row count is what that run reported writing).
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { type ReplayServer, startReplayServer } from "@epicenter/ingest";
import { openWarehouse } from "@epicenter/warehouse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Caller,
  call,
  createApiKeyOverHttp,
  killAllServers,
  type ServerProcess,
  signInOverHttp,
  startServerProcess,
  tempDataDir,
  waitFor,
} from "./server-process";

const ADMIN = "sync@faults.test";
/**
 * ~6 pages of 500 events (~1,450 markets each); the first three are written while the fourth
 * stalls. Large enough that the kill meets a partial snapshot of several pages, small enough
 * that the run after the restart is not most of the file's time.
 */
const POLYMARKET_MARKETS = 8_000;
const PAGES_BEFORE_STALL = 3;

let bigPolymarket: ReplayServer;
let smallKalshi: ReplayServer;
let dataDir: string;
let server: ServerProcess | undefined;

beforeAll(async () => {
  // Two replays: a large Polymarket to kill mid-run, the recorded Kalshi catalog (small, quick).
  bigPolymarket = await startReplayServer({ catalogSize: POLYMARKET_MARKETS });
  smallKalshi = await startReplayServer({});
  dataDir = tempDataDir("sync");
});

afterAll(async () => {
  await server?.kill9();
  await killAllServers();
  await bigPolymarket?.close();
  await smallKalshi?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

interface SourceStatus {
  status: string;
  last_sync: string | null;
  markets_count: number;
  recent_runs: { run_id: string; success: boolean; markets_written: number }[];
}
interface SyncStatus {
  sources: { polymarket: SourceStatus; kalshi: SourceStatus };
  table_counts: Record<string, number>;
}

describe("kill -9 during a sync run", () => {
  it("leaves no duplicate or partial snapshot; the run is recorded as interrupted and the next one succeeds", async () => {
    const env = {
      ADMIN_EMAILS: ADMIN,
      POLYMARKET_API_URL: bigPolymarket.url.polymarket,
      POLYMARKET_CLOB_URL: bigPolymarket.url.polymarketClob,
      POLYMARKET_DATA_URL: bigPolymarket.url.polymarketData,
      KALSHI_API_URL: smallKalshi.url.kalshi,
      POLYMARKET_WS_URL: bigPolymarket.url.polymarketWs,
      KALSHI_WS_URL: smallKalshi.url.kalshiWs,
      // One snapshot at start-up, none during the test.
      SYNC_INTERVAL_SECONDS: "3600",
    };
    // Page PAGES_BEFORE_STALL + 1 of the first Polymarket run never completes.
    bigPolymarket.setFault({ kind: "stall", source: "polymarket", after: PAGES_BEFORE_STALL });
    server = await startServerProcess({ dataDir, env });
    const session = await signInOverHttp(server, ADMIN);
    const caller: Caller = { apiKey: (await createApiKeyOverHttp(server, session, "sync faults")).key };
    const status = async (running: ServerProcess) => {
      const answer = await call(running, "/api/sync/status", { as: caller });
      expect(answer.status).toBe(200);
      return answer.body as SyncStatus;
    };
    const count = async (running: ServerProcess, table: string) => {
      const answer = await call(running, "/api/query", {
        body: { query: `SELECT count() AS n FROM ${table}` },
        as: caller,
      });
      expect(answer.status).toBe(200);
      return Number((answer.body as { result: { data: { n: string }[] } }).result.data[0]?.n);
    };

    // A partial snapshot is on disk, the run is still going and can never finish. The
    // status counts the warehouse's rows itself; user SQL reads a snapshot of it taken
    // after each run (or once a minute old), which a run that never ends does not move on.
    const first = server;
    const stored = async () => (await status(first)).table_counts["polymarket.markets"] ?? 0;
    await waitFor(async () => (await stored()) > 0, {
      timeoutMs: 120_000,
      intervalMs: 250,
      what: "the first batch of the Polymarket run",
    });
    const before = await status(first);
    expect(before.sources.polymarket.status).toBe("syncing");
    expect(before.sources.polymarket.last_sync).toBeNull();
    const partial = await stored();
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(POLYMARKET_MARKETS);

    await server.kill9();
    server = undefined;
    bigPolymarket.setFault(null);

    // Restart on the same data: the scheduler's first run cleans up and snapshots again.
    server = await startServerProcess({ dataDir, env });
    const second = server;
    await waitFor(async () => (await status(second)).sources.polymarket.recent_runs.some((run) => run.success), {
      timeoutMs: 150_000,
      intervalMs: 500,
      what: "a successful Polymarket run after the restart",
    });
    await waitFor(async () => (await status(second)).sources.kalshi.recent_runs.some((run) => run.success), {
      timeoutMs: 60_000,
      intervalMs: 500,
      what: "a successful Kalshi run after the restart",
    });
    const after = (await status(second)).sources.polymarket;
    // Newest first: the run after the restart succeeded; the killed one reads as failed.
    expect(after.recent_runs[0]).toMatchObject({ success: true });
    const succeeded = after.recent_runs[0]?.markets_written ?? 0;
    expect(succeeded).toBeGreaterThanOrEqual(POLYMARKET_MARKETS);
    expect(after.recent_runs.filter((run) => !run.success)).toHaveLength(1);
    expect(after.last_sync).not.toBeNull();
    // Only the new run's snapshot is in the table: the killed run's rows are gone. User SQL
    // reads a snapshot of the warehouse taken after each run, a moment later.
    await waitFor(async () => (await count(second, "polymarket.markets")) === succeeded, {
      timeoutMs: 30_000,
      intervalMs: 250,
      what: "user SQL to see the new snapshot",
    });

    // Graceful stop, then the warehouse itself (one process per chDB data dir).
    expect((await second.stop()).code).toBe(0);
    server = undefined;
    const warehouse = openWarehouse({ path: join(dataDir, "warehouse"), poolSize: 1 });
    try {
      const interrupted = await warehouse.query<{ run_id: string; ts: string; success: number; error: string }>(
        `SELECT run_id, toString(sync_timestamp) AS ts, success, error FROM internal.sync_run_history FINAL
         WHERE source = 'polymarket' AND kind = 'snapshot' AND NOT success`,
      );
      expect(interrupted).toHaveLength(1);
      expect(interrupted[0]?.error).toMatch(/^interrupted/);
      const killedAt = interrupted[0]?.ts as string;
      for (const table of [
        "polymarket.markets",
        "polymarket.events",
        "polymarket.markets_latest",
        "polymarket.events_latest",
      ]) {
        const [left] = await warehouse.query<{ n: string }>(
          `SELECT count() AS n FROM ${table} WHERE sync_timestamp = {ts:DateTime64(3, 'UTC')}`,
          { params: { ts: killedAt } },
        );
        expect({ table, rows: Number(left?.n) }).toEqual({ table, rows: 0 });
      }

      // Every run has an outcome (the ones the SIGTERM cut short were closed by the stop).
      const [open] = await warehouse.query<{ n: string }>(
        "SELECT count() AS n FROM internal.sync_run_history FINAL WHERE revision = 0",
      );
      expect(Number(open?.n)).toBe(0);

      const keys = {
        "polymarket.events": ["id", "events_written", "polymarket"],
        "polymarket.markets": ["id", "markets_written", "polymarket"],
        "kalshi.events": ["event_ticker", "events_written", "kalshi"],
        "kalshi.markets": ["ticker", "markets_written", "kalshi"],
      } as const;
      for (const [table, [key, written, source]] of Object.entries(keys)) {
        const [dupes] = await warehouse.query<{ n: string }>(
          `SELECT count() - uniqExact(${key}, sync_timestamp) AS n FROM ${table}`,
        );
        expect({ table, duplicates: Number(dupes?.n) }).toEqual({ table, duplicates: 0 });
        // Each snapshot in the table belongs to a successful run and holds exactly what it wrote.
        const snapshots = await warehouse.query<{ ts: string; rows: string; success: number | null; written: string }>(
          `SELECT toString(s.ts) AS ts, s.rows AS rows, h.success AS success, h.written AS written
           FROM (SELECT sync_timestamp AS ts, count() AS rows FROM ${table} GROUP BY ts) AS s
           LEFT JOIN (
             SELECT sync_timestamp AS ts, toNullable(success) AS success, ${written} AS written
             FROM internal.sync_run_history FINAL WHERE source = '${source}'
           ) AS h ON s.ts = h.ts`,
        );
        expect(snapshots.length).toBeGreaterThan(0);
        for (const snapshot of snapshots) {
          expect({ table, ...snapshot, success: Boolean(Number(snapshot.success)) }).toEqual({
            table,
            ...snapshot,
            success: true,
            written: snapshot.rows,
          });
        }
      }
    } finally {
      await warehouse.close();
    }
  }, 300_000);
});
