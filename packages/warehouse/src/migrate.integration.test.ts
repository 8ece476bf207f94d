import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openWarehouse, type Warehouse } from "./client";
import { migrateWarehouse } from "./migrate";
import { warehouseMigrations } from "./migrations";
import { toDateTime64 } from "./values";

const dir = mkdtempSync(join(tmpdir(), "epicenter-wh-"));
const path = join(dir, "warehouse");
let warehouse: Warehouse | undefined;
afterAll(async () => {
  await warehouse?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("warehouse on embedded chDB", () => {
  it("creates the namespaces and snapshot tables and records each migration once", async () => {
    warehouse = openWarehouse({ path, poolSize: 2 });
    const first = await migrateWarehouse(warehouse);
    expect(first.applied.map((m) => m.version)).toEqual(warehouseMigrations.map((m) => m.version));

    const tables = await warehouse.query<{ name: string }>(
      "SELECT concat(database, '.', name) AS name FROM system.tables WHERE database IN ('polymarket', 'kalshi', 'internal') ORDER BY name",
    );
    expect(tables.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        "internal.schema_migrations",
        "internal.sync_run_history",
        "kalshi.events",
        "kalshi.markets",
        "polymarket.events",
        "polymarket.markets",
      ]),
    );

    const withRaw = await warehouse.query<{ owner: string }>(
      "SELECT concat(database, '.', table) AS owner FROM system.columns WHERE database IN ('polymarket', 'kalshi') AND name = 'raw' ORDER BY owner",
    );
    expect(withRaw.map((t) => t.owner)).toEqual([
      "kalshi.events",
      "kalshi.markets",
      "polymarket.events",
      "polymarket.markets",
    ]);

    const second = await migrateWarehouse(warehouse);
    expect(second.applied).toEqual([]);
    const recorded = await warehouse.query<{ n: string }>("SELECT count() AS n FROM internal.schema_migrations");
    expect(Number(recorded[0]?.n)).toBe(warehouseMigrations.length);
  });

  it("keeps a written row across a restart of the engine handle", async () => {
    const runId = `restart-${Date.now()}`;
    await warehouse?.insert("internal.sync_run_history", [
      {
        run_id: runId,
        source: "polymarket",
        started_at: toDateTime64(Date.now()),
        finished_at: toDateTime64(Date.now()),
        duration_ms: 12,
        events_written: 3,
        markets_written: 7,
        success: true,
        error: null,
      },
    ]);
    await warehouse?.close();

    warehouse = openWarehouse({ path, poolSize: 1 });
    expect(await warehouse.ping()).toBe(true);
    const rows = await warehouse.query<{ markets_written: string; source: string }>(
      "SELECT source, markets_written FROM internal.sync_run_history WHERE run_id = {runId:String}",
      { params: { runId } },
    );
    expect(rows).toEqual([{ source: "polymarket", markets_written: "7" }]);
  });

  it("runs queries on separate pooled connections in parallel", async () => {
    const parallel = openWarehouse({ path, poolSize: 2 });
    try {
      const started = performance.now();
      await Promise.all([parallel.query("SELECT sleep(0.5)"), parallel.query("SELECT sleep(0.5)")]);
      expect(performance.now() - started).toBeLessThan(950);
    } finally {
      await parallel.close();
    }
  });
});
