/**
 * A refresh of the embedded sandbox (issue 24, #9): user SQL goes on running on the old
 * snapshot while the new one's workers start, and no refresh leaves its snapshot behind.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWarehouse, type Warehouse } from "../../client";
import { migrateWarehouse } from "../../migrate";
import { MARKET_DATABASES } from "../allow-list";
import { sandboxSettings } from "../sandbox";
import { chooseConfinement } from "./confinement";
import { SNAPSHOT_PREFIX } from "./snapshot";
import { WorkerPool } from "./worker-pool";

const dir = mkdtempSync(join(tmpdir(), "epicenter-refresh-"));
chmodSync(dir, 0o711);
const path = join(dir, "warehouse");
let warehouse: Warehouse;
let pool: WorkerPool;

const market = (id: string) => ({ sync_timestamp: "2026-01-01 00:00:00.000", id });

beforeAll(async () => {
  warehouse = openWarehouse({ path, poolSize: 2 });
  await migrateWarehouse(warehouse);
  await warehouse.insert("polymarket.markets", [market("a")]);
  pool = await WorkerPool.open({
    warehouse,
    warehousePath: path,
    workDirectory: join(dir, "sandbox"),
    databases: MARKET_DATABASES,
    settings: sandboxSettings({ maxExecutionSeconds: 5 }) as Record<string, string | number>,
    size: 2,
    perOwner: 2,
    maxServerMemoryBytes: 1024 ** 3,
    // As the server runs it: writes between refreshes reach queries after a minute.
    maxStalenessMs: 60_000,
    confinement: await chooseConfinement("auto"),
    log: () => {},
  });
});

afterAll(async () => {
  await pool?.close();
  await warehouse?.close();
  rmSync(dir, { recursive: true, force: true });
});

const count = () =>
  pool
    .lease("test", (session) => session.queryText("SELECT count() FROM polymarket.markets"))
    .then((text) => text.trim());

describe("a refresh of the sandbox", () => {
  const snapshots = () => readdirSync(join(path, "shadow")).filter((name) => name.startsWith(SNAPSHOT_PREFIX));
  const timed = async () => {
    const started = performance.now();
    await count();
    return performance.now() - started;
  };
  const p95 = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length * 0.95)] ?? 0;

  it("keeps serving from the old snapshot until the new one's workers have started", async () => {
    const outside: number[] = [];
    for (let index = 0; index < 40; index++) outside.push(await timed());
    await warehouse.insert("polymarket.markets", [market("b")]);
    const refreshed = pool.refresh();
    let isDone = false;
    void refreshed.finally(() => {
      isDone = true;
    });
    // Queries one after another over the whole switch, and what each saw.
    const during: number[] = [];
    const seen: string[] = [];
    while (!isDone) {
      const started = performance.now();
      seen.push(await count());
      during.push(performance.now() - started);
    }
    await refreshed;
    seen.push(await count());
    // The figure, not a bound: a loaded machine moves it (issue 45). Before issue 24, #9 the
    // first query after the switch waited for a worker to start: 556 ms on an empty warehouse.
    console.log(
      `small query p95 outside a refresh ${p95(outside).toFixed(1)} ms, during one ${p95(during).toFixed(1)} ms ` +
        `(${during.length} queries, slowest ${Math.max(...during).toFixed(0)} ms)`,
    );
    // Every query asked while the new workers started was answered from the old snapshot,
    // then every one after the switch from the new, never the old one again.
    const switched = seen.indexOf("2");
    expect(switched).toBeGreaterThan(1);
    expect(seen.slice(0, switched).every((value) => value === "1")).toBe(true);
    expect(seen.slice(switched).every((value) => value === "2")).toBe(true);
  });

  it("leaves one snapshot behind two refreshes 200 ms apart, and sees the writes of both", async () => {
    await warehouse.insert("polymarket.markets", [market("c")]);
    const first = pool.refresh();
    await new Promise((resolve) => setTimeout(resolve, 200));
    await warehouse.insert("polymarket.markets", [market("d")]);
    const second = pool.refresh();
    await Promise.all([first, second]);
    expect(await count()).toBe("4");
    // The first snapshot goes once its workers have ended.
    await expect.poll(snapshots, { timeout: 10_000 }).toHaveLength(1);
  });

  it("skips a refresh when nothing was written", async () => {
    const before = snapshots();
    await pool.refresh();
    await pool.refresh();
    expect(snapshots()).toEqual(before);
  });

  it("closes during a refresh leaving no snapshot behind, the serving one's or the new one's", async () => {
    await warehouse.insert("polymarket.markets", [market("e")]);
    const refreshed = pool.refresh().catch(() => undefined);
    await pool.close();
    await refreshed;
    expect(snapshots()).toEqual([]);
  });
});

describe("a sandbox where every write is visible at once", () => {
  it("answers a query asked during a refresh from the refresh's snapshot, not the one serving", async () => {
    const fresh = await WorkerPool.open({
      warehouse,
      warehousePath: path,
      workDirectory: join(dir, "sandbox-fresh"),
      databases: MARKET_DATABASES,
      settings: sandboxSettings({ maxExecutionSeconds: 5 }) as Record<string, string | number>,
      size: 1,
      perOwner: 1,
      maxServerMemoryBytes: 1024 ** 3,
      maxStalenessMs: 0,
      confinement: await chooseConfinement("auto"),
      log: () => {},
    });
    try {
      const rows = () =>
        fresh.lease("test", (session) => session.queryText("SELECT count() FROM polymarket.markets")).then(Number);
      // As the server does after an admin's decision: a write, a refresh asked for and not
      // waited on, then a query, at moments across the refresh (its snapshot, its workers' start).
      for (const [index, delayMs] of [0, 20, 50, 100, 200, 300, 450].entries()) {
        const before = await rows();
        await warehouse.insert("polymarket.markets", [market(`f${index}`)]);
        const refreshed = fresh.refresh();
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        expect(await rows(), `a query ${delayMs} ms into the refresh`).toBe(before + 1);
        await refreshed;
      }
    } finally {
      await fresh.close();
    }
  });
});
