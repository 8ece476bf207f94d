/**
 * The landing page in a real browser: the About modal's live figures match what the
 * warehouse says when asked in SQL through the API, and the Use Cases and Pricing modals
 * open; at 1440 and at 390 px.
 */
import { LANDING_SAMPLE_SQL } from "@epicenter/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, openBrowser } from "./browser";
import { E2E_ADMIN } from "./global-setup";
import { e2eServer } from "./server";
import { signIn } from "./session";

const { baseUrl, dataDir } = e2eServer();
const SESSION_KEY = "epicenter.session";

async function sql<Row>(token: string, query: string): Promise<Row[]> {
  const response = await fetch(`${baseUrl}/api/query`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ query }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { result: { data: Row[] } }).result.data;
}

describe("the landing page", () => {
  let wide: BrowserSession;
  let phone: BrowserSession;
  let token: string;
  beforeAll(async () => {
    wide = await openBrowser({ width: 1440, height: 900 });
    await signIn(wide.page, baseUrl, dataDir, E2E_ADMIN);
    const session = (await wide.page.evaluate((key) => localStorage.getItem(key), SESSION_KEY)) as string;
    token = (JSON.parse(session) as { accessToken: string }).accessToken;
    phone = await openBrowser({ width: 390, height: 844, isMobile: true });
    await phone.context.addInitScript(
      ([key, value]) => {
        if (value && !localStorage.getItem(key as string)) localStorage.setItem(key as string, value);
      },
      [SESSION_KEY, session],
    );
  });
  afterAll(async () => {
    await wide?.close();
    await phone?.close();
  });

  it("opens the editor with its sample query, which lists each market once (issue 24, defect 3)", async () => {
    const { page } = wide;
    await page.goto(`${baseUrl}/`);
    await page.getByRole("button", { name: "Open the editor" }).click();
    await page.waitForURL(/\/queries\/new\?/);
    const editor = page.locator(".cm-content");
    await editor.waitFor();
    expect(await editor.textContent()).toContain("FROM polymarket.markets_latest FINAL");
    await page.keyboard.press("Control+Enter");
    await page
      .getByText(/^\d+ rows?$/)
      .first()
      .waitFor();
    const rows = await sql<{ question: string }>(token, LANDING_SAMPLE_SQL);
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((row) => row.question)).size).toBe(rows.length);
  });

  it("shows live About stats that match the warehouse", async () => {
    const { page } = wide;
    await page.goto(`${baseUrl}/`);
    await page.getByRole("heading", { level: 1, name: "The Data Terminal for Prediction Markets" }).waitFor();

    const readModal = async () => {
      await page.getByRole("button", { name: "About", exact: true }).click();
      const about = page.getByRole("dialog", { name: "About Epicenter" });
      await about.waitFor();
      await expect.poll(() => about.getByTestId("stat-markets").getAttribute("data-value")).not.toBe("");
      const values = {
        markets: Number(await about.getByTestId("stat-markets").getAttribute("data-value")),
        marketsText: (await about.getByTestId("stat-markets").textContent()) as string,
        freshness: Number(await about.getByTestId("stat-freshness").getAttribute("data-value")),
        archiveStart: (await about.getByTestId("stat-archive-start").getAttribute("data-value")) as string,
        archiveStartText: (await about.getByTestId("stat-archive-start").textContent()) as string,
        sources: (await about.getByTestId("stat-sources").textContent()) as string,
      };
      return { about, values };
    };

    // Backfill may add closed markets between two reads: compare reads taken together.
    let attempt = 0;
    for (;;) {
      const { about, values } = await readModal();
      const [truth] = await sql<{ markets: string; start: string }>(
        token,
        `SELECT
           (SELECT uniqExact(id) FROM polymarket.markets) + (SELECT uniqExact(ticker) FROM kalshi.markets) AS markets,
           toString(least((SELECT min(sync_timestamp) FROM polymarket.markets), (SELECT min(sync_timestamp) FROM kalshi.markets))) AS start`,
      );
      if (Number(truth?.markets) !== values.markets && attempt++ < 3) {
        await page.keyboard.press("Escape");
        continue;
      }
      expect(values.markets).toBe(Number(truth?.markets));
      expect(values.marketsText).toBe(values.markets.toLocaleString("en-US"));
      expect(values.archiveStart).toBe(`${truth?.start.replace(" ", "T")}Z`);
      expect(values.archiveStartText).toBe(
        new Date(values.archiveStart).toLocaleDateString("en-US", {
          month: "short",
          day: "numeric",
          year: "numeric",
          timeZone: "UTC",
        }),
      );
      expect(values.sources).toBe("2");
      // The landing's own figures are the same live ones, never a fixed claim.
      expect(await page.getByTestId("highlight-archive-start").getAttribute("data-value")).toBe(values.archiveStart);
      expect(await page.getByTestId("highlight-sources").getAttribute("data-value")).toBe("2");
      expect(Number(await page.getByTestId("highlight-markets").getAttribute("data-value"))).toBeGreaterThan(0);
      expect(await page.locator("main").textContent()).not.toContain("Oct 6 2025");
      const status = (await (
        await fetch(`${baseUrl}/api/sync/status`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as { sources: Record<string, { last_sync: string | null }> };
      const lastSync = Math.max(...Object.values(status.sources).map((source) => Date.parse(source.last_sync ?? "")));
      expect(Math.abs(Date.now() - lastSync - values.freshness * 1000)).toBeLessThan(30_000);
      await wide.screenshot("landing-about-1440");
      await page.keyboard.press("Escape");
      await about.waitFor({ state: "hidden" });
      break;
    }

    await page.getByRole("button", { name: "Use Cases" }).click();
    const useCases = page.getByRole("dialog", { name: "Use Cases" });
    await useCases.waitFor();
    for (const who of ["Traders", "Researchers", "Developers", "Content creators"]) {
      expect(await useCases.getByRole("heading", { name: who }).count()).toBe(1);
    }
    expect(await useCases.getByRole("link", { name: /API docs/ }).getAttribute("href")).toBe("/hub/api");
    await wide.screenshot("landing-use-cases-1440");
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Pricing" }).click();
    await page.getByRole("dialog", { name: "Pricing" }).getByText("during alpha, with unlimited queries").waitFor();
    await page.keyboard.press("Escape");

    await page.getByRole("button", { name: "About", exact: true }).click();
    await page
      .getByRole("dialog", { name: "About Epicenter" })
      .getByRole("link", { name: /changelog/ })
      .click();
    await page.waitForURL(`${baseUrl}/hub/changelog`);
  });

  it("opens the About modal at 390 px", async () => {
    const { page } = phone;
    await page.goto(`${baseUrl}/`);
    await page.getByRole("button", { name: "About", exact: true }).click();
    const about = page.getByRole("dialog", { name: "About Epicenter" });
    await about.waitFor();
    await expect.poll(() => about.getByTestId("stat-markets").getAttribute("data-value")).not.toBe("");
    await phone.screenshot("landing-about-390");
  });
});
