import type { DdlContext } from "../ddl";

/**
 * One forward-only step of the warehouse schema. Statements must be idempotent
 * (`IF NOT EXISTS`, `ADD COLUMN IF NOT EXISTS`): ClickHouse DDL is not transactional,
 * so a step interrupted half-way is simply run again from the top on the next start.
 */
export interface WarehouseMigration {
  version: number;
  name: string;
  statements(ctx: DdlContext): string[];
}
