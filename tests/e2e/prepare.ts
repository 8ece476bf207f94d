/**
 * `npm test`'s preparation of the browser tier, run beside the integration tier's serial
 * files (one at a time, so a core is free): builds the SPA (`npm run build`, which the e2e
 * runner then finds up to date) and seeds the archive into `EPICENTER_E2E_ARCHIVE`, which
 * the e2e global setup takes over.
 */
import { spawnSync } from "node:child_process";
import { startReplayServer } from "@epicenter/ingest";
import { seedArchive } from "./archive";
import { E2E_ARCHIVE_ENV } from "./prepared";

const dataDir = process.env[E2E_ARCHIVE_ENV];
if (!dataDir) {
  console.error(`e2e prepare: set ${E2E_ARCHIVE_ENV} to the folder the archive is seeded into`);
  process.exit(2);
}
const build = spawnSync("npm", ["run", "build", "--silent"], { stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);
const started = performance.now();
const replay = await startReplayServer({});
try {
  await seedArchive(dataDir, replay);
} finally {
  await replay.close();
}
console.log(`e2e prepare: archive seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
