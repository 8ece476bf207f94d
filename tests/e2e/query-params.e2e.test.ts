/**
 * Saved queries with ClickHouse's typed parameters, in a real browser: the editor finds
 * `{days:UInt16}`, shows its input with the type's validation, refuses to run without a
 * usable value, runs with the value bound by the engine, keeps it in the URL as
 * `param_days` (through a reload, SQL edits and a save), and the hub's API page documents
 * the saved query as an API, the ClickHouse interface and the MCP server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, openBrowser } from "./browser";
import { E2E_USER } from "./global-setup";
import { e2eServer } from "./server";
import { signIn } from "./session";

const { baseUrl, dataDir } = e2eServer();
const SQL = "SELECT number AS n, number * 10 AS tens\nFROM numbers(100)\nWHERE number < {days:UInt16}\nORDER BY n";
const TITLE = `First days ${Date.now()}`;

describe("saved queries with parameters", () => {
  let browser: BrowserSession;
  beforeAll(async () => {
    browser = await openBrowser({ width: 1440, height: 900 });
    browser.page.on("dialog", (dialog) => void dialog.accept());
    await signIn(browser.page, baseUrl, dataDir, E2E_USER);
  });
  afterAll(async () => {
    await browser.close();
  });

  const daysInput = () => browser.page.getByRole("spinbutton", { name: "days UInt16" });
  const paramDays = () => new URL(browser.page.url()).searchParams.get("param_days");

  it("shows one labelled input per parameter and will not run without a value", async () => {
    const { page } = browser;
    await page.goto(`${baseUrl}/queries/new?${new URLSearchParams({ sql: SQL, title: TITLE })}`);
    await daysInput().waitFor();
    const parameters = page.getByTestId("query-parameters");
    expect(await parameters.textContent()).toContain("UInt16");
    expect(await page.getByRole("button", { name: "Download CSV" }).isDisabled()).toBe(true);

    await page.getByRole("button", { name: "Run", exact: true }).click();
    await parameters.getByText("Enter a value.").waitFor();
    expect(await page.evaluate("document.activeElement?.id")).toBe("query-parameter-days");
    expect(await page.getByText("Run the query with").count()).toBe(1);
  });

  it("says what the type expects while an invalid value is typed", async () => {
    const { page } = browser;
    await daysInput().fill("70000");
    await page.getByText("Expected a whole number from 0 to 65535.").waitFor();
    expect(await daysInput().getAttribute("aria-invalid")).toBe("true");
    await browser.screenshot("query-params-invalid");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    expect(await page.getByText("Run the query with").count()).toBe(1);
  });

  it("runs with a valid value, shows the rows and keeps the value in the URL", async () => {
    const { page } = browser;
    await daysInput().fill("7");
    await page.getByText("Expected a whole number").waitFor({ state: "detached" });
    await expect.poll(paramDays).toBe("7");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const grid = page.getByRole("table", { name: "Query results" });
    await grid.waitFor();
    await page.getByText("7 rows").waitFor();
    expect(await grid.getByRole("row").nth(7).getByRole("cell").allTextContents()).toEqual(["7", "6", "60"]);
    await browser.screenshot("query-params");
  });

  it("brings the value back from the URL and keeps it through SQL edits", async () => {
    const { page } = browser;
    await page.reload();
    await daysInput().waitFor();
    expect(await daysInput().inputValue()).toBe("7");

    const editor = page.locator(".cm-content");
    await editor.click();
    await page.keyboard.press("Control+a");
    await page.keyboard.insertText("SELECT 1 AS one");
    await page.getByTestId("query-parameters").waitFor({ state: "detached" });
    await expect.poll(paramDays).toBeNull();

    await page.keyboard.press("Control+z");
    await daysInput().waitFor();
    expect(await daysInput().inputValue()).toBe("7");
    await expect.poll(paramDays).toBe("7");
    // The keyboard shortcut runs with the values too.
    await editor.click();
    await page.keyboard.press("Control+Enter");
    await page.getByText("7 rows").waitFor();
  });

  it("saves the query, opens it by id with the value, and runs it there", async () => {
    const { page } = browser;
    await page.getByRole("button", { name: "Save", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Save Query" });
    await dialog.getByLabel("Title").fill(TITLE);
    await dialog.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/\/queries\/[0-9a-f-]{36}\?param_days=7$/);

    await page.reload();
    await daysInput().waitFor();
    expect(await daysInput().inputValue()).toBe("7");
    await daysInput().fill("3");
    await expect.poll(paramDays).toBe("3");
    await daysInput().press("Enter");
    await page.getByText("3 rows").waitFor();

    // Opened by its id alone (a card, a bookmark without the value), it has the value it was saved with.
    const path = new URL(page.url()).pathname;
    await page.goto(`${baseUrl}${path}`);
    await daysInput().waitFor();
    expect(await daysInput().inputValue()).toBe("7");
    await expect.poll(paramDays).toBe("7");

    await page.goto(`${baseUrl}/queries`);
    await page.getByLabel("Search queries").fill(TITLE);
    const card = page.getByRole("article", { name: TITLE });
    await card.getByRole("button", { name: "Delete" }).click();
    await card.waitFor({ state: "detached" });
  });

  it("documents the saved query as an API, the ClickHouse interface and the MCP server on the API page", async () => {
    const { page } = browser;
    await page.goto(`${baseUrl}/hub/api`);
    const savedQueryApi = page.getByTestId("saved-query-api");
    await savedQueryApi.waitFor();
    const curl = (await savedQueryApi.getByTestId("saved-query-curl").locator("pre").textContent()) ?? "";
    expect(curl).toContain(`"${baseUrl}/api/query"`);
    expect(curl).toContain('"params":{"market_id":"512272","days":7}');
    expect(await savedQueryApi.textContent()).toContain("Parameter days (UInt16) has no value.");

    const clickhouse = page.getByTestId("clickhouse-interface");
    expect(await clickhouse.textContent()).toContain("CLICKHOUSE_HTTP_PORT");
    expect(await clickhouse.getByTestId("clickhouse-example").textContent()).toContain(
      `curl -u "epicenter:$EPICENTER_API_KEY" "${baseUrl}/clickhouse/?query=SELECT%201"`,
    );
    await clickhouse.getByRole("tab", { name: "Node.js" }).click();
    expect(await clickhouse.getByTestId("clickhouse-example").textContent()).toContain('pathname: "/clickhouse"');

    const mcp = page.getByTestId("mcp-server");
    for (const tool of ["list_tables", "describe_table", "run_query", "search_markets", "list_saved_queries"]) {
      expect(await mcp.textContent()).toContain(tool);
    }
    await mcp.getByRole("tab", { name: "Claude Desktop (stdio)" }).click();
    expect(await mcp.getByTestId("mcp-stdio-config").textContent()).toContain('"EPICENTER_URL"');

    const jumpTo = async (name: string, hash: string) => {
      await page.getByRole("navigation", { name: "On this page" }).getByRole("link", { name }).click();
      await expect.poll(() => new URL(page.url()).hash).toBe(hash);
    };
    await jumpTo("Saved queries as an API", "#saved-query-api");
    await browser.screenshot("hub-api-saved-query");
    await jumpTo("ClickHouse interface", "#clickhouse-interface");
    await browser.screenshot("hub-api-connect");
    await jumpTo("MCP server", "#mcp-server");
    await browser.screenshot("hub-api-mcp");

    // The example opens in the editor with `days` filled in and `market_id` asking for a value.
    await savedQueryApi.getByRole("link", { name: "Open in editor" }).click();
    await page.waitForURL(/\/queries\/new\?/);
    expect(await daysInput().inputValue()).toBe("7");
    await page.getByRole("textbox", { name: "market_id String" }).waitFor();
  });
});
