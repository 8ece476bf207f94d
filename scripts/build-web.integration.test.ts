/**
 * `npm run build` under a running server (issue 24, #10): a rebuild never leaves
 * `apps/web/dist` without its index, and a build of unchanged sources is skipped.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const DIST = join(ROOT, "apps", "web", "dist");
const build = (env: Record<string, string> = {}) =>
  run("npx", ["tsx", join(ROOT, "scripts", "build-web.ts")], { cwd: ROOT, env: { ...process.env, ...env } });

describe("npm run build", () => {
  beforeAll(async () => {
    await build();
  }, 180_000);

  it("skips a build of unchanged sources and leaves dist where it was", async () => {
    const before = realpathSync(DIST);
    const { stdout } = await build();
    expect(stdout).toContain("up to date");
    expect(realpathSync(DIST)).toBe(before);
  }, 60_000);

  it("serves the index and the old build's chunks throughout a rebuild", async () => {
    const before = realpathSync(DIST);
    // What the serving build emitted itself (it may carry older builds' chunks too).
    const oldAssets = JSON.parse(readFileSync(join(DIST, ".own-assets.json"), "utf8")) as string[];
    const rebuilt = build({ EPICENTER_FORCE_BUILD: "1" });
    let isDone = false;
    void rebuilt.finally(() => {
      isDone = true;
    });
    let reads = 0;
    const failures: string[] = [];
    while (!isDone) {
      // What the server reads for a page: the index, through the dist path, every time.
      try {
        if (!readFileSync(join(DIST, "index.html"), "utf8").includes("<div id=")) failures.push("index without root");
      } catch (error) {
        failures.push(String(error));
      }
      reads += 1;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await rebuilt;
    expect(failures).toEqual([]);
    expect(reads).toBeGreaterThan(100);
    expect(realpathSync(DIST)).not.toBe(before);
    expect(readdirSync(join(DIST, "assets"))).toEqual(expect.arrayContaining(oldAssets));
  }, 180_000);
});
