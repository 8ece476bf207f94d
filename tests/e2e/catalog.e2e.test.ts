/**
 * The data catalog in a real browser: search → table detail with counts and sample
 * values → 'Query in Editor' opens the editor prefilled; and the same at 390 px.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserSession } from "./browser";
import { E2E_USER } from "./global-setup";
import { e2eServer } from "./server";
import { openSignedInPair } from "./session";

const { baseUrl, dataDir } = e2eServer();

describe("the data catalog", () => {
  let wide: BrowserSession;
  let phone: BrowserSession;
  beforeAll(async () => {
    ({ wide, phone } = await openSignedInPair(baseUrl, dataDir, E2E_USER));
  });
  afterAll(async () => {
    await wide?.close();
    await phone?.close();
  });

  it("searches tables, opens one with counts and samples, and queries it in the editor", async () => {
    const { page } = wide;
    await page.goto(`${baseUrl}/datasets`);
    const cards = page.getByTestId("table-card");
    await expect.poll(() => cards.count()).toBe(38);
    await expect.poll(() => page.getByText("rows •").count(), { timeout: 30_000 }).toBe(38);
    expect(await page.getByRole("button", { name: "import data" }).isDisabled()).toBe(true);
    await wide.screenshot("catalog-1440");

    await page.getByRole("searchbox", { name: "Search tables" }).first().fill("markets_latest");
    await expect.poll(() => cards.count()).toBe(2);
    expect(await cards.allTextContents()).toEqual([
      expect.stringContaining("markets_latest"),
      expect.stringContaining("markets_latest"),
    ]);
    await page.getByRole("searchbox", { name: "Search tables" }).first().fill("no such table");
    await page.getByText("No tables match").waitFor();
    await page.getByRole("searchbox", { name: "Search tables" }).first().fill("kalshi.markets");
    // The snapshots, the latest state and the as-of view.
    await expect.poll(() => cards.count()).toBe(3);

    await page.locator('a[href="/datasets/kalshi-markets"]').click();
    await page.waitForURL(`${baseUrl}/datasets/kalshi-markets`);
    await page.getByRole("heading", { level: 1, name: "kalshi.markets" }).waitFor();
    expect(Number((await page.getByTestId("row-count").textContent())?.replace(/,/g, ""))).toBeGreaterThan(1000);
    expect(Number(await page.getByTestId("column-count").textContent())).toBeGreaterThanOrEqual(50);
    const tickerRow = page.getByRole("row").filter({ has: page.locator("code", { hasText: /^ticker$/ }) });
    await expect.poll(() => tickerRow.locator("td").nth(2).textContent(), { timeout: 20_000 }).toMatch(/^K/);
    expect(await tickerRow.locator("td").nth(1).textContent()).toBe("String");
    const priceRow = page.getByRole("row").filter({ has: page.locator("code", { hasText: /^last_price_dollars$/ }) });
    expect(await priceRow.locator("td").nth(1).textContent()).toBe("Float");
    expect(await priceRow.textContent()).toContain("dollars 0–1");
    const raw = page.getByRole("row").filter({ has: page.locator("code", { hasText: /^raw$/ }) });
    expect((await raw.locator("td").nth(2).textContent())?.length).toBe(101);
    await wide.screenshot("catalog-detail-1440");

    await page.getByRole("button", { name: "Query in Editor" }).first().click();
    await page.waitForURL((url) => url.pathname === "/queries/new");
    const url = new URL(page.url());
    expect(url.searchParams.get("sql")).toBe("SELECT * FROM kalshi.markets LIMIT 100");
    await expect
      .poll(() => page.locator("main").textContent(), { timeout: 20_000 })
      .toContain("SELECT * FROM kalshi.markets LIMIT 100");
    await wide.screenshot("catalog-query-in-editor-1440");

    await page.goBack();
    await page.getByRole("button", { name: "Back to Catalog" }).first().click();
    await page.waitForURL(`${baseUrl}/datasets`);

    // An as-of view: its columns (the engine's system.columns has none for it), sampled as of now.
    await page.goto(`${baseUrl}/datasets/kalshi-book_asof`);
    await page.getByRole("heading", { level: 1, name: "kalshi.book_asof" }).waitFor();
    expect(Number(await page.getByTestId("column-count").textContent())).toBe(8);
    const side = page.getByRole("row").filter({ has: page.locator("code", { hasText: /^side$/ }) });
    await expect.poll(() => side.locator("td").nth(2).textContent(), { timeout: 20_000 }).toMatch(/^(bid|ask)/);
    await page.getByRole("button", { name: "Query in Editor" }).first().click();
    await page.waitForURL((next) => next.pathname === "/queries/new");
    expect(new URL(page.url()).searchParams.get("sql")).toBe(
      "SELECT * FROM kalshi.book_asof(now() - INTERVAL 1 HOUR) LIMIT 100",
    );
  });

  it("is usable at 390 px with search and actions above the bottom navigation", async () => {
    const { page } = phone;
    await page.goto(`${baseUrl}/datasets`);
    const dock = page.getByRole("navigation", { name: "Bottom navigation" });
    await dock.waitFor();
    const search = page.getByRole("searchbox", { name: "Search tables" });
    await expect.poll(() => search.count()).toBe(1);
    // Snapshots, latest state, prices, daily closes, trades, the coverage ledger, the books, the as-of views, the
    // resolutions and the live feed's book changes, sessions and gaps.
    await search.fill("polymarket");
    await expect.poll(() => page.getByTestId("table-card").count()).toBe(18);
    await phone.screenshot("catalog-390");
    await page.getByTestId("table-card").filter({ hasText: "polymarket.events" }).first().click();
    await page.getByRole("heading", { level: 1, name: "polymarket.events" }).waitFor();
    await page.getByRole("button", { name: "Query in Editor" }).waitFor();
    await page.getByRole("button", { name: "Back to Catalog" }).waitFor();
    const width = await page.evaluate<number>("document.documentElement.scrollWidth");
    expect(width).toBeLessThanOrEqual(390);
    await phone.screenshot("catalog-detail-390");
  });
});
