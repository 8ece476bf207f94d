/**
 * Web performance from the built SPA:
 * - initial JavaScript: the entry script of `apps/web/dist/index.html` plus every module
 *   it preloads, each gzipped (level 9, as a server or CDN would serve it); everything
 *   else is a lazily loaded chunk that `/` does not fetch up front;
 * - first load of `/queries` in Debian's chromium on loopback (the launch flags of
 *   DESIGN.md), signed in through the real magic-link outbox: each load in a fresh
 *   browser context (cold HTTP cache) with the signed-in session, timed to the load event
 *   and to the first query card on screen.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { signInThroughLogin } from "../../tests/e2e/session";
import { type Spread, spreadOf } from "./stats";

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface BundleSize {
  buildMs: number;
  initial: Array<{ file: string; bytes: number; gzipBytes: number }>;
  initialGzipBytes: number;
  allJsGzipBytes: number;
  chunks: number;
}

export async function buildAndMeasure(distDir: string, skipBuild: boolean): Promise<BundleSize> {
  const started = performance.now();
  // Forced: an unchanged SPA's build is otherwise skipped, and its time is what is measured.
  if (!skipBuild) {
    await promisify(execFile)("npm", ["run", "build"], {
      maxBuffer: 32 * 1024 * 1024,
      env: { ...process.env, EPICENTER_FORCE_BUILD: "1" },
    });
  }
  const buildMs = skipBuild ? Number.NaN : performance.now() - started;
  const html = readFileSync(join(distDir, "index.html"), "utf8");
  const entries = [
    ...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g),
    ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
  ].map((m) => m[1] as string);
  const initial = [...new Set(entries)].map((file) => {
    const bytes = readFileSync(join(distDir, file));
    return { file, bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
  });
  const assets = join(distDir, "assets");
  const js = readdirSync(assets).filter((name) => name.endsWith(".js"));
  const allJsGzipBytes = js.reduce(
    (total, name) => total + gzipSync(readFileSync(join(assets, name)), { level: 9 }).length,
    0,
  );
  return {
    buildMs,
    initial,
    initialGzipBytes: initial.reduce((total, f) => total + f.gzipBytes, 0),
    allJsGzipBytes,
    chunks: js.filter((name) => statSync(join(assets, name)).isFile()).length,
  };
}

export interface FirstLoad {
  loads: number;
  loadEventMs: Spread;
  firstCardMs: Spread;
  transferredBytes: Spread;
}

export async function measureFirstLoad(
  baseUrl: string,
  dataDir: string,
  email: string,
  loads: number,
): Promise<FirstLoad> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `${CHROMIUM_PATH} is missing: install it (apt-get install -y chromium, or run npm test once as root) or leave out the web phase (--only dataset,queries,ingest,load)`,
    );
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: FLAGS });
  try {
    const signIn = await browser.newContext();
    await signInThroughLogin(await signIn.newPage(), baseUrl, dataDir, email);
    const storageState = await signIn.storageState();
    await signIn.close();

    const loadEvent: number[] = [];
    const firstCard: number[] = [];
    const transferred: number[] = [];
    for (let i = -1; i < loads; i += 1) {
      const context = await browser.newContext({ storageState, viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      let bytes = 0;
      page.on("response", (response) => {
        void response
          .body()
          .then((body) => {
            bytes += body.length;
          })
          .catch(() => undefined);
      });
      const started = performance.now();
      await page.goto(`${baseUrl}/queries`, { waitUntil: "load" });
      const loaded = performance.now() - started;
      await page.getByRole("article").first().waitFor({ timeout: 30_000 });
      const shown = performance.now() - started;
      if (!page.url().endsWith("/queries")) throw new Error(`expected /queries, landed on ${page.url()}`);
      await context.close();
      if (i < 0) continue; // the first load also warms the server's file cache
      loadEvent.push(loaded);
      firstCard.push(shown);
      transferred.push(bytes);
    }
    return {
      loads,
      loadEventMs: spreadOf(loadEvent),
      firstCardMs: spreadOf(firstCard),
      transferredBytes: spreadOf(transferred),
    };
  } finally {
    await browser.close();
  }
}
