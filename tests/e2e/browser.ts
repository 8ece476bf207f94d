/**
 * Debian's chromium driven by playwright-core, with the launch flags of DESIGN.md and a
 * fresh profile each time (Playwright refuses `--user-data-dir` in args, so the profile is
 * the persistent context's directory).
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const SCREENSHOT_DIR = join(process.cwd(), "test-results", "screenshots");

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

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** What the page threw. */
  errors: string[];
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

/** The sessions open now, for the failure report (`on-failure.ts`). */
export const openSessions = new Set<BrowserSession>();

export async function openBrowser(options: { width?: number; height?: number; isMobile?: boolean } = {}) {
  const profile = mkdtempSync(join(tmpdir(), "epicenter-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: FLAGS,
    viewport: { width: options.width ?? 1440, height: options.height ?? 900 },
    ...(options.isMobile ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
    acceptDownloads: true,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const session: BrowserSession = {
    context,
    page,
    errors,
    screenshot: async (name: string) => {
      const path = join(SCREENSHOT_DIR, `${name}.png`);
      // Lazy pages show a spinner first; a screenshot of the spinner shows nothing.
      await page.waitForLoadState("networkidle");
      await page.getByRole("status").filter({ hasText: "Loading..." }).waitFor({ state: "detached" });
      await page.screenshot({ path, fullPage: false });
      return path;
    },
    close: async () => {
      openSessions.delete(session);
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
  openSessions.add(session);
  return session;
}
