/**
 * The market page in a real browser (issue 15): reached from a catalog sample and from the
 * catalog's market search, it shows the question, the status, the price chart (from the
 * snapshots until the server's history worker has fetched the market's own history from
 * the replay server, then from that), the latest snapshot's fields, and opens each panel's
 * SQL in the editor; without the sidebar, and at 390 px without sideways scrolling.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserSession } from "./browser";
import { E2E_USER } from "./global-setup";
import { e2eServer } from "./server";
import { openSignedInPair, sessionToken } from "./session";

const { baseUrl, dataDir } = e2eServer();

const SNAPSHOT_NOTE = "No venue history archived yet; drawn from Epicenter's 10-minute snapshots.";

/** The first sample of a market table's key column, as the link the catalog draws. */
async function sampleKeyLink(page: Page, dataset: string, column: string) {
  await page.goto(`${baseUrl}/datasets/${dataset}`);
  const row = page.getByRole("row").filter({ has: page.locator("code", { hasText: new RegExp(`^${column}$`) }) });
  const link = row.locator("a[data-market-link]");
  await link.waitFor({ timeout: 30_000 });
  return link;
}

/** Waits until the market page has drawn its header, chart and fields. */
async function expectMarketPage(page: Page) {
  const title = page.getByRole("heading", { level: 1 });
  await title.waitFor({ timeout: 30_000 });
  expect((await title.textContent())?.trim().length).toBeGreaterThan(3);
  expect(await page.getByTestId("market-status").textContent()).toMatch(/^(Open|Closed|Resolved)$/);
  await expectChartDrawn(page);
  // The venue's own history once the worker has it (no note), the snapshots before (said so).
  const note = page.getByTestId("history-source-note");
  if ((await note.count()) > 0) expect(await note.textContent()).toBe(SNAPSHOT_NOTE);
  expect(await page.getByTestId("market-outcome").count()).toBeGreaterThanOrEqual(1);
}

/** The price chart drew a line (a flat one has no height, so it is looked for by its path, not its box). */
async function expectChartDrawn(page: Page) {
  const curve = page.getByTestId("price-chart").locator("path.recharts-line-curve").first();
  await curve.waitFor({ state: "attached", timeout: 30_000 });
  expect(await curve.getAttribute("d")).toMatch(/^M[\d.]+,[\d.]+[LC]/);
}

