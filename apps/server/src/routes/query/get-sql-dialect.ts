import { endpoints, type SqlDialect } from "@epicenter/contracts";
import { isFunctionAllowed, type Sandbox, type Warehouse } from "@epicenter/warehouse";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env";
import { mount } from "../../http/mount";

/**
 * The engine's own vocabulary, read once per process: it changes only with the engine.
 * Functions keep the engine's spelling (they are case-sensitive) and leave out what the
 * sandbox refuses, so the editor never offers a function a query cannot use.
 */
export function getSqlDialect(
  app: Hono<AppEnv>,
  deps: { warehouse: Warehouse; sandbox: Pick<Sandbox, "policy"> },
): void {
  let dialect: Promise<SqlDialect> | undefined;
  const load = async (): Promise<SqlDialect> => {
    const [keywords, functions, types] = await Promise.all([
      deps.warehouse.query<{ keyword: string }>("SELECT keyword FROM system.keywords ORDER BY keyword"),
      deps.warehouse.query<{ name: string }>("SELECT name FROM system.functions ORDER BY name"),
      deps.warehouse.query<{ name: string }>("SELECT name FROM system.data_type_families ORDER BY name"),
    ]);
    return {
      keywords: keywords.map((row) => row.keyword),
      functions: functions
        .map((row) => row.name)
        .filter((name) => /^[A-Za-z][A-Za-z0-9_]*$/.test(name) && isFunctionAllowed(deps.sandbox.policy, name)),
      types: types.map((row) => row.name),
    };
  };
  mount(app, endpoints.sqlDialect, async ({ c }) => {
    dialect ??= load().catch((error: unknown) => {
      dialect = undefined;
      throw error;
    });
    c.header("cache-control", "private, max-age=3600");
    return dialect;
  });
}
