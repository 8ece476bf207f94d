/**
 * The engine's own catalogue against `engine-functions.ts`: every function, table function
 * and aggregate combinator of the running build is classified, so one that an upgrade
 * adds fails here (and is refused by the allow-list meanwhile) instead of passing unseen.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWarehouse, type Warehouse } from "../client";
import { DENIED_CATEGORIES } from "./allow-list";
import { ENGINE_FUNCTIONS } from "./engine-functions";
import { FUNCTION_CLASSES, functionClass } from "./function-classes";

const dir = mkdtempSync(join(tmpdir(), "epicenter-functions-"));
let warehouse: Warehouse;

beforeAll(() => {
  warehouse = openWarehouse({ path: join(dir, "warehouse"), poolSize: 1 });
});
afterAll(async () => {
  await warehouse?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("every function of the engine is classified", () => {
  it("plain and aggregate functions, with their aliases", async () => {
    const functions = await warehouse.query<{ name: string; alias_to: string; categories: string }>(
      "SELECT name, alias_to, categories FROM system.functions",
    );
    expect(functions.length).toBeGreaterThan(1_000);
    const unclassified = functions.filter((fn) => !FUNCTION_CLASSES.has(fn.name.toLowerCase())).map((fn) => fn.name);
    expect(unclassified, "classify these in engine-functions.ts (see function-classes.ts)").toEqual([]);
  });

  it("denies every function of a denied category, and every alias as its target", async () => {
    const functions = await warehouse.query<{ name: string; alias_to: string; categories: string }>(
      "SELECT name, alias_to, categories FROM system.functions",
    );
    const allowedDespite = new Set(["casewithexpression", "_cast"]);
    for (const fn of functions) {
      const categories = fn.categories.split(",").map((category) => category.trim());
      if (
        categories.some((category) => DENIED_CATEGORIES.includes(category)) &&
        !allowedDespite.has(fn.name.toLowerCase())
      ) {
        expect(functionClass(fn.name), fn.name).toBe("denied");
      }
      if (fn.alias_to !== "") {
        expect(functionClass(fn.name) === "denied", `${fn.name} → ${fn.alias_to}`).toBe(
          functionClass(fn.alias_to) === "denied",
        );
      }
    }
  });

  it("table functions and aggregate combinators", async () => {
    const tableFunctions = await warehouse.query<{ name: string }>("SELECT name FROM system.table_functions");
    const listed = new Set<string>([
      ...ENGINE_FUNCTIONS.tableFunctions.allowed,
      ...ENGINE_FUNCTIONS.tableFunctions.denied,
    ]);
    expect(tableFunctions.map((row) => row.name).filter((name) => !listed.has(name))).toEqual([]);
    const combinators = await warehouse.query<{ name: string }>(
      "SELECT name FROM system.aggregate_function_combinators",
    );
    expect(combinators.map((row) => row.name).sort()).toEqual([...ENGINE_FUNCTIONS.combinators].sort());
  });

  it("says which engine build the list was read from", async () => {
    const [row] = await warehouse.query<{ version: string }>("SELECT version() AS version");
    expect(row?.version).toBe(ENGINE_FUNCTIONS.engine);
  });
});
