/**
 * The engine's own vocabulary for the editor's completion (`GET /api/query/dialect`): its
 * keywords, the functions the sandbox lets a query call (in the engine's spelling: they are
 * case-sensitive) and its type families. Read once per process, as it changes only with the
 * engine; a failed read is tried again by the next caller.
 */
import type { SqlDialect } from "@epicenter/contracts";
import { isFunctionAllowed, type Sandbox, type Warehouse } from "@epicenter/warehouse";

export interface SqlDialectDeps {
  warehouse: Warehouse;
  sandbox: Pick<Sandbox, "policy">;
}

export function createSqlDialect(deps: SqlDialectDeps): () => Promise<SqlDialect> {
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
  return () => {
    dialect ??= load().catch((error: unknown) => {
      dialect = undefined;
      throw error;
    });
    return dialect;
  };
}
