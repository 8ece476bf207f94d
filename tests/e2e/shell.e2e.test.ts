import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, openBrowser } from "./browser";
import { E2E_ADMIN, E2E_USER } from "./global-setup";
import { e2eServer } from "./server";
import { signIn } from "./session";

const { baseUrl, dataDir } = e2eServer();

describe("the shell on a wide screen (1440 px)", () => {
  let browser: BrowserSession;
  beforeAll(async () => {
    browser = await openBrowser({ width: 1440, height: 900 });
    await signIn(browser.page, baseUrl, dataDir, E2E_USER);
  });
  afterAll(async () => {
    await browser.close();
  });

  it("opens the landing page with its headline and three buttons", async () => {
    const { page } = browser;
    await page.goto(`${baseUrl}/`);
    await expect
      .poll(() => page.getByRole("heading", { level: 1 }).textContent())
      .toBe("The Data Terminal for Prediction Markets");
    await browser.screenshot("landing-1440");

    await page.getByRole("button", { name: "Start Querying" }).click();
    await page.waitForURL(`${baseUrl}/queries`);
    await page.goBack();
    await page.getByRole("button", { name: "Browse Data" }).click();
    await page.waitForURL(`${baseUrl}/datasets`);
    await page.goBack();
    await page.getByRole("button", { name: "View API" }).click();
    await page.waitForURL(`${baseUrl}/hub/api`);
  });

  it("follows every sidebar entry to its page", async () => {
    const { page } = browser;
    await page.goto(`${baseUrl}/`);
    const sidebar = page.getByRole("complementary", { name: "Main navigation" });
    const entries: Array<[string, string, string]> = [
      ["Intelligence", "/intelligence", "Intelligence"],
      ["Queries", "/queries", "Queries"],
      ["Dashboards", "/dashboards", "Dashboards"],
      ["Data Catalog", "/datasets", "Data Catalog"],
      ["Hub", "/hub", "Hub"],
      ["Overview", "/", "The Data Terminal for Prediction Markets"],
    ];
    for (const [label, path, heading] of entries) {
      await sidebar.getByRole("link", { name: label, exact: true }).click();
      await page.waitForURL(`${baseUrl}${path}`);
      await expect.poll(() => page.getByRole("heading", { level: 1 }).first().textContent()).toBe(heading);
      const current = sidebar.locator('[aria-current="page"]');
      expect(await current.textContent()).toBe(label);
    }
    await page.goto(`${baseUrl}/queries`);
    await browser.screenshot("queries-1440");
    expect(await sidebar.getByRole("link", { name: "Admin" }).count()).toBe(0);
  });

  it("redirects /seismo, /status and unknown paths", async () => {
    const { page } = browser;
    await page.goto(`${baseUrl}/seismo`);
    await page.waitForURL(`${baseUrl}/intelligence`);
    await page.goto(`${baseUrl}/status`);
    await page.waitForURL(`${baseUrl}/hub/status`);
    await page.goto(`${baseUrl}/no/such/page`);
    await page.waitForURL(`${baseUrl}/`);
  });

  it("opens the About, Use Cases and Pricing modals and closes them with Esc and the backdrop", async () => {
    const { page } = browser;
    await page.goto(`${baseUrl}/`);
    await page.getByRole("button", { name: "About", exact: true }).click();
    const about = page.getByRole("dialog", { name: "About Epicenter" });
    await about.waitFor();
    await browser.screenshot("about-modal-1440");
    await page.keyboard.press("Escape");
    await about.waitFor({ state: "hidden" });

    await page.getByRole("button", { name: "Use Cases" }).click();
    const useCases = page.getByRole("dialog", { name: "Use Cases" });
    await useCases.waitFor();
    expect(await useCases.getByRole("heading", { name: "Developers" }).count()).toBe(1);
    await page.mouse.click(10, 10);
    await useCases.waitFor({ state: "hidden" });

    await page.getByRole("button", { name: "Pricing" }).click();
    await page.getByRole("dialog", { name: "Pricing" }).getByText("during alpha, with unlimited queries").waitFor();
  });

  it("hides the sidebar in the editor views", async () => {
    const { page } = browser;
    await page.goto(`${baseUrl}/queries/new`);
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    expect(await page.getByRole("complementary", { name: "Main navigation" }).count()).toBe(0);
  });
});

describe("the shell on a phone (390 px)", () => {
  let browser: BrowserSession;
  beforeAll(async () => {
    browser = await openBrowser({ width: 390, height: 844, isMobile: true });
    await signIn(browser.page, baseUrl, dataDir, E2E_ADMIN);
  });
  afterAll(async () => {
    await browser.close();
  });

  const activeTab = async () => {
    const nav = browser.page.getByRole("navigation", { name: "Bottom navigation" });
    const labels = await nav
      .locator('[aria-current="page"]')
      .evaluateAll((links) => links.map((link) => link.getAttribute("aria-label")));
    return labels[0] ?? null;
  };

  it("shows the icon tabs, seven for the admin, and marks the active one by the spec's rules", async () => {
    const { page } = browser;
    await page.goto(`${baseUrl}/`);
    const nav = page.getByRole("navigation", { name: "Bottom navigation" });
    await nav.waitFor();
    expect(await nav.getByRole("link").count()).toBe(7);
    await page.goto(`${baseUrl}/admin/users`);
    await expect.poll(activeTab).toBe("Admin");
    await page.goto(`${baseUrl}/`);
    expect(await page.getByRole("complementary", { name: "Main navigation" }).isVisible()).toBe(false);
    await expect.poll(activeTab).toBe("Overview");
    await browser.screenshot("landing-390");

    await nav.getByRole("link", { name: "Queries" }).click();
    await page.waitForURL(`${baseUrl}/queries`);
    await expect.poll(activeTab).toBe("Queries");
    await browser.screenshot("queries-390");

    await page.goto(`${baseUrl}/intelligence/anything`);
    await expect.poll(activeTab).toBe("Intelligence");
    await page.goto(`${baseUrl}/datasets`);
    await expect.poll(activeTab).toBe("Data Catalog");
    await page.goto(`${baseUrl}/hub/status`);
    await expect.poll(activeTab).toBeNull();
  });

  it("hides the bottom navigation and the top bar on /query/editor", async () => {
    const { page } = browser;
    await page.goto(`${baseUrl}/query/editor`);
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    expect(await page.getByRole("navigation", { name: "Bottom navigation" }).count()).toBe(0);
    expect(await page.locator("header").filter({ hasText: "Epicenter" }).count()).toBe(0);
  });
});