describe("the market page", () => {
  let wide: BrowserSession;
  let phone: BrowserSession;
  beforeAll(async () => {
    ({ wide, phone } = await openSignedInPair(baseUrl, dataDir, E2E_USER));
  });
  afterAll(async () => {
    await wide?.close();
    await phone?.close();
  });

  it("opens from a catalog sample with the question, status, chart and latest fields", async () => {
    const { page } = wide;
    const link = await sampleKeyLink(page, "polymarket-markets_latest", "id");
    const id = (await link.textContent())?.trim() ?? "";
    expect(id).toMatch(/^\d+$/);
    await link.click();
    await page.waitForURL(`${baseUrl}/markets/polymarket/${id}`);
    await expectMarketPage(page);

    expect(await page.getByRole("complementary", { name: "Main navigation" }).count()).toBe(0);
    const question = (await page.getByRole("heading", { level: 1 }).textContent())?.trim() ?? "";
    await expect.poll(() => page.title()).toBe(`${question} — Epicenter`);
    const venueLink = page.getByRole("link", { name: /View on Polymarket/ });
    expect(await venueLink.getAttribute("href")).toMatch(/^https:\/\/polymarket\.com\/event\//);

    // Every column of the latest snapshot, searchable.
    const fields = page.getByTestId("latest-fields");
    const idField = fields.locator("div").filter({ has: page.locator("dt", { hasText: /^id$/ }) });
    expect(await idField.locator("dd").textContent()).toBe(id);
    await page.getByRole("searchbox", { name: "Search fields" }).fill("question");
    await expect.poll(() => fields.locator("dt").allTextContents()).toContain("question");
    expect(await fields.locator("dt").allTextContents()).not.toContain("id");
    await page.getByRole("searchbox", { name: "Search fields" }).fill("");

    // The interval switch asks for days, then hours.
    await page.getByRole("tab", { name: "1d" }).click();
    await expect.poll(() => page.getByRole("tab", { name: "1d" }).getAttribute("aria-selected")).toBe("true");
    await expectChartDrawn(page);
    await page.getByRole("tab", { name: "1h" }).click();
    await expectChartDrawn(page);
    await wide.screenshot("market-polymarket-1440");

    // The latest snapshot's SQL, in the editor.
    await page.getByRole("button", { name: "Query in Editor: the latest snapshot" }).first().click();
    await page.waitForURL((url) => url.pathname === "/queries/new");
    const sql = new URL(page.url()).searchParams.get("sql") ?? "";
    expect(sql).toContain("FROM polymarket.markets_latest");
    // The id is a typed parameter whose value comes with the statement, ready to run.
    expect(sql).toContain("WHERE id = {id:String}");
    expect(new URL(page.url()).searchParams.get("param_id")).toBe(id);
    await expect
      .poll(() => page.locator("main").textContent(), { timeout: 20_000 })
      .toContain("FROM polymarket.markets_latest FINAL");
    const idInput = page.getByRole("textbox", { name: "id String" });
    expect(await idInput.inputValue()).toBe(id);
    await idInput.press("Enter");
    await page.getByText("1 row", { exact: true }).waitFor();
    await page.goBack();
    await expectMarketPage(page);

    // The price panel's SQL opens as well.
    await page.getByRole("button", { name: "Query in Editor: the price history" }).click();
    await page.waitForURL((url) => url.pathname === "/queries/new");
    expect(new URL(page.url()).searchParams.get("sql")).toContain("polymarket.prices");
  });

  it("finds a market with the catalog's search box and the keyboard", async () => {
    const { page } = wide;
    const link = await sampleKeyLink(page, "kalshi-markets_latest", "ticker");
    const ticker = (await link.textContent())?.trim() ?? "";
    expect(ticker).toMatch(/^K/);

    await page.goto(`${baseUrl}/datasets`);
    const search = page.getByRole("combobox", { name: "Search markets" });
    await search.fill(ticker.toLowerCase());
    const results = page.getByTestId("market-search-result");
    await expect.poll(() => results.count(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await results.first().textContent()).toContain(ticker);
    expect(await results.first().getAttribute("aria-selected")).toBe("true");
    await wide.screenshot("market-search-1440");

    // ↓ marks the next result, ↑ the first again, Enter opens it.
    if ((await results.count()) > 1) {
      await search.press("ArrowDown");
      expect(await results.nth(1).getAttribute("aria-selected")).toBe("true");
      await search.press("ArrowUp");
    }
    expect(await results.first().getAttribute("aria-selected")).toBe("true");
    await search.press("Enter");
    await page.waitForURL(`${baseUrl}/markets/kalshi/${ticker}`);
    await expectMarketPage(page);
    expect(await page.getByTestId("latest-fields").textContent()).toContain(ticker);
    await wide.screenshot("market-kalshi-1440");

    // Typing and Enter at once still opens the first result once it arrives.
    await page.goto(`${baseUrl}/datasets`);
    await page.getByRole("combobox", { name: "Search markets" }).fill(ticker);
    await page.getByRole("combobox", { name: "Search markets" }).press("Enter");
    await page.waitForURL(`${baseUrl}/markets/kalshi/${ticker}`);
  });

  it("draws the venue's own history once the worker has archived it", async () => {
    const { page } = wide;
    await page.goto(`${baseUrl}/datasets`);
    const token = await sessionToken(page);
    // The history worker's step, run by the seed over the markets it picks first (the
    // server's own walk is off, `SYNC_WORKERS`), fetched them from the replay server.
    let id = "";
    await expect
      .poll(
        async () => {
          const answer = await page.request.post(`${baseUrl}/api/query`, {
            headers: { authorization: `Bearer ${token}` },
            data: { query: "SELECT id FROM polymarket.prices GROUP BY id ORDER BY count() DESC, id LIMIT 1" },
          });
          const body = (await answer.json()) as { result?: { data: Array<{ id: string }> } };
          id = body.result?.data[0]?.id ?? "";
          return id;
        },
        { timeout: 200_000, interval: 3_000 },
      )
      .not.toBe("");
    await page.goto(`${baseUrl}/markets/polymarket/${id}`);
    await expectMarketPage(page);
    await expect.poll(() => page.getByTestId("history-source-note").count()).toBe(0);
    // The coverage ledger's word on it: the worker reached it.
    await expect
      .poll(() => page.getByTestId("history-coverage").textContent())
      .toMatch(/^History (complete|up to date)/);
    await wide.screenshot("market-polymarket-history-1440");
  }, 240_000);

  it("draws a Kalshi market's whole archived life from its candles in every range (issue 24, #2)", async () => {
    const { page } = wide;
    await page.goto(`${baseUrl}/datasets`);
    const token = await sessionToken(page);
    let ticker = "";
    await expect
      .poll(
        async () => {
          const answer = await page.request.post(`${baseUrl}/api/query`, {
            headers: { authorization: `Bearer ${token}` },
            data: {
              query:
                "SELECT ticker FROM kalshi.candles WHERE period_minutes = 60 GROUP BY ticker ORDER BY count() DESC, ticker LIMIT 1",
            },
          });
          const body = (await answer.json()) as { result?: { data: Array<{ ticker: string }> } };
          ticker = body.result?.data[0]?.ticker ?? "";
          return ticker;
        },
        { timeout: 200_000, interval: 3_000 },
      )
      .not.toBe("");
    await page.goto(`${baseUrl}/markets/kalshi/${encodeURIComponent(ticker)}`);
    await expectMarketPage(page);
    // The archive holds hourly candles, no daily ones: the daily view rolls them up
    // instead of falling back to snapshots while the page counts thousands of candles.
    for (const interval of ["1d", "1h"]) {
      await page.getByRole("tab", { name: interval, exact: true }).click();
      await expect.poll(() => page.getByTestId("history-source-note").count()).toBe(0);
      expect(await page.getByText("No candles archived for this span yet").count()).toBe(0);
    }
    await wide.screenshot("market-kalshi-history-1440");
  }, 240_000);

  it("draws the order book's depth now and as of a chosen moment, with fill prices and the spread (issue 28)", async () => {
    for (const session of [wide, phone]) {
      const { page } = session;
      await page.goto(`${baseUrl}/datasets`);
      const token = await sessionToken(page);
      // A Kalshi market with a two-sided book in the generated week, deep enough to draw.
      const answer = await page.request.post(`${baseUrl}/api/query`, {
        headers: { authorization: `Bearer ${token}` },
        data: {
          query:
            "SELECT ticker FROM kalshi.book_asof(now()) GROUP BY ticker HAVING countIf(side = 'bid') >= 5 AND countIf(side = 'ask') >= 5 ORDER BY ticker LIMIT 1",
        },
      });
      const ticker = ((await answer.json()) as { result: { data: Array<{ ticker: string }> } }).result.data[0]?.ticker;
      expect(ticker).toBeTruthy();
      await page.goto(`${baseUrl}/markets/kalshi/${ticker}`);
      const panel = page.getByTestId("book-panel");
      await panel.waitFor({ timeout: 30_000 });
      const depth = page.getByTestId("depth-chart");
      await depth.waitFor({ timeout: 30_000 });
      expect(Number(await depth.getAttribute("data-levels"))).toBeGreaterThanOrEqual(10);
      expect(await depth.locator("path.recharts-area-area").count()).toBe(2);
      expect(await page.getByTestId("book-fills").getByRole("row").count()).toBe(3);
      expect(Number(await page.getByTestId("spread-chart").getAttribute("data-points"))).toBeGreaterThan(10);
      const now = await page.getByTestId("book-captured").textContent();
      // Two days ago: the generated week has a book then too, captured before that moment.
      const past = new Date(Date.now() - 2 * 86_400_000);
      const local = new Date(past.getTime() - past.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
      await page.getByTestId("book-as-of").fill(local);
      await expect.poll(() => page.getByTestId("book-captured").textContent(), { timeout: 20_000 }).not.toBe(now);
      await depth.waitFor();
      const width = page.viewportSize()?.width ?? 0;
      expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(width);
      await panel.scrollIntoViewIfNeeded();
      await session.screenshot(`market-book-${width}`);
    }
  }, 120_000);

  it("says how a settled market resolved, from the resolutions ledger, and opens the ledger's row in the editor (issue 29)", async () => {
    const { page } = wide;
    await page.goto(`${baseUrl}/datasets`);
    const token = await sessionToken(page);
    const answer = await page.request.post(`${baseUrl}/api/query`, {
      headers: { authorization: `Bearer ${token}` },
      data: {
        query: `SELECT market_id, winning_outcome, event_winner FROM crossvenue.resolutions
                WHERE venue = 'kalshi' AND outcome_type = 'yes' AND event_markets > 1 AND event_winner != ''
                ORDER BY market_id LIMIT 1`,
      },
    });
    const body = (await answer.json()) as { result?: { data: Array<Record<string, string>> } };
    const row = body.result?.data[0];
    expect(row?.market_id).toBeTruthy();
    await page.goto(`${baseUrl}/markets/kalshi/${encodeURIComponent(row?.market_id ?? "")}`);
    const line = page.getByTestId("market-resolution");
    await line.waitFor();
    const text = ((await line.textContent()) ?? "").replace(/\s+/g, " ");
    expect(text).toMatch(/^Resolved YES on [A-Z][a-z]{2} \d{1,2}, \d{4} \d{2}:\d{2} UTC by Kalshi/);
    expect(text).toContain(`Event winner: ${row?.event_winner}.`);
    await wide.screenshot("market-resolution-1440");
    // The ledger's row, in the editor, ready to run with the ticker bound.
    await line.getByRole("button", { name: "Query in Editor: the resolution" }).click();
    await page.waitForURL((url) => url.pathname === "/queries/new");
    expect(new URL(page.url()).searchParams.get("sql")).toContain("FROM kalshi.resolutions FINAL");
    expect(new URL(page.url()).searchParams.get("param_id")).toBe(row?.market_id);
    await page.getByRole("textbox", { name: "id String" }).press("Enter");
    await page.getByText("1 row", { exact: true }).waitFor();
  }, 120_000);

  it("says when the archive has no such market, with a way back", async () => {
    const { page } = wide;
    await page.goto(`${baseUrl}/datasets`);
    await page.goto(`${baseUrl}/markets/kalshi/NO-SUCH-MARKET-E2E`);
    await page.getByRole("heading", { name: "No such market in the archive" }).waitFor({ timeout: 20_000 });
    await page.getByRole("button", { name: "Back" }).click();
    await page.waitForURL(`${baseUrl}/datasets`);
  });

  it("fits 390 px without sideways scrolling", async () => {
    const { page } = phone;
    const link = await sampleKeyLink(page, "kalshi-markets_latest", "ticker");
    const ticker = (await link.textContent())?.trim() ?? "";
    await link.click();
    await page.waitForURL(`${baseUrl}/markets/kalshi/${ticker}`);
    await expectMarketPage(page);
    expect(await page.getByRole("complementary", { name: "Main navigation" }).count()).toBe(0);
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    const chart = await page.getByTestId("price-chart").boundingBox();
    expect((chart?.x ?? 0) + (chart?.width ?? 0)).toBeLessThanOrEqual(390);
    // The page's actions sit above the bottom navigation.
    await page.getByRole("button", { name: "Query in Editor: the latest snapshot" }).first().waitFor();
    await phone.screenshot("market-kalshi-390");
    await page.getByTestId("latest-panel").scrollIntoViewIfNeeded();
    await phone.screenshot("market-kalshi-fields-390");

    await page.goto(`${baseUrl}/datasets`);
    const search = page.getByRole("combobox", { name: "Search markets" });
    await search.fill(ticker);
    await expect.poll(() => page.getByTestId("market-search-result").count(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    await phone.screenshot("market-search-390");
  });
});
