/**
 * What a new user trips over (issue 13), in a real browser, as a user who has just been
 * let in: the empty gallery, dialogs that take the keyboard at once, the editor's
 * completion, selections, drafts, downloads and charts, page titles, detail views without
 * the sidebar, and the product's own words when the server gives none.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, openBrowser } from "./browser";
import { E2E_ADMIN } from "./global-setup";
import { e2eServer } from "./server";
import { signIn, signInThroughLogin } from "./session";

const { baseUrl, dataDir } = e2eServer();
const FRESH = `fresh-${Date.now()}@e2e.test`;

describe("a new user's first session", () => {
  let user: BrowserSession;
  const dialogs: string[] = [];

  beforeAll(async () => {
    const admin = await openBrowser({ width: 1280, height: 800 });
    try {
      await signIn(admin.page, baseUrl, dataDir, E2E_ADMIN);
      const session = await admin.page.evaluate(() => localStorage.getItem("epicenter.session"));
      const token = (JSON.parse(session ?? "{}") as { accessToken: string }).accessToken;
      const added = await fetch(`${baseUrl}/api/admin/allow-list`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ email: FRESH }),
      });
      expect(added.status).toBe(201);
    } finally {
      await admin.close();
    }
    user = await openBrowser({ width: 1440, height: 900 });
    user.page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
    await signInThroughLogin(user.page, baseUrl, dataDir, FRESH);
  });
  afterAll(async () => {
    await user?.close();
  });

  const editor = () => user.page.locator(".cm-content");
  const replaceSql = async (sql: string) => {
    await editor().click();
    await user.page.keyboard.press("Control+a");
    await user.page.keyboard.press("Delete");
    await user.page.keyboard.insertText(sql);
  };

  it("shows 'No queries yet' with Create Query when there is nothing to list", async () => {
    const { page } = user;
    await page.goto(`${baseUrl}/queries`);
    await page.getByRole("switch", { name: "Examples" }).uncheck();
    await page.getByRole("heading", { name: "No queries yet" }).waitFor();
    await user.screenshot("gallery-empty");
    await page.getByRole("searchbox", { name: "Search queries" }).fill("zzz");
    await page.getByText("No query matches “zzz”.").waitFor();
    await page.getByRole("searchbox", { name: "Search queries" }).fill("");
    await page.getByRole("button", { name: "Create Query" }).click();
    await page.waitForURL(`${baseUrl}/queries/new`);
  });

  it("offers functions as the engine spells them, and the columns of the tables read", async () => {
    const { page } = user;
    await replaceSql("");
    await page.keyboard.type("SELECT toStartOfHo");
    const option = page.locator(".cm-tooltip-autocomplete li", { hasText: /^toStartOfHour/ });
    await option.first().waitFor();
    // A regular expression: Playwright's text match ignores case, this must not.
    expect(await page.locator(".cm-tooltip-autocomplete li", { hasText: /TOSTARTOFHOUR/ }).count()).toBe(0);
    // Under load the list can be drawn again as the click lands (seen in CI): click until it takes.
    await expect
      .poll(
        async () => {
          if (!(await editor().textContent())?.includes("toStartOfHour")) {
            await option
              .first()
              .click({ timeout: 2_000 })
              .catch(() => undefined);
          }
          return editor().textContent();
        },
        { timeout: 20_000 },
      )
      .toContain("toStartOfHour");

    await replaceSql("SELECT  FROM polymarket.markets_latest");
    await page.keyboard.press("Control+Home");
    for (let step = 0; step < 7; step++) await page.keyboard.press("ArrowRight");
    await page.keyboard.type("questi");
    await page
      .locator(".cm-tooltip-autocomplete li", { hasText: /^question/ })
      .first()
      .waitFor();
    await user.screenshot("editor-column-completion");
    await page.keyboard.press("Escape");
  });

  it("runs only the selected text", async () => {
    const { page } = user;
    await replaceSql("SELECT 1 AS first_one\nSELECT 2 AS second_one");
    await page.keyboard.press("Control+End");
    await page.keyboard.press("Shift+Home");
    await page.keyboard.press("Control+Enter");
    const grid = page.getByRole("table", { name: "Query results" });
    await grid.waitFor();
    await expect
      .poll(() => grid.getByRole("columnheader").allTextContents())
      .toContainEqual(expect.stringContaining("second_one"));
    // Issue 24, #5: the download holds what the grid shows, not the two statements.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download CSV" }).click(),
    ]);
    expect(
      readFileSync(await download.path(), "utf8")
        .trim()
        .split("\n"),
    ).toEqual(['"second_one"', "2"]);
  });

  it("says what a download holds", async () => {
    const { page } = user;
    const downloads = page.getByRole("group", { name: "Download all rows, up to 1,000,000" });
    await downloads.getByText("All rows, up to 1,000,000:").waitFor();
    expect(await downloads.getByRole("button", { name: "Download CSV" }).getAttribute("title")).toMatch(
      /leading ' so spreadsheets show them as text/,
    );
  });

  it("draws series of different scales on two axes, named by column, and says when it plots part", async () => {
    const { page } = user;
    await page.getByRole("combobox", { name: "Row limit" }).selectOption("10000");
    await replaceSql("SELECT toString(number) AS label, number AS small, number * 100000 AS big FROM numbers(6000)");
    await page.keyboard.press("Control+Enter");
    await page.getByText("6,000 rows").waitFor();
    await page.getByRole("tab", { name: "Chart" }).click();
    // Text on x makes a bar chart, which plots fewer rows than a line: each bar is an element.
    await page.getByText("Plotting the first 1,000 of 6,000 rows: pick line for up to 5,000.").waitFor();
    await page.getByText("line", { exact: true }).click();
    await page.getByText("Plotting the first 5,000 of 6,000 rows.").waitFor();
    const chart = page.getByTestId("result-chart");
    await expect.poll(() => chart.locator(".recharts-yAxis").count()).toBe(2);
    const legend = await chart.locator(".recharts-legend-wrapper").textContent();
    expect(legend).toContain("small (left)");
    expect(legend).toContain("big (right)");
    await user.screenshot("editor-chart-two-axes");
  });

  it("keeps a new query's draft across a reload, and asks before leaving unsaved work", async () => {
    const { page } = user;
    await page.goto(`${baseUrl}/queries/new`);
    await replaceSql("SELECT 42 AS answer");
    await page.reload();
    await editor().waitFor();
    expect(await editor().textContent()).toBe("SELECT 42 AS answer");
    const asked = dialogs.length;
    await page.getByRole("link", { name: "Back to Queries" }).click();
    await page.waitForURL(`${baseUrl}/queries`);
    expect(dialogs.slice(asked)).toContainEqual(expect.stringMatching(/unsaved changes/));
    // Left on purpose: the next new query starts from the template again.
    await page.goto(`${baseUrl}/queries/new`);
    expect(await editor().textContent()).toContain("LIMIT 10");
  });

  it("opens the Save dialog on its title field and saves with Ctrl+Enter from anywhere in it", async () => {
    const { page } = user;
    await page.goto(`${baseUrl}/queries/new`);
    await editor().waitFor();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Save Query" });
    await dialog.waitFor();
    // Typing goes straight into the title.
    await page.keyboard.press("Control+a");
    await page.keyboard.type("My first query");
    expect(await dialog.getByLabel("Title").inputValue()).toBe("My first query");
    await dialog.getByText("Description").click();
    await page.keyboard.press("Control+Enter");
    await page.waitForURL(/\/queries\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.title()).toBe("My first query — Epicenter");
  });

  it("gives each page its own title", async () => {
    const { page } = user;
    const titles: Record<string, string> = {
      "/queries": "Queries — Epicenter",
      "/datasets": "Data Catalog — Epicenter",
      "/datasets/polymarket-markets": "polymarket.markets — Epicenter",
      "/dashboards": "Dashboards — Epicenter",
      "/dashboards/kalshi-pulse": "Kalshi Pulse — Epicenter",
      "/hub/status": "System & Data — Hub — Epicenter",
      "/intelligence": "Seismo — Epicenter",
    };
    for (const [path, title] of Object.entries(titles)) {
      await page.goto(`${baseUrl}${path}`);
      await expect.poll(() => page.title(), { timeout: 10_000 }).toBe(title);
    }
  });

  it("hides the sidebar on a dataset and on a dashboard, and shows it on their lists", async () => {
    const { page } = user;
    const sidebar = page.getByRole("complementary", { name: "Main navigation" });
    for (const [path, isShown] of [
      ["/datasets/polymarket-markets", false],
      ["/dashboards/polymarket-pulse", false],
      ["/datasets", true],
      ["/dashboards", true],
    ] as const) {
      await page.goto(`${baseUrl}${path}`);
      await page.getByRole("heading", { level: 1 }).first().waitFor();
      expect(await sidebar.count(), path).toBe(isShown ? 1 : 0);
    }
    await page.goto(`${baseUrl}/datasets/polymarket-markets`);
    await page.getByRole("button", { name: "Back to Catalog" }).first().waitFor();
    await user.screenshot("dataset-without-sidebar");
  });

  it("words a failed key creation as the product does: the server's detail, or its own sentence", async () => {
    const { page } = user;
    await page.goto(`${baseUrl}/hub/api`);
    let answer = { status: 500, body: JSON.stringify({ detail: "You have too many keys." }) };
    await page.route("**/api/keys/create", (route) =>
      route.fulfill({ status: answer.status, contentType: "application/json", body: answer.body }),
    );
    await page.getByRole("button", { name: "Create key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create API key" });
    await page.keyboard.type("notebook");
    await page.keyboard.press("Control+Enter");
    await dialog.getByRole("alert").filter({ hasText: "You have too many keys." }).waitFor();
    answer = { status: 502, body: "<html>Bad gateway</html>" };
    await dialog.getByRole("button", { name: "Create" }).click();
    await dialog.getByRole("alert").filter({ hasText: "Failed to create API key" }).waitFor();
    expect(await dialog.textContent()).not.toMatch(/answered 502/);
    await page.unroute("**/api/keys/create");
  });
});

describe("the sign-in page when the server fails without a word", () => {
  it("says 'Failed to send login email'", async () => {
    const browser = await openBrowser({ width: 1280, height: 800 });
    try {
      const { page } = browser;
      await page.route("**/api/auth/magic-link", (route) =>
        route.fulfill({ status: 500, contentType: "text/html", body: "<h1>Internal Server Error</h1>" }),
      );
      await page.goto(`${baseUrl}/login`);
      await page.getByLabel("Email").fill("someone@e2e.test");
      await page.getByRole("button", { name: "REQUEST ACCESS" }).click();
      await page.getByText("Failed to send login email").waitFor();
      expect(await page.locator("body").textContent()).not.toMatch(/answered 500/);
    } finally {
      await browser.close();
    }
  });
});
