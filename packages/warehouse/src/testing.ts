/**
 * Migrated template stores for the test suites. Migrating a warehouse from nothing takes
 * about a second and every integration file needs one, so the suite's global setup
 * migrates one once per run (`buildWarehouseTemplate`) and each file starts from a copy
 * (`seedWarehouse`, ~0.1 s). Without a template (one file run on its own outside Vitest)
 * the copy is skipped and the caller's `migrateWarehouse` builds the schema as before;
 * with one, that call finds nothing to apply. The migrations themselves are still tested
 * from nothing in their own files, which never seed.
 */
import { cpSync, existsSync } from "node:fs";
import { join } from "node:path";
import { openWarehouse } from "./client";
import { migrateWarehouse } from "./migrate";

export { seededRandom } from "./seeded-random";

/** The environment variable naming the folder of this run's templates (set by the global setup). */
export const TEST_TEMPLATES_ENV = "EPICENTER_TEST_TEMPLATES";

const templateOf = (name: string): string | undefined => {
  const root = process.env[TEST_TEMPLATES_ENV];
  const path = root ? join(root, name) : undefined;
  return path && existsSync(path) ? path : undefined;
};

/** Migrates an embedded warehouse at `path` from nothing and closes it: the template. */
export async function buildWarehouseTemplate(path: string): Promise<void> {
  const warehouse = openWarehouse({ path, poolSize: 1 });
  try {
    await migrateWarehouse(warehouse);
  } finally {
    await warehouse.close();
  }
}

/**
 * Copies the run's migrated warehouse template to `path` (which must not hold a warehouse
 * yet); true when there was a template to copy.
 */
export function seedWarehouse(path: string): boolean {
  const template = templateOf("warehouse");
  if (!template) return false;
  cpSync(template, path, { recursive: true });
  return true;
}
