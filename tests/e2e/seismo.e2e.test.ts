/**
 * Seismo in a real browser against the scripted model server: ask, watch the answer
 * stream in, run its SQL block inline, open it in the editor; an analyst report with a
 * chart; and the page at 390 px.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, openBrowser } from "./browser";
import { E2E_USER } from "./global-setup";
import { e2eServer } from "./server";
import { signIn } from "./session";

const { baseUrl, dataDir, seismoLlmUrl } = e2eServer();
const llmUrl = seismoLlmUrl.replace(/\/v1$/, "");

interface ScriptedAnswer {
  text?: string;
  toolCalls?: Array<{ name: string; arguments: Record<string, unknown> }>;
  chunkDelayMs?: number;
}

async function script(answers: ScriptedAnswer[]): Promise<void> {
  await fetch(`${llmUrl}/__requests`, { method: "DELETE" });
  const response = await fetch(`${llmUrl}/__script`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ answers }),
  });
  expect(response.ok).toBe(true);
}

async function modelRequests(): Promise<Array<{ body: { messages: Array<{ role: string; content: unknown }> } }>> {
  return ((await (await fetch(`${llmUrl}/__requests`)).json()) as { requests: never[] }).requests;
}

const SQL = "SELECT count() AS markets\nFROM polymarket.markets_latest FINAL\nWHERE NOT ifNull(closed, false)";
const ANSWER = `## Open Polymarket markets\nThis counts the markets that are open right now, from the latest-state table, one row per market:\n\n\`\`\`sql\n${SQL}\n\`\`\`\n\nUse \`FINAL\` so each market is counted once.`;

describe("Seismo on a wide screen (1440 px)", () => {
  let browser: BrowserSession;
  beforeAll(async () => {
    browser = await openBrowser({ width: 1440, height: 900 });
    await signIn(browser.page, baseUrl, dataDir, E2E_USER);
  });
  afterAll(async () => {
    await browser.close();
  });

  it("asks, streams the answer, runs its SQL inline and opens it in the editor", async () => {
    const { page } = browser;
    await script([{ text: ANSWER, chunkDelayMs: 70 }]);
    await page.goto(`${baseUrl}/intelligence`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Intelligence");
    await page.getByRole("button", { name: /Which open Polymarket markets had the biggest 24h volume/ }).waitFor();
    await browser.screenshot("seismo-empty-1440");

    await page.getByLabel("Ask Seismo").fill("How many Polymarket markets are open?");
    await page.keyboard.press("Enter");

    // The text arrives in pieces: part of it is on screen while Stop is still offered.
    const answer = page.getByTestId("seismo-answer");
    await answer.getByText("Open Polymarket markets").waitFor();
    const stop = page.getByRole("button", { name: "Stop" });
    expect(await stop.isVisible()).toBe(true);
    const partial = (await answer.textContent()) ?? "";
    expect(partial.length).toBeGreaterThan(0);
    expect(partial).not.toContain("counted once");
    await page.screenshot({ path: "test-results/screenshots/seismo-streaming-1440.png" });

    await answer.getByText("Checked · 1 row").waitFor();
    await expect.poll(() => answer.textContent()).toContain("counted once");
    expect(await stop.count()).toBe(0);
    const block = answer.getByTestId("sql-block");
    expect(await block.locator("code").textContent()).toBe(SQL);
    // Seismo's own check of the SQL is shown as a tool card.
    await answer.getByTestId("tool-card").getByText("Checked the answer's SQL").waitFor();

    await block.getByRole("button", { name: "Run" }).click();
    const result = block.getByTestId("sql-result");
    await result.waitFor();
    expect(await result.locator("th").allTextContents()).toEqual(["markets"]);
    // Other suites may load markets into the same server; the count is whatever is there.
    expect(await result.locator("td").allTextContents()).toEqual([expect.stringMatching(/^\d+$/)]);
    await browser.screenshot("seismo-answer-1440");

    const [request] = await modelRequests();
    expect(request?.body.messages.at(-1)).toEqual({ role: "user", content: "How many Polymarket markets are open?" });

    await block.getByRole("button", { name: "Open in Editor" }).click();
    await page.waitForURL((url) => url.pathname === "/queries/new");
    const url = new URL(page.url());
    expect(url.searchParams.get("sql")).toBe(SQL);
    expect(url.searchParams.get("title")).toBe("Open Polymarket markets");
  });

  it("shows an analyst's queries as cards and its report with a chart", async () => {
    const { page } = browser;
    const chartSql = "SELECT toString(number + 1) AS bucket, (number + 1) * 3 AS markets FROM numbers(5)";
    await script([
      {
        toolCalls: [
          { name: "execute_query", arguments: { sql: "SELECT count() AS markets FROM kalshi.markets_latest FINAL" } },
        ],
      },
      {
        toolCalls: [
          {
            name: "produce_report",
            arguments: {
              title: "Markets by bucket",
              markdown: "- **15** markets in the busiest bucket\n- Activity rises steadily across buckets",
              charts: [{ title: "Markets per bucket", sql: chartSql, type: "bar", x: "bucket", y: ["markets"] }],
            },
          },
        ],
      },
      { text: "The report above shows markets rising steadily across the five buckets.", chunkDelayMs: 10 },
    ]);
    await page.goto(`${baseUrl}/intelligence`);
    await page.getByText("Analyst", { exact: true }).first().click();
    await page.getByLabel("Ask Seismo").fill("Give me an overview by bucket");
    await page.getByRole("button", { name: "Send" }).click();
    const answer = page.getByTestId("seismo-answer");
    await answer.getByText("rising steadily across the five buckets").waitFor();
    const report = page.getByRole("region", { name: "Report: Markets by bucket" });
    await report.waitFor();
    await expect.poll(() => report.locator(".recharts-bar-rectangle").count()).toBe(5);
    const cards = answer.getByTestId("tool-card");
    expect(await cards.count()).toBe(2);
    // The report sits under the card of the call that produced it, above the closing summary.
    expect(await report.evaluate((node) => node.previousElementSibling?.getAttribute("data-testid"))).toBe("tool-card");
    await cards.first().locator("summary").click();
    await cards.first().locator("pre").waitFor();
    expect(await cards.first().locator("pre").textContent()).toContain("kalshi.markets_latest");
    await browser.screenshot("seismo-report-1440");
  });
});

describe("Seismo on a phone (390 px)", () => {
  let browser: BrowserSession;
  beforeAll(async () => {
    browser = await openBrowser({ width: 390, height: 844, isMobile: true });
    await signIn(browser.page, baseUrl, dataDir, E2E_USER);
  });
  afterAll(async () => {
    await browser.close();
  });

  it("fits the conversation, the SQL block and the composer on a small screen", async () => {
    const { page } = browser;
    await script([{ text: ANSWER }]);
    await page.goto(`${baseUrl}/intelligence`);
    await page.getByRole("button", { name: /Which open Polymarket markets had the biggest 24h volume/ }).waitFor();
    await browser.screenshot("seismo-empty-390");
    await page.getByLabel("Ask Seismo").fill("How many Polymarket markets are open?");
    await page.getByRole("button", { name: "Send" }).click();
    const answer = page.getByTestId("seismo-answer");
    await answer.getByText("Checked · 1 row").waitFor();
    const width = await page.evaluate("document.documentElement.scrollWidth");
    expect(width).toBeLessThanOrEqual(390);
    await answer.getByTestId("sql-block").getByRole("button", { name: "Run" }).click();
    await answer.getByTestId("sql-result").waitFor();
    await browser.screenshot("seismo-answer-390");
  });
});
