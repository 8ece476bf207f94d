/**
 * What a process killed mid-snapshot leaves behind must not keep the sandbox from opening
 * again: seen in the kill -9 fault test, where the engine's FREEZE counter was left empty.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWarehouse, type Warehouse } from "../../client";
import { migrateWarehouse } from "../../migrate";
import { MARKET_DATABASES } from "../allow-list";
import { dropSnapshot, dropStaleSnapshots, SNAPSHOT_PREFIX, takeSnapshot } from "./snapshot";

const dir = mkdtempSync(join(tmpdir(), "epicenter-snapshot-"));
const path = join(dir, "warehouse");
let warehouse: Warehouse;

beforeAll(async () => {
  warehouse = openWarehouse({ path, poolSize: 1 });
  await migrateWarehouse(warehouse);
  await warehouse.insert("polymarket.markets", [{ sync_timestamp: "2026-01-01 00:00:00.000", id: "a" }]);
});

afterAll(async () => {
  await warehouse?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("snapshots after a stop that was not clean", () => {
  it("mends an emptied FREEZE counter and drops the snapshot left behind, so the next one is taken", async () => {
    const left = await takeSnapshot(warehouse, path, MARKET_DATABASES);
    // A kill between the engine's truncating its counter and writing it.
    writeFileSync(join(path, "shadow", "increment.txt"), "");
    await expect(takeSnapshot(warehouse, path, MARKET_DATABASES)).rejects.toThrow(/increment\.txt is empty/);

    await dropStaleSnapshots(path);
    expect(readdirSync(join(path, "shadow")).filter((name) => name.startsWith(SNAPSHOT_PREFIX))).toEqual([]);
    const next = await takeSnapshot(warehouse, path, MARKET_DATABASES);
    expect(next.tables.some((table) => table.database === "polymarket" && table.name === "markets")).toBe(true);
    expect(next.name).not.toBe(left.name);
    await dropSnapshot(next);
  });
});
