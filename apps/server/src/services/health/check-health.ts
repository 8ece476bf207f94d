/**
 * Health of the two stores. Each probe is bounded in time, so a store that hangs reads as
 * down instead of hanging the health check with it.
 */
import type { HealthResponse } from "@epicenter/contracts";
import type { AppDatabase } from "@epicenter/db";
import type { Sandbox, Warehouse } from "@epicenter/warehouse";

export interface HealthDeps {
  warehouse: Pick<Warehouse, "kind" | "ping" | "query">;
  /** Absent where no user SQL runs (the CLI's checks). */
  sandbox?: Pick<Sandbox, "isConfined">;
  config?: { unconfinedSql?: "refuse" | "allow" };
  appDatabase: Pick<AppDatabase, "ping">;
  clock: () => Date;
}

const PROBE_TIMEOUT_MS = 3_000;

export async function checkHealth(deps: HealthDeps): Promise<HealthResponse> {
  const [warehouseUp, catalogUp, schemaVersion] = await Promise.all([
    withTimeout(deps.warehouse.ping(), false),
    withTimeout(deps.appDatabase.ping(), false),
    withTimeout(readSchemaVersion(deps.warehouse), null),
  ]);
  return {
    status: warehouseUp && catalogUp ? "healthy" : "unhealthy",
    timestamp: deps.clock().toISOString(),
    catalog_connected: catalogUp,
    warehouse: {
      connected: warehouseUp,
      engine: deps.warehouse.kind === "chdb" ? "chdb" : "clickhouse",
      schema_version: schemaVersion,
    },
    ...(deps.sandbox
      ? {
          sandbox: {
            confined: deps.sandbox.isConfined,
            user_sql: deps.sandbox.isConfined || deps.config?.unconfinedSql === "allow" ? "everyone" : "admins",
          },
        }
      : {}),
  };
}

async function readSchemaVersion(warehouse: HealthDeps["warehouse"]): Promise<number | null> {
  try {
    const rows = await warehouse.query<{ version: number }>(
      "SELECT max(version) AS version FROM internal.schema_migrations",
    );
    return rows[0] ? Number(rows[0].version) : null;
  } catch {
    return null;
  }
}

function withTimeout<T>(work: Promise<T>, fallback: T): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fallback), PROBE_TIMEOUT_MS);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(fallback);
      },
    );
  });
}
