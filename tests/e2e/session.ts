/** Signing in inside the browser the way a person does: ask on /login, open the mailed link. */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Page } from "playwright-core";
import { type BrowserSession, openBrowser } from "./browser";

export function outboxLinkFor(dataDir: string, email: string, after = 0): string | undefined {
  const outbox = join(dataDir, "outbox");
  let files: string[];
  try {
    files = readdirSync(outbox).sort().reverse();
  } catch {
    return undefined;
  }
  for (const file of files) {
    const mail = JSON.parse(readFileSync(join(outbox, file), "utf8")) as {
      to: string;
      link: string;
      created_at: string;
    };
    if (mail.to === email && Date.parse(mail.created_at) >= after) return mail.link;
  }
  return undefined;
}

export async function waitForLink(dataDir: string, email: string, after: number): Promise<string> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const link = outboxLinkFor(dataDir, email, after);
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no sign-in mail for ${email} in the outbox`);
}

/** Asks for a link on /login, then follows it; resolves once the app shows the landing headline. */
export async function signInThroughLogin(page: Page, baseUrl: string, dataDir: string, email: string): Promise<void> {
  const asked = Date.now() - 1_000;
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "REQUEST ACCESS" }).click();
  await page.getByText("Check your email for the magic link!").waitFor();
  await page.goto(await waitForLink(dataDir, email, asked));
  await page.waitForURL((url) => !url.pathname.startsWith("/auth/"));
}

/**
 * Signs in as `email`, reusing the session an earlier test file saved (the product allows
 * five links per address per 15 minutes, fewer than the suite has files). A saved session
 * that no longer works (signed out, revoked) is replaced by a fresh sign-in.
 */
export async function signIn(page: Page, baseUrl: string, dataDir: string, email: string): Promise<void> {
  const saved = join(dataDir, "e2e-sessions", `${email}.json`);
  if (existsSync(saved)) {
    const session = readFileSync(saved, "utf8");
    await page.goto(`${baseUrl}/login`);
    await page.evaluate((value) => localStorage.setItem("epicenter.session", value), session);
    await page.goto(`${baseUrl}/`);
    await page.waitForLoadState("networkidle");
    if (!page.url().endsWith("/login")) return;
  }
  await signInThroughLogin(page, baseUrl, dataDir, email);
  mkdirSync(dirname(saved), { recursive: true });
  writeFileSync(saved, await page.evaluate(() => localStorage.getItem("epicenter.session") ?? ""));
}

/**
 * A wide (1440 px) and a phone (390 px) browser signed in as `email` with one sign-in: the
 * phone starts with the wide browser's session in its storage.
 */
export async function openSignedInPair(
  baseUrl: string,
  dataDir: string,
  email: string,
): Promise<{ wide: BrowserSession; phone: BrowserSession }> {
  const wide = await openBrowser({ width: 1440, height: 900 });
  await signIn(wide.page, baseUrl, dataDir, email);
  const session = await wide.page.evaluate(() => localStorage.getItem("epicenter.session"));
  const phone = await openBrowser({ width: 390, height: 844, isMobile: true });
  await phone.context.addInitScript((value) => {
    if (value && !localStorage.getItem("epicenter.session")) localStorage.setItem("epicenter.session", value);
  }, session);
  return { wide, phone };
}

/** The signed-in page's access token, as the SPA keeps it, for calls to the API beside the page. */
export function sessionToken(page: Page): Promise<string> {
  return page.evaluate<string>(
    () => (JSON.parse(localStorage.getItem("epicenter.session") ?? "{}") as { accessToken: string }).accessToken,
  );
}
