/**
 * Integration-test harness: a real embedded warehouse in a fresh temp dir, migrated, plus
 * the replay server on an ephemeral loopback port, and sync deps pointing at it with
 * fast retry timings.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrateWarehouse, openWarehouse, type Warehouse } from "@epicenter/warehouse";
import { seedWarehouse } from "@epicenter/warehouse/testing";
import { silentLogger } from "../logger";
import { type ReplayServer, type ReplayServerOptions, replayIngestConfig, startReplayServer } from "../replay/server";
import type { SyncDeps } from "../sync/run-sync";

export interface Harness {
  dir: string;
  path: string;
  warehouse: Warehouse;
  replay: ReplayServer;
  deps: SyncDeps;
  reopen(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Retries without waiting, and a request timeout no loaded machine reaches: the replay
 * server answers from the same process, and beside another test file on 2 cores a 1.5 s
 * timeout was reached by ordinary answers (a step then failed for nothing). A test about
 * stalls sets its own short timeout (`STALL_HTTP`).
 */
export const FAST_HTTP = { timeoutMs: 30_000, retries: 3, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 1_000 };

/** For a test that makes the replay stall once: the stalled request gives up soon, its retry gets the whole budget back. */
export const STALL_HTTP = { ...FAST_HTTP, timeoutMs: 3_000 };

export async function startHarness(replayOptions: ReplayServerOptions = {}): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), "epicenter-ingest-"));
  const path = join(dir, "warehouse");
  seedWarehouse(path);
  const replay = await startReplayServer(replayOptions);
  const harness: Harness = {
    dir,
    path,
    replay,
    warehouse: openWarehouse({ path, poolSize: 2 }),
    deps: undefined as unknown as SyncDeps,
    async reopen() {
      await harness.warehouse.close();
      harness.warehouse = openWarehouse({ path, poolSize: 2 });
      harness.deps = { ...harness.deps, warehouse: harness.warehouse };
    },
    async close() {
      await replay.close();
      await harness.warehouse.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  harness.deps = {
    warehouse: harness.warehouse,
    logger: silentLogger,
    config: replayIngestConfig(replay),
    http: FAST_HTTP,
  };
  await migrateWarehouse(harness.warehouse);
  return harness;
}

/** Rows that share a (key, sync_timestamp) with another row; must always be 0. */
export async function duplicateRows(warehouse: Warehouse): Promise<Record<string, number>> {
  const tables = [
    ["polymarket.events", "id"],
    ["polymarket.markets", "id"],
    ["kalshi.events", "event_ticker"],
    ["kalshi.markets", "ticker"],
  ] as const;
  const result: Record<string, number> = {};
  for (const [table, key] of tables) {
    const [row] = await warehouse.query<{ n: string }>(
      `SELECT count() - uniqExact(${key}, sync_timestamp) AS n FROM ${table}`,
    );
    result[table] = Number(row?.n ?? 0);
  }
  return result;
}

export async function countRows(warehouse: Warehouse, table: string, syncTimestamp?: string): Promise<number> {
  const [row] = await warehouse.query<{ n: string }>(
    `SELECT count() AS n FROM ${table}${syncTimestamp ? " WHERE sync_timestamp = {ts:DateTime64(3, 'UTC')}" : ""}`,
    syncTimestamp ? { params: { ts: syncTimestamp } } : {},
  );
  return Number(row?.n ?? 0);
}
