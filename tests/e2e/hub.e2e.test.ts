/**
 * The hub in a real browser: status with both sources that updates by itself when the
 * server's scheduler lands a sync run (every E2E_SYNC_INTERVAL_SECONDS against the replay
 * upstream) and shows Offline/Down when /health fails; the API page's curl example for
 * /api/query run as-is with a real key; docs, changelog, support; and the phone layout.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserSession } from "./browser";
import { E2E_SYNC_INTERVAL_SECONDS, E2E_USER } from "./global-setup";
import { e2eServer } from "./server";
import { openSignedInPair } from "./session";

const { baseUrl, dataDir } = e2eServer();
const SESSION_KEY = "epicenter.session";
const run = promisify(execFile);

describe("the hub", () => {
  let wide: BrowserSession;
  let phone: BrowserSession;
  beforeAll(async () => {
    ({ wide, phone } = await openSignedInPair(baseUrl, dataDir, E2E_USER));
  });
  afterAll(async () => {
    await wide?.close();
    await phone?.close();
  });

  it("shows the five cards and v1.1.0", async () => {
    const { page } = wide;
    await page.goto(`${baseUrl}/hub`);
    await expect
      .poll(() => page.getByTestId("hub-card").allTextContents())
      .toEqual([
        expect.stringContaining("System & Data"),
        expect.stringContaining("Docs"),
        expect.stringContaining("API Access"),
        expect.stringContaining("Changelog"),
        expect.stringContaining("Support"),
      ]);
    expect(await page.getByText("v1.1.0").count()).toBeGreaterThan(0);
    await wide.screenshot("hub-1440");
  });

  it(
    "shows both sources on the status page and updates them after a sync run without a reload",
    async () => {
      const { page } = wide;
      await page.goto(`${baseUrl}/hub/status`);
      const polymarket = page.getByTestId("source-polymarket");
      const kalshi = page.getByTestId("source-kalshi");
      await polymarket.waitFor();
      await kalshi.waitFor();
      const lastSync = (card: typeof polymarket) => card.getByTestId("last-sync").getAttribute("data-last-sync");
      // The server syncs at start; wait for that first run to show.
      await expect.poll(() => lastSync(polymarket), { timeout: 90_000 }).not.toBe("");
      await expect.poll(() => lastSync(kalshi), { timeout: 90_000 }).not.toBe("");
      expect(await page.getByTestId("api-status").textContent()).toContain("Online");
      expect(await page.getByTestId("response-time").textContent()).toMatch(/^\d+ ms$/);
      expect(await page.getByTestId("data-sources").textContent()).toContain("2");
      // Issue 23: the page says whether user SQL runs confined (CI installs bubblewrap).
      expect(await page.getByTestId("sandbox-status").textContent()).toContain("User SQL runs confined");
      expect(Number((await polymarket.getByTestId("total-markets").textContent())?.replace(/,/g, ""))).toBeGreaterThan(
        0,
      );
      // Each venue's history progress: markets done of those known, filling in as the worker goes.
      for (const venue of ["polymarket", "kalshi"]) {
        const progress = page.getByTestId(`history-${venue}`);
        await expect
          .poll(() => progress.getByTestId("history-markets").textContent(), { timeout: 90_000 })
          .toMatch(/^[1-9][\d,]* \/ [\d,]+ \(\d+%\)$/);
        // Of the open markets, those current by the schedule; and each trade tape's reach and lag.
        await expect
          .poll(() => progress.getByTestId("history-open").textContent(), { timeout: 90_000 })
          .toMatch(/^[1-9][\d,]* \/ [\d,]+ \(\d+%\)$/);
        await expect
          .poll(() => progress.getByTestId("history-tape").textContent(), { timeout: 90_000 })
          .toMatch(/UTC \((\d+ s|\d+ min) behind\)$/);
        // The open market furthest behind its schedule, linked to its page, or none.
        const gap = progress.getByTestId("history-gap");
        expect(await gap.textContent()).toMatch(
          /^(None|.+: (not reached yet, opened \w+ \d+, \d{4}|(upstream error|refresh due), stored to .+ UTC \(.+ ago\)))$/,
        );
        if ((await gap.textContent()) !== "None") {
          expect(await gap.getByRole("link").getAttribute("href")).toMatch(new RegExp(`^/markets/${venue}/.+`));
        }
      }
      await wide.screenshot("hub-status-1440");

      const before = await lastSync(polymarket);
      // The next scheduled run lands within the interval; the page's 30 s recheck shows it.
      await expect
        .poll(() => lastSync(polymarket), { timeout: (E2E_SYNC_INTERVAL_SECONDS + 60) * 1000, interval: 2_000 })
        .not.toBe(before);
      expect(Date.parse((await lastSync(polymarket)) ?? "")).toBeGreaterThan(Date.parse(before ?? ""));
      expect(await polymarket.getByTestId("last-sync").textContent()).toMatch(/Just now|1 minute ago/);
      await wide.screenshot("hub-status-after-sync-1440");

      await page.route("**/health", (route) => route.abort());
      await page.reload();
      await expect.poll(() => page.getByTestId("api-status").textContent(), { timeout: 20_000 }).toContain("Offline");
      expect(await page.getByTestId("api-status").textContent()).toContain("Down");
      await wide.screenshot("hub-status-offline-1440");
      await page.unroute("**/health");
    },
    (E2E_SYNC_INTERVAL_SECONDS + 180) * 1000,
  );

  it("gives a curl example for /api/query that returns rows when run with a real key", async () => {
    const { page } = wide;
    await page.goto(`${baseUrl}/hub/api`);
    const endpoints = page.getByTestId("api-endpoint");
    await expect.poll(() => endpoints.count()).toBe(7);
    expect(await endpoints.evaluateAll((cards) => cards.map((card) => card.getAttribute("data-endpoint")))).toEqual([
      "POST /api/query",
      "GET /api/tables",
      "GET /api/table/{namespace}/{table}",
      "GET /api/table/{namespace}/{table}/sample",
      "GET /api/queries/stats",
      "GET /api/sync/status",
      "GET /health",
    ]);
    const curl = (await page
      .locator('[data-endpoint="POST /api/query"]')
      .getByTestId("curl-example")
      .locator("code")
      .textContent()) as string;
    expect(curl).toContain(`"${baseUrl}/api/query"`);
    await wide.screenshot("hub-api-1440");

    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByRole("dialog", { name: "Create API key" }).getByLabel("Name").fill("curl example");
    await page.getByRole("button", { name: "Create", exact: true }).click();
    const key = (await page.getByTestId("new-api-key").textContent()) as string;
    expect(key).toMatch(/^ep_live_/);
    await page.getByRole("button", { name: "Done" }).click();

    const { stdout } = await run("bash", ["-c", curl], { env: { ...process.env, EPICENTER_API_KEY: key } });
    const answer = JSON.parse(stdout) as {
      success: boolean;
      result: { row_count: number; data: Array<Record<string, unknown>> };
    };
    expect(answer.success).toBe(true);
    expect(answer.result.row_count).toBeGreaterThan(0);
    expect(answer.result.data[0]).toHaveProperty("question");

    await page.getByRole("link", { name: "Interactive reference" }).click();
    await page.waitForURL(`${baseUrl}/hub/api/reference`);
    await page.getByRole("heading", { level: 1, name: "API reference" }).waitFor();
    const operation = page.locator("details").filter({ hasText: "/api/stats" }).first();
    await operation.locator("summary").click();
    await operation.getByRole("button", { name: "Send request" }).click();
    await expect.poll(() => operation.locator("figcaption").last().textContent()).toMatch(/^200 /);
    await wide.screenshot("hub-api-reference-1440");
    // Issue 24, defect 8: no internal notes, and names in descriptions shown as code, not backticks.
    const query = page.locator("details").filter({ hasText: "/api/query" }).first();
    await query.locator("summary").click();
    const text = (await page.locator("main").innerText()) as string;
    expect(text).not.toMatch(/SPEC §/);
    expect(text).not.toContain("`");
  });

  it("computes the docs' zero-volume share of Kalshi markets from the data", async () => {
    const { page } = wide;
    await page.goto(`${baseUrl}/hub/docs`);
    const share = page.getByTestId("kalshi-zero-volume-share");
    await share.waitFor();
    const token = JSON.parse((await page.evaluate((key) => localStorage.getItem(key), SESSION_KEY)) as string)
      .accessToken as string;
    const response = await fetch(`${baseUrl}/api/query`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        query: "SELECT round(100 * countIf(ifNull(volume, 0) = 0) / count()) AS share FROM kalshi.markets_latest FINAL",
      }),
    });
    const { result } = (await response.json()) as { result: { data: Array<{ share: number }> } };
    expect(await share.textContent()).toBe(`${result.data[0]?.share}%`);
    expect(
      await page.getByText("row_number() OVER (PARTITION BY id ORDER BY sync_timestamp DESC)").count(),
    ).toBeGreaterThanOrEqual(1);
    await wide.screenshot("hub-docs-1440");
  });

  it("lists the changelog versions with migration guides and the known issue", async () => {
    const { page } = wide;
    await page.goto(`${baseUrl}/hub/changelog`);
    const entries = page.getByTestId("changelog-entry");
    await expect.poll(() => entries.count()).toBe(3);
    const texts = await entries.allTextContents();
    expect(texts.map((text) => text.match(/v\d\.\d\.\d/)?.[0])).toEqual(["v1.2.0", "v1.1.0", "v1.0.0"]);
    for (const text of texts) {
      expect(text).toContain("Migration guide");
      expect(text).toContain("✗ Wrong");
      expect(text).toContain("TL;DR");
    }
    const issue = await page.getByTestId("known-issue").textContent();
    expect(issue).toContain("Oct 6 2025 16:22 UTC – Oct 10 2025 02:20 UTC");
    expect(issue).toContain("Resolved");
    await wide.screenshot("hub-changelog-1440");

    await page.goto(`${baseUrl}/hub/support`);
    await page.getByText("FAQ").first().waitFor();
    // No contact is configured on this server: a user sees the FAQ, not the server's setting names.
    // (While the server's settings load, both cards hold a spinner; the answer comes after.)
    await expect.poll(() => page.getByTestId("support-email").count()).toBe(0);
    await expect.poll(() => page.getByTestId("support-community").count()).toBe(0);
    expect(await page.locator("main").textContent()).not.toMatch(/SUPPORT_EMAIL|COMMUNITY_URL/);
    await wide.screenshot("hub-support-1440");
  });

  it("fits a phone with the section tabs above the bottom navigation", async () => {
    const { page } = phone;
    await page.goto(`${baseUrl}/hub/status`);
    await page.getByTestId("source-kalshi").waitFor();
    const tabs = page.getByRole("navigation", { name: "Hub sections" });
    await expect.poll(() => tabs.count()).toBe(1);
    expect(await tabs.getByRole("link").count()).toBe(5);
    const width = await page.evaluate<number>("document.documentElement.scrollWidth");
    expect(width).toBeLessThanOrEqual(390);
    await phone.screenshot("hub-status-390");
    await tabs.getByRole("link", { name: "API" }).click();
    await page.waitForURL(`${baseUrl}/hub/api`);
    await page.getByTestId("api-endpoint").first().waitFor();
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    await phone.screenshot("hub-api-390");
  });
});
