/**
 * `npm run build` (and so `npm start`, `npm run demo`): builds the SPA without pulling it
 * from under a server that is serving it (issue 24, #10).
 *
 * - A build whose sources have not changed is skipped: the stamp is a hash of what the
 *   SPA is built from (its sources, the contracts it imports, the lockfile).
 *   `EPICENTER_FORCE_BUILD=1` builds all the same.
 * - Otherwise Vite builds into a new folder, `apps/web/builds/<stamp>-<time>/`, and the symlink
 *   `apps/web/dist` is moved onto it in one `rename`, so a running server reads the old
 *   build or the new one, never a half-written or missing one. The previous build's own
 *   assets are copied in beside the new ones, so a page loaded before the swap can still
 *   load its lazy chunks; builds older than that are removed.
 * - One build at a time (`apps/web/builds/.lock`): a second `npm start` or the e2e runner
 *   waits for the first, then finds the SPA up to date.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  closeSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const WEB = join(ROOT, "apps", "web");
const DIST = join(WEB, "dist");
const BUILDS = join(WEB, "builds");
/** The files a build lists as its own, so the next one copies only those forward. */
const OWN_ASSETS = ".own-assets.json";
const SOURCES = [
  join(WEB, "src"),
  join(WEB, "public"),
  join(WEB, "index.html"),
  join(WEB, "vite.config.ts"),
  join(WEB, "package.json"),
  join(WEB, "tsconfig.json"),
  join(ROOT, "packages", "contracts", "src"),
  join(ROOT, "package-lock.json"),
];

function stampOf(paths: readonly string[]): string {
  const hash = createHash("sha256");
  const add = (path: string) => {
    if (!existsSync(path)) return;
    if (lstatSync(path).isDirectory()) {
      for (const entry of readdirSync(path).sort()) add(join(path, entry));
      return;
    }
    hash.update(relative(ROOT, path)).update("\0").update(readFileSync(path)).update("\0");
  };
  for (const path of paths) add(path);
  return hash.digest("hex").slice(0, 16);
}

/** The build `dist` points at now, or undefined (none yet, or a plain folder of an older checkout). */
function currentBuild(): string | undefined {
  if (!existsSync(DIST) || !lstatSync(DIST).isSymbolicLink()) return undefined;
  return readlinkSync(DIST).split("/").pop();
}

function assetsOf(build: string): string[] {
  const listed = join(BUILDS, build, OWN_ASSETS);
  return existsSync(listed) ? (JSON.parse(readFileSync(listed, "utf8")) as string[]) : [];
}

const LOCK = join(BUILDS, ".lock");
/** A lock older than this belongs to a build that died: a build takes well under a minute. */
const STALE_LOCK_MS = 10 * 60_000;

/** Waits for another build to finish, then holds the lock until `release`. */
function lock(): () => void {
  mkdirSync(BUILDS, { recursive: true });
  const started = Date.now();
  for (;;) {
    try {
      closeSync(openSync(LOCK, "wx"));
      return () => rmSync(LOCK, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const age = Date.now() - (statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > STALE_LOCK_MS) rmSync(LOCK, { force: true });
      else if (Date.now() - started > STALE_LOCK_MS) throw new Error(`another build holds ${LOCK}`);
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
  }
}

function main(): void {
  const release = lock();
  try {
    build();
  } finally {
    release();
  }
}

function build(): void {
  const stamp = stampOf(SOURCES);
  const current = currentBuild();
  const isForced = process.env.EPICENTER_FORCE_BUILD === "1";
  if (!isForced && current?.startsWith(`${stamp}-`) && existsSync(join(BUILDS, current, "index.html"))) {
    console.log(`build: the SPA is up to date (${current})`);
    return;
  }
  const name = `${stamp}-${Date.now().toString(36)}`;
  const target = join(BUILDS, name);
  mkdirSync(BUILDS, { recursive: true });
  const vite = spawnSync("npx", ["vite", "build", "--outDir", target, "--emptyOutDir"], {
    cwd: WEB,
    stdio: "inherit",
  });
  if (vite.status !== 0) {
    rmSync(target, { recursive: true, force: true });
    throw new Error(`vite build failed (exit ${vite.status ?? "signal"})`);
  }
  const own = existsSync(join(target, "assets")) ? readdirSync(join(target, "assets")) : [];
  writeFileSync(join(target, OWN_ASSETS), JSON.stringify(own));
  if (current) {
    for (const asset of assetsOf(current)) {
      const from = join(BUILDS, current, "assets", asset);
      const to = join(target, "assets", asset);
      if (existsSync(from) && !existsSync(to)) cpSync(from, to);
    }
  }

  // A symlink beside `dist`, renamed over it: one atomic step for a reader of `dist/…`.
  const link = join(WEB, `.dist-${process.pid}`);
  rmSync(link, { force: true });
  symlinkSync(join("builds", name), link);
  if (existsSync(DIST) && !lstatSync(DIST).isSymbolicLink()) {
    // An older checkout's plain folder: moved aside once (rename cannot replace a folder).
    const aside = join(WEB, `.dist-old-${process.pid}`);
    renameSync(DIST, aside);
    renameSync(link, DIST);
    rmSync(aside, { recursive: true, force: true });
  } else {
    renameSync(link, DIST);
  }
  for (const other of readdirSync(BUILDS)) {
    if (other !== name && other !== current && !other.startsWith(".")) {
      rmSync(join(BUILDS, other), { recursive: true, force: true });
    }
  }
  console.log(`build: the SPA is built (${name}) and served from apps/web/dist`);
}

main();
