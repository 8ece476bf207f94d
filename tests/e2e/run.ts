/**
 * `npm run test:e2e`: makes sure a browser is there, builds the SPA, then runs the
 * end-to-end tier. Playwright cannot download its own browser here, so the tier drives
 * Debian's chromium; as root it is installed with apt-get when missing.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { CHROMIUM_PATH } from "./browser";

function ensureChromium(): void {
  if (existsSync(CHROMIUM_PATH)) return;
  if (process.getuid?.() !== 0) {
    console.error(`e2e: ${CHROMIUM_PATH} is missing; install it with: sudo apt-get install -y chromium`);
    process.exit(1);
  }
  console.log("e2e: chromium is missing; installing it with apt-get");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "inherit", env });
}

ensureChromium();
const build = spawnSync("npm", ["run", "build", "--silent"], { stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);
const run = spawnSync("npx", ["vitest", "run", "--project", "e2e", ...process.argv.slice(2)], { stdio: "inherit" });
process.exit(run.status ?? 1);
