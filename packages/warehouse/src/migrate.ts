/**
 * Applies the warehouse migrations that have not run yet, in version order, and records
 * each in `internal.schema_migrations`. Runs at every start-up; a migration that was cut
 * off half-way is re-run whole, which is safe because every statement is idempotent.
 */
import type { Warehouse } from "./client";
import { createDatabase, createTable, type DdlContext } from "./ddl";
import { type WarehouseMigration, warehouseMigrations } from "./migrations";
import { toDateTime64 } from "./values";

export interface MigrationReport {
  applied: Array<{ version: number; name: string }>;
  current: number;
}

export async function migrateWarehouse(
  warehouse: Warehouse,
  migrations: readonly WarehouseMigration[] = warehouseMigrations,
): Promise<MigrationReport> {
  const ctx: DdlContext = { cluster: warehouse.cluster };
  await warehouse.command(createDatabase(ctx, "internal"));
  for (const statement of createTable(ctx, {
    database: "internal",
    name: "schema_migrations",
    columns: ["version UInt32", "name String", "applied_at DateTime64(3, 'UTC')"],
    engine: { kind: "MergeTree" },
    orderBy: "version",
  })) {
    await warehouse.command(statement);
  }

  const done = new Set(
    (await warehouse.query<{ version: number }>("SELECT DISTINCT version FROM internal.schema_migrations")).map((row) =>
      Number(row.version),
    ),
  );
  const applied: MigrationReport["applied"] = [];
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (done.has(migration.version)) continue;
    for (const statement of migration.statements(ctx)) await warehouse.command(statement);
    await warehouse.insert("internal.schema_migrations", [
      { version: migration.version, name: migration.name, applied_at: toDateTime64(Date.now()) },
    ]);
    applied.push({ version: migration.version, name: migration.name });
  }
  const current = Math.max(0, ...done, ...applied.map((migration) => migration.version));
  return { applied, current };
}
