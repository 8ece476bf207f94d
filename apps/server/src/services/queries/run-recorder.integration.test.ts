/**
 * Query runs recorded write-behind, on a real PGlite and through the real stores: nothing
 * is lost on a flush or a graceful stop, and a store that fails never fails the caller.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AppDatabase, openAppDatabase, type QueryRunRecord, queryRows } from "@epicenter/db";
import { sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../config";
import { openStores } from "../../deps";
import { createQueryRunRecorder } from "./run-recorder";

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "epicenter-runs-"));
  dirs.push(dir);
  return dir;
};
let store: AppDatabase;

beforeAll(async () => {
  store = await openAppDatabase({ path: join(tempDir(), "app") });
});
afterAll(async () => {
  await store.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const run = (sqlText: string): QueryRunRecord => ({
  queryId: null,
  userId: null,
  apiKeyId: null,
  origin: "api",
  sql: sqlText,
  startedAt: new Date(),
  durationMs: 3,
  rowCount: 1,
  error: null,
});

async function countRuns(db: AppDatabase["db"], like: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM query_runs WHERE sql LIKE ${like}`,
  );
  return Number(row?.n ?? 0);
}

const quiet = { error: () => {}, warn: () => {} };

describe("write-behind query runs", () => {
  it("writes nothing until the batch is due, then every run of it", async () => {
    const recorder = createQueryRunRecorder(store.db, quiet, { flushMs: 60_000 });
    for (const n of [1, 2, 3]) recorder.record(run(`SELECT ${n} -- batch`));
    expect(await countRuns(store.db, "% -- batch")).toBe(0);
    await recorder.flush();
    expect(await countRuns(store.db, "% -- batch")).toBe(3);
  });

  it("writes early for a reader only when a run it counts is waiting", async () => {
    const recorder = createQueryRunRecorder(store.db, quiet, { flushMs: 60_000 });
    const isSaved = (queued: QueryRunRecord) => queued.queryId !== null;
    recorder.record(run("SELECT 1 -- unsaved"));
    await recorder.flush(isSaved);
    expect(await countRuns(store.db, "% -- unsaved")).toBe(0);
    const [saved] = await queryRows<{ id: string }>(
      store.db,
      sql`INSERT INTO saved_queries (title, sql) VALUES ('t', 'SELECT 2') RETURNING id`,
    );
    recorder.record({ ...run("SELECT 2 -- saved"), queryId: saved?.id ?? null });
    await recorder.flush(isSaved);
    expect(await countRuns(store.db, "% -- saved")).toBe(1);
    expect(await countRuns(store.db, "% -- unsaved")).toBe(1);
  });

  it("writes on its timer without anyone asking", async () => {
    const recorder = createQueryRunRecorder(store.db, quiet, { flushMs: 20 });
    recorder.record(run("SELECT 1 -- timer"));
    await expect.poll(() => countRuns(store.db, "% -- timer"), { timeout: 5_000, interval: 20 }).toBe(1);
  });

  it("writes a full batch at once, in batches of the given size", async () => {
    const recorder = createQueryRunRecorder(store.db, quiet, { flushMs: 60_000, maxBatch: 4 });
    for (let n = 0; n < 10; n += 1) recorder.record(run(`SELECT ${n} -- full`));
    await expect.poll(() => countRuns(store.db, "% -- full"), { timeout: 5_000, interval: 20 }).toBe(8);
    await recorder.close();
    expect(await countRuns(store.db, "% -- full")).toBe(10);
  });

  it("drops only the run the store refuses, logs it, and writes the rest of its batch", async () => {
    const errors: unknown[] = [];
    const recorder = createQueryRunRecorder(
      store.db,
      { ...quiet, error: (...args: unknown[]) => errors.push(args) },
      { flushMs: 60_000 },
    );
    recorder.record(run("SELECT 1 -- mixed"));
    // A user that does not exist (deleted meanwhile): the foreign key refuses this one run.
    recorder.record({ ...run("SELECT 2 -- mixed"), userId: "00000000-0000-4000-8000-000000000000" });
    recorder.record(run("SELECT 3 -- mixed"));
    await recorder.flush();
    expect(errors).toHaveLength(1);
    expect(await countRuns(store.db, "% -- mixed")).toBe(2);
  });

  it("keeps the runs of a graceful stop: Stores.close() flushes before the database closes", async () => {
    const config = parseConfig({ DATA_DIR: tempDir(), SYNC_INTERVAL_SECONDS: "0" });
    const stores = await openStores(config, pino({ level: "silent" }));
    for (const n of [1, 2]) stores.queryRuns.record(run(`SELECT ${n} -- shutdown`));
    await stores.close();
    const reopened = await openAppDatabase(config.appDatabase);
    try {
      expect(await countRuns(reopened.db, "% -- shutdown")).toBe(2);
    } finally {
      await reopened.close();
    }
  });
});
