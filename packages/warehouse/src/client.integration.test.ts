/**
 * The warehouse client's promise that a call's settings are its own: chDB's connection
 * applies them as `SET`s on a pooled session, which the next caller of that connection
 * would otherwise inherit (a writer's `input_format_*` under a reader, a reader's
 * `join_use_nulls` under the matcher's joins).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWarehouse, type Warehouse } from "./client";

const POOL = 3;
const dir = mkdtempSync(join(tmpdir(), "epicenter-client-"));
let warehouse: Warehouse;

beforeAll(async () => {
  warehouse = openWarehouse({ path: join(dir, "warehouse"), poolSize: POOL });
  await warehouse.command("CREATE TABLE IF NOT EXISTS default.t (id UInt32, name String) ENGINE = Memory");
});
afterAll(async () => {
  await warehouse.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What every pooled connection holds for `setting`, each asked while all are held. */
async function onEveryConnection(setting: string): Promise<string[]> {
  let arrived = 0;
  let release: () => void = () => undefined;
  const allHeld = new Promise<void>((resolve) => {
    release = resolve;
  });
  return Promise.all(
    Array.from({ length: POOL }, () =>
      warehouse.withClient(async (client) => {
        arrived += 1;
        if (arrived === POOL) release();
        await allHeld;
        const result = await client.query({
          query: `SELECT toString(getSetting('${setting}')) AS v`,
          format: "JSONEachRow",
        });
        const [row] = await result.json<{ v: string }>();
        return row?.v ?? "";
      }),
    ),
  );
}

/** Runs `work` once on every pooled connection at the same time. */
async function onEachConnection(work: () => Promise<unknown>): Promise<void> {
  await Promise.all(Array.from({ length: POOL }, work));
}

describe("a call's settings on the embedded engine's pooled connections", () => {
  it("hold for the call that sends them and are gone for the next caller", async () => {
    const defaults = await onEveryConnection("join_use_nulls");
    const during = await warehouse.query<{ v: number }>("SELECT getSetting('join_use_nulls') AS v", {
      settings: { join_use_nulls: 1 },
    });
    expect(Number(during[0]?.v)).toBe(1);
    await onEachConnection(() =>
      warehouse.query("SELECT sleep(0.05), getSetting('join_use_nulls')", { settings: { join_use_nulls: 1 } }),
    );
    expect(await onEveryConnection("join_use_nulls")).toEqual(defaults);
  });

  it("are set back after inserts, commands, raw client calls and calls that fail", async () => {
    const before = await onEveryConnection("input_format_skip_unknown_fields");
    const strict = { input_format_skip_unknown_fields: 0 as const };
    // Held where it was sent: a row with a field the table lacks is refused.
    await onEachConnection(() =>
      expect(warehouse.insert("default.t", [{ id: 1, name: "a", extra: true }], { settings: strict })).rejects.toThrow(
        /extra/i,
      ),
    );
    await onEachConnection(() => warehouse.insert("default.t", [{ id: 1, name: "a" }], { settings: strict }));
    await onEachConnection(() => warehouse.command("INSERT INTO default.t SELECT 2, 'b'", { settings: strict }));
    await onEachConnection(() =>
      warehouse.withClient(
        async (client) => {
          await client.command({ query: "SELECT 1", clickhouse_settings: strict });
        },
        { settings: strict },
      ),
    );
    await onEachConnection(() =>
      expect(warehouse.query("SELECT no_such_column FROM default.t", { settings: strict })).rejects.toThrow(),
    );
    expect(await onEveryConnection("input_format_skip_unknown_fields")).toEqual(before);
    // Gone for the next caller: the engine's default (skip them) is back on every connection.
    await onEachConnection(() => warehouse.insert("default.t", [{ id: 3, name: "c", extra: true }]));
    const [count] = await warehouse.query<{ n: string }>("SELECT count() AS n FROM default.t WHERE id = 3");
    expect(Number(count?.n)).toBe(POOL);
  });
});
