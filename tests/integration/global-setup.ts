/**
 * The integration tier's templates: one migrated warehouse and one migrated PGlite app
 * database, built once per run in a child process (chDB binds a process to its data
 * path; this one runs Vitest) and copied by every file that needs stores
 * (`seedWarehouse`, `seedAppDatabase`). Their folder is handed to the test processes in
 * `EPICENTER_TEST_TEMPLATES`, and removed after the run.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { TEST_TEMPLATES_ENV } from "@epicenter/warehouse/testing";

export default function setup(): (() => void) | undefined {
  // Both integration projects name this setup; the second finds the first's templates.
  if (process.env[TEST_TEMPLATES_ENV]) return undefined;
  const root = mkdtempSync(join(tmpdir(), "epicenter-templates-"));
  const built = spawnSync(
    process.execPath,
    ["--import", "tsx", fileURLToPath(new URL("./build-templates.ts", import.meta.url)), root],
    {
      stdio: ["ignore", "inherit", "inherit"],
    },
  );
  if (built.status !== 0) throw new Error(`the test templates could not be built (exit ${built.status})`);
  process.env[TEST_TEMPLATES_ENV] = root;
  return () => rmSync(root, { recursive: true, force: true });
}
