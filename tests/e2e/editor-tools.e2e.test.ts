/**
 * What Dune and ClickHouse console users expect beside the editor (issue 24): query tabs,
 * the schema browser, the run history, a share link for an unsaved query, Format SQL, Esc
 * to cancel a run and the shortcut help.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, openBrowser } from "./browser";
import { E2E_USER } from "./global-setup";
import { e2eServer } from "./server";
import { signIn } from "./session";

const { baseUrl, dataDir } = e2eServer();

describe("the editor's tools", () => {
  let browser: BrowserSession;
  const editor = () => browser.page.locator(".cm-content");
  const replaceSql = async (sql: string) => {
    const { page } = browser;
    await editor().click();
    await page.keyboard.press("Control+a");
    await page.keyboard.press("Delete");
    await page.keyboard.insertText(sql);
  };

  beforeAll(async () => {
    browser = await openBrowser({ width: 1440, height: 900 });
    browser.page.on("dialog", (dialog) => void dialog.accept());
    await browser.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl });
    await signIn(browser.page, baseUrl, dataDir, E2E_USER);
    await browser.page.goto(`${baseUrl}/queries/new`);
    await editor().waitFor();
  });
  afterAll(async () => {
    await browser.close();
  });

  it("keeps several queries open in tabs, each with its own unsaved text, across a reload", async () => {
    const { page } = browser;
    const strip = page.getByRole("navigation", { name: "Open queries" });
    await replaceSql("SELECT 'first tab' AS which");
    await page.getByLabel("Query title").fill("First tab");
    await strip.getByRole("button", { name: "New query tab" }).click();
    await page.waitForURL(/\/queries\/new\?draft=/);
    await expect.poll(() => editor().textContent()).toContain("LIMIT 10");
    await replaceSql("SELECT 'second tab' AS which");
    await page.getByLabel("Query title").fill("Second tab");
    await expect.poll(() => strip.getByRole("link").allTextContents()).toEqual(["First tab", "Second tab"]);

    await strip.getByRole("link", { name: "First tab" }).click();
    await expect.poll(() => editor().textContent()).toBe("SELECT 'first tab' AS which");
    await page.reload();
    await editor().waitFor();
    expect(await strip.getByRole("link").allTextContents()).toEqual(["First tab", "Second tab"]);
    await strip.getByRole("link", { name: "Second tab" }).click();
    await expect.poll(() => editor().textContent()).toBe("SELECT 'second tab' AS which");
    await browser.screenshot("editor-query-tabs");

    // Closing a tab with unsaved work asks (the dialog is accepted here) and shows its neighbour.
    await strip.getByRole("button", { name: "Close Second tab" }).click();
    await expect.poll(() => strip.getByRole("link").allTextContents()).toEqual(["First tab"]);
    await expect.poll(() => editor().textContent()).toBe("SELECT 'first tab' AS which");
  });

  it("opens a link's SQL in a tab of its own, never over another new query's draft, and keeps its edits", async () => {
    const { page } = browser;
    const strip = page.getByRole("navigation", { name: "Open queries" });
    await page.goto(`${baseUrl}/queries/new`);
    await editor().waitFor();
    await replaceSql("SELECT 'plain' AS which");
    await page.getByLabel("Query title").fill("Plain draft");
    await page.goto(`${baseUrl}/queries/new?sql=${encodeURIComponent("SELECT 'forked' AS which")}&title=Forked`);
    await expect.poll(() => editor().textContent()).toBe("SELECT 'forked' AS which");
    await replaceSql("SELECT 'forked, edited' AS which");
    await expect.poll(() => strip.getByRole("link").allTextContents()).toContain("Forked");

    await strip.getByRole("link", { name: "Plain draft" }).click();
    await expect.poll(() => editor().textContent()).toBe("SELECT 'plain' AS which");
    await strip.getByRole("link", { name: "Forked" }).click();
    await expect.poll(() => editor().textContent()).toBe("SELECT 'forked, edited' AS which");
  });

  it("browses the schema beside the editor: searches columns and inserts a name at the cursor", async () => {
    const { page } = browser;
    const panel = page.getByRole("complementary", { name: "Schema and history" });
    await panel.waitFor();
    // The history tables are there, with their columns' types.
    await panel.getByRole("searchbox", { name: "Search tables and columns" }).fill("candles close");
    const columns = panel.getByRole("list", { name: "Columns of kalshi.candles" });
    await columns.waitFor();
    expect(await columns.textContent()).toContain("price_close");
    await browser.screenshot("editor-schema-browser");

    await replaceSql("SELECT  FROM kalshi.candles LIMIT 1");
    await page.keyboard.press("Home");
    for (let step = 0; step < "SELECT ".length; step++) await page.keyboard.press("ArrowRight");
    await columns.getByRole("button", { name: /^price_close/ }).click();
    await expect.poll(() => editor().textContent()).toBe("SELECT price_close FROM kalshi.candles LIMIT 1");
    await page.getByRole("searchbox", { name: "Search tables and columns" }).fill("no such column at all");
    await panel.getByText("No table or column matches").waitFor();
  });

  it("lists the user's runs in the history, failures with their reason, and reopens one", async () => {
    const { page } = browser;
    const marker = `history_${Date.now()}`;
    await replaceSql(`SELECT 7 AS ${marker}`);
    await page.keyboard.press("Control+Enter");
    await page.getByText("1 row", { exact: true }).waitFor();
    await replaceSql("SELECT * FROM nowhere.at_all");
    await page.keyboard.press("Control+Enter");
    await page.getByRole("alert").filter({ hasText: "Query failed" }).waitFor();

    await page.getByRole("button", { name: "History" }).click();
    const runs = page.getByRole("list", { name: "Your recent runs" });
    await runs.waitFor();
    await expect.poll(() => runs.getByRole("listitem").first().textContent()).toContain("nowhere.at_all");
    const ours = runs.getByRole("listitem").filter({ hasText: marker });
    expect(await ours.textContent()).toContain("1 row");
    await browser.screenshot("editor-run-history");
    await ours.getByRole("button").click();
    await expect.poll(() => editor().textContent()).toBe(`SELECT 7 AS ${marker}`);
  });

  it("formats the SQL with Shift+Alt+F, keeping parameters and names as written", async () => {
    const { page } = browser;
    await replaceSql("select ticker, volume from kalshi.markets where ticker = {ticker:String} limit 5");
    await page.keyboard.press("Shift+Alt+F");
    await expect
      // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText keeps the editor's line breaks
      .poll(() => editor().innerText())
      .toBe("select\n  ticker,\n  volume\nfrom\n  kalshi.markets\nwhere\n  ticker = {ticker:String}\nlimit\n  5");
  });

  it("copies a share link that opens the unsaved SQL, its title and its parameter values", async () => {
    const { page } = browser;
    await page.getByLabel("Query title").fill("Shared rain check");
    await page.getByLabel("ticker").fill("KXRAIN-26JAN10");
    await page.getByRole("button", { name: "Share", exact: true }).click();
    await page.getByText("Link copied").waitFor();
    const link = await page.evaluate<string>("navigator.clipboard.readText()");
    expect(link.startsWith(`${baseUrl}/queries/new?`)).toBe(true);

    const other = await browser.context.newPage();
    await other.goto(link);
    await other.locator(".cm-content").waitFor();
    expect(await other.locator(".cm-content").textContent()).toContain("ticker = {ticker:String}");
    expect(await other.getByLabel("Query title").inputValue()).toBe("Shared rain check");
    expect(await other.getByLabel("ticker").inputValue()).toBe("KXRAIN-26JAN10");
    await other.close();
  });

  it("cancels a running query with Esc, and lists its shortcuts on ?", async () => {
    const { page } = browser;
    await replaceSql("SELECT count() FROM numbers(100000000000) WHERE sipHash64(number) % 7 = 1");
    await page.keyboard.press("Control+Enter");
    await page.getByText(/Running…/).waitFor();
    await page.keyboard.press("Escape");
    await page.getByText("Query cancelled.").waitFor();

    await page.getByRole("tab", { name: "Results" }).focus();
    await page.keyboard.press("?");
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await help.waitFor();
    const text = await help.textContent();
    for (const action of ["Cancel the running query", "Format the SQL", "Run the query"])
      expect(text).toContain(action);
    await browser.screenshot("editor-shortcuts");
    await page.keyboard.press("Escape");
    await help.waitFor({ state: "hidden" });
  });

  it("suggests the latest-state table for the latest-row pattern, and its rewrite answers the same rows", async () => {
    const { page } = browser;
    const pattern = `SELECT ticker, status, sync_timestamp
FROM (
  SELECT ticker, status, sync_timestamp,
    row_number() OVER (PARTITION BY ticker ORDER BY sync_timestamp DESC) AS rn
  FROM kalshi.markets
  WHERE sync_timestamp >= now() - INTERVAL 1 DAY
)
WHERE rn = 1
ORDER BY ticker
LIMIT 100`;
    await replaceSql(pattern);
    const advice = page.getByTestId("query-advice");
    await expect.poll(() => advice.textContent()).toContain("Faster: read kalshi.markets_latest");
    await page.keyboard.press("Control+Enter");
    const grid = page.getByRole("table", { name: "Query results" });
    const count = page.getByText(/^\d+ rows?$/);
    await count.waitFor();
    const [rowsBefore, before] = [await count.textContent(), await grid.textContent()];
    await browser.screenshot("editor-query-advice");

    await advice.getByRole("button", { name: "Use the faster query" }).click();
    await expect.poll(() => editor().textContent()).toContain("FROM kalshi.markets_latest FINAL");
    await expect.poll(() => advice.count()).toBe(0);
    await page.keyboard.press("Control+Enter");
    await page
      .getByText(/Rewritten to the faster form/)
      .waitFor({ state: "detached" })
      .catch(() => undefined);
    // The grid draws the rows on screen, more of them once the advice has gone: the same rows, in the same order.
    await expect.poll(async () => (await grid.textContent())?.startsWith(before ?? "-")).toBe(true);
    expect(await count.textContent()).toBe(rowsBefore);
  });
});
