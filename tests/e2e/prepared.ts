/**
 * The hand-over of an archive seeded ahead of the browser tier (`./archive.ts`), and the
 * tier's lanes: light enough for `scripts/test.ts` and the Vitest config to import
 * without loading an engine.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

/** The folder of an archive seeded ahead; the e2e global setup takes it over and removes it. */
export const E2E_ARCHIVE_ENV = "EPICENTER_E2E_ARCHIVE";
/** Written last by the seed: a folder without it holds a seed that did not finish. */
export const SEEDED_MARKER = ".seeded";

export function isSeeded(dataDir: string): boolean {
  return existsSync(join(dataDir, SEEDED_MARKER));
}

/** Lanes of the browser tier (`./server.ts`): two files at a time, each against a server of its own. */
export const E2E_LANES = 2;
