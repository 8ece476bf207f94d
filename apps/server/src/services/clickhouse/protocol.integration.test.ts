/**
 * The ClickHouse interface's allow-lists against the engine's own catalogue (issue 23):
 * every output format it serves and every setting it accepts is one the engine has, so
 * the lists name real things and an upgrade that drops one fails here.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openWarehouse, type Warehouse } from "@epicenter/warehouse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCEPTED_SETTINGS, OUTPUT_FORMATS } from "./protocol";

const dir = mkdtempSync(join(tmpdir(), "epicenter-protocol-"));
let warehouse: Warehouse;

beforeAll(() => {
  warehouse = openWarehouse({ path: join(dir, "warehouse"), poolSize: 1 });
});
afterAll(async () => {
  await warehouse?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the ClickHouse interface's lists", () => {
  it("serve only output formats the engine writes", async () => {
    const rows = await warehouse.query<{ name: string }>("SELECT name FROM system.formats WHERE is_output");
    const engine = new Set(rows.map((row) => row.name));
    expect(Object.keys(OUTPUT_FORMATS).filter((format) => !engine.has(format))).toEqual([]);
  });

  it("accept only settings the engine has", async () => {
    const rows = await warehouse.query<{ name: string }>("SELECT name FROM system.settings");
    const engine = new Set(rows.map((row) => row.name));
    expect(Object.keys(ACCEPTED_SETTINGS).filter((setting) => !engine.has(setting))).toEqual([]);
  });
});
