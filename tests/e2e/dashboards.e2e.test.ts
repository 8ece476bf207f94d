/**
 * Dashboards in a real browser on the demo dataset: the list and its search, both Pulse
 * dashboards with every tile showing data and none failing, a tile opening its SQL in the
 * editor, the arbitrage monitor's pairs and gaps, and the phone layout.
 */
import { join } from "node:path";
import { type QueryResult, rowsAsObjects, type TileResult } from "@epicenter/contracts";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, SCREENSHOT_DIR } from "./browser";
import { E2E_ADMIN } from "./global-setup";
import { e2eServer } from "./server";
import { openSignedInPair } from "./session";

const { baseUrl, dataDir } = e2eServer();

async function tileStates(page: Page): Promise<Record<string, string>> {
  return page
    .getByTestId("dashboard-tile")
    .evaluateAll((tiles) =>
      Object.fromEntries(tiles.map((tile) => [tile.getAttribute("data-tile-id"), tile.getAttribute("data-state")])),
    );
}

async function waitForTiles(page: Page): Promise<Record<string, string>> {
  await page.getByTestId("dashboard-tile").first().waitFor();
  await expect
    .poll(async () => Object.values(await tileStates(page)).filter((state) => state === "loading").length, {
      timeout: 60_000,
    })
    .toBe(0);
  return tileStates(page);
}

/**
 * A test that polls the monitor twice, each poll up to 120 s (the seed pairs the markets and
 * the server's matcher passes again after its first snapshots): long enough that under CI's
 * load a slow poll fails with its own message, not the runner's timeout (seen once at 120 s).
 */
const POLLED_TEST_MS = 300_000;

/**
 * Opens the arbitrage monitor until every tile is ready: right after a confirmation the
 * quoted tiles are empty until user SQL's snapshot has moved on, and a load as an hour
 * turns may find the gap chart empty. A failure names the tiles not ready.
 */
async function openMonitorWhenReady(page: Page): Promise<void> {
  await expect
    .poll(
      async () => {
        await page.goto(`${baseUrl}/dashboards/arbitrage-monitor`);
        return Object.entries(await waitForTiles(page)).filter(([, state]) => state !== "ready");
      },
      { timeout: 120_000, interval: 2_000 },
    )
    .toEqual([]);
}

/** The World Cup pairs Admin → Cross-venue's test decides itself. */
const ADMIN_TEST_MARKETS = new Set(["558934", "558978", "559651"]);

/**
 * Candidates whose two markets were both quoted within one finished hour: the gap chart
 * draws a pair from such hours only (the running hour is left out), and the generated
 * history quotes a long shot on one venue while the other's bid sits at zero for hours.
 */
const CHARTABLE = `SELECT DISTINCT p.polymarket_id AS polymarket_id, p.kalshi_ticker AS kalshi_ticker
FROM crossvenue.market_pairs AS p FINAL
INNER JOIN (
  SELECT id, toStartOfHour(sync_timestamp) AS hour FROM polymarket.markets
  WHERE sync_timestamp >= now() - INTERVAL 7 DAY AND sync_timestamp < toStartOfHour(now()) AND bestBid > 0 AND bestAsk > 0
) AS pm ON pm.id = p.polymarket_id
INNER JOIN (
  SELECT ticker, toStartOfHour(sync_timestamp) AS hour FROM kalshi.markets
  WHERE sync_timestamp >= now() - INTERVAL 7 DAY AND sync_timestamp < toStartOfHour(now()) AND yes_bid_dollars > 0 AND yes_ask_dollars > 0
) AS k ON k.ticker = p.kalshi_ticker AND k.hour = pm.hour
WHERE p.relation = 'same_contract' AND p.method = 'auto'`;

/**
 * As an admin would in Admin → Cross-venue: confirms `count` of the matcher's unchecked
 * same-contract pairs, of those the gap chart can draw.
 */
async function confirmCandidates(page: Page, count: number): Promise<void> {
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem("epicenter.session") ?? "{}").accessToken);
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const pairKey = (row: Record<string, unknown>) => `${row.polymarket_id}/${row.kalshi_ticker}`;
  let candidates: Array<Record<string, unknown>> = [];
  // The seed pairs the markets (the archive's `runMatcher`); the server's matcher runs again.
  await expect
    .poll(
      async () => {
        const [tile, chartable] = await Promise.all([
          fetch(`${baseUrl}/api/dashboards/arbitrage-monitor/tiles/unchecked-pairs`, { headers }),
          fetch(`${baseUrl}/api/query/rows`, {
            method: "POST",
            headers,
            body: JSON.stringify({ query: CHARTABLE, limit: 1000 }),
          }),
        ]);
        if (!tile.ok || !chartable.ok) return 0;
        const drawn = new Set(rowsAsObjects((await chartable.json()) as QueryResult).map(pairKey));
        candidates = rowsAsObjects((await tile.json()) as TileResult).filter(
          (row) => !ADMIN_TEST_MARKETS.has(String(row.polymarket_id)) && drawn.has(pairKey(row)),
        );
        return candidates.length;
      },
      { timeout: 120_000, interval: 2_000 },
    )
    .toBeGreaterThanOrEqual(count);
  for (const row of candidates.slice(0, count)) {
    const response = await fetch(
      `${baseUrl}/api/admin/crossvenue/pairs/${row.polymarket_id}/${row.kalshi_ticker}/confirm`,
      { method: "POST", headers, body: "{}" },
    );
    expect(response.status).toBe(200);
  }
}

/**
 * Waits until the gap chart's tile draws `count` pairs. Tiles read the query sandbox's
 * snapshot of the warehouse, which an admin's decision moves on, so a confirmation shows
 * there once the new snapshot's workers have started (seen: about 3 s). The chart draws the widest pairs quoted on both venues now and the replay moves quotes at
 * every sync, so while it falls short, one more candidate is confirmed every 30 s.
 */
async function confirmUntilCharted(page: Page, count: number): Promise<void> {
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem("epicenter.session") ?? "{}").accessToken);
  const charted = async () => {
    const response = await fetch(`${baseUrl}/api/dashboards/arbitrage-monitor/tiles/gap-over-time`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!response.ok) return 0;
    return new Set(rowsAsObjects((await response.json()) as TileResult).map((row) => row.pair)).size;
  };
  let polls = 0;
  await expect
    .poll(
      async () => {
        const drawn = await charted();
        polls += 1;
        if (drawn < count && polls % 10 === 0) await confirmCandidates(page, 1);
        return drawn;
      },
      { timeout: 150_000, interval: 3_000 },
    )
    .toBeGreaterThanOrEqual(count);
}

describe("dashboards", () => {
  let wide: BrowserSession;
  let phone: BrowserSession;
  beforeAll(async () => {
    ({ wide, phone } = await openSignedInPair(baseUrl, dataDir, E2E_ADMIN));
  });
  afterAll(async () => {
    await wide?.close();
    await phone?.close();
  });

  it("lists the three dashboards, searchable, with Create Dashboard not yet open", async () => {
    const { page } = wide;
    await page.goto(`${baseUrl}/dashboards`);
    const cards = page.getByTestId("dashboard-card");
    await expect.poll(() => cards.count()).toBe(3);
    expect(await cards.nth(0).textContent()).toContain("Polymarket Pulse");
    expect(await cards.nth(1).textContent()).toContain("Kalshi Pulse");
    expect(await cards.nth(2).textContent()).toContain("Cross-Platform Arbitrage");
    expect(await cards.nth(2).textContent()).not.toContain("Coming soon");
    expect(await cards.nth(0).textContent()).toContain("5min");
    const create = page.getByRole("button", { name: /Create Dashboard/ });
    expect(await create.isDisabled()).toBe(true);
    expect(await create.textContent()).toContain("Coming soon");
    await wide.screenshot("dashboards-1440");
    await page.getByRole("searchbox", { name: "Search dashboards" }).first().fill("kalshi");
    await expect.poll(() => cards.count()).toBe(2);
    await page.getByRole("searchbox", { name: "Search dashboards" }).first().fill("kalshi pulse");
    await expect.poll(() => cards.count()).toBe(1);
  });

  for (const [id, title] of [
    ["polymarket-pulse", "Polymarket Pulse"],
    ["kalshi-pulse", "Kalshi Pulse"],
  ] as const) {
    it(`renders every tile of ${title} with data and no tile errors`, async () => {
      const { page } = wide;
      await page.goto(`${baseUrl}/dashboards/${id}`);
      await page.getByRole("heading", { level: 1, name: title }).waitFor();
      const states = await waitForTiles(page);
      expect(Object.keys(states).length).toBeGreaterThanOrEqual(10);
      expect(Object.entries(states).filter(([, state]) => state !== "ready")).toEqual([]);
      expect(await page.getByTestId("tile-error").count()).toBe(0);
      for (const number of await page.getByTestId("tile-number").allTextContents()) {
        expect(number).toMatch(/^\$?[\d,]+$/);
        expect(number).not.toBe("0");
      }
      // Charts drew their series; the top-markets table has rows.
      expect(await page.locator(".recharts-surface").count()).toBeGreaterThanOrEqual(6);
      const top = page.getByRole("article", { name: "Top markets by 24h volume" });
      expect(await top.locator("tbody tr").count()).toBe(10);
      // The bucket still running is not drawn as a cliff: it is left out, and the tile says so.
      // In the first minutes of an hour the current hour may hold no snapshot yet, so only the
      // daily tiles have a partial bucket to leave out (seen in CI at 23:00 UTC).
      const notes = await page.getByTestId("partial-bucket-note").allTextContents();
      expect(notes.length).toBeGreaterThan(0);
      for (const note of notes) expect(note).toMatch(/^The current (hour|day) is left out until it ends\.$/);
      await expect.poll(() => page.getByTestId("last-refreshed").textContent()).toBe("Updated just now");
      expect(await page.getByText("Refreshes every 5min").count()).toBe(1);
      await page.screenshot({ path: join(SCREENSHOT_DIR, `dashboard-${id}-1440.png`), fullPage: true });

      const tile = page.getByRole("article", { name: "Open markets by category" });
      await tile.getByRole("link", { name: /in the editor/ }).click();
      await page.waitForURL((url) => url.pathname === "/queries/new");
      const url = new URL(page.url());
      expect(url.searchParams.get("title")).toBe("Open markets by category");
      expect(url.searchParams.get("sql")).toContain(id === "kalshi-pulse" ? "kalshi.markets_latest" : "polymarket");
    });
  }

  it(
    "shows open same-contract pairs of both venues with their gaps, links to both markets and the gap over time",
    async () => {
      const { page } = wide;
      // The dashboard prices checked pairs only: an admin confirms two of the matcher's own.
      await confirmCandidates(page, 2);
      await confirmUntilCharted(page, 2);
      await openMonitorWhenReady(page);
      await page.getByRole("heading", { level: 1, name: "Cross-Platform Arbitrage" }).waitFor();
      expect(await page.getByTestId("tile-error").count()).toBe(0);
      // What a gap is not, said; never a promise of profit.
      expect(await page.getByText(/A gap is not a profit/).count()).toBeGreaterThan(0);
      expect(await page.locator("body").textContent()).not.toMatch(/guaranteed|risk-free|free money/i);

      const pairs = page.getByRole("article", { name: "Open pairs, widest gap first" });
      const firstRow = pairs.locator("tbody tr").first();
      expect(await pairs.locator("tbody tr").count()).toBeGreaterThan(0);
      expect(await firstRow.locator('a[href^="/markets/polymarket/"]').count()).toBe(1);
      expect(await firstRow.locator('a[href^="/markets/kalshi/"]').count()).toBe(1);
      // Quotes and gaps in cents.
      expect(await firstRow.textContent()).toMatch(/\d+\.\d¢/);
      // Issue 24, #6: what a trader decides on is in view at 1440 px, not in the inner
      // scroller; no gap reads -0.0¢; no tile is cut short.
      const scroller = await pairs.locator("table").locator("..").boundingBox();
      for (const name of ["Gap after fees", "Gap after spread", "Buy first outcome on", "Closes at"]) {
        const header = await pairs.getByRole("columnheader", { name, exact: true }).boundingBox();
        expect(header && scroller && header.x + header.width <= scroller.x + scroller.width, name).toBe(true);
      }
      expect(await pairs.textContent()).not.toContain("-0.0¢");
      expect(await page.getByTestId("tile-truncated").count()).toBe(0);

      // One line per pair in the gap chart, named in its legend.
      const chart = page.getByRole("article", { name: "Gap over time, widest pairs" });
      expect(await chart.locator(".recharts-legend-item").count()).toBeGreaterThanOrEqual(2);
      await page.screenshot({ path: join(SCREENSHOT_DIR, "dashboard-arbitrage-monitor-1440.png"), fullPage: true });

      // A pair's Kalshi market opens its page.
      const kalshi = firstRow.locator('a[href^="/markets/kalshi/"]');
      const ticker = (await kalshi.textContent()) ?? "";
      await kalshi.click();
      await page.waitForURL((url) => url.pathname === `/markets/kalshi/${encodeURIComponent(ticker)}`);

      await page.goto(`${baseUrl}/dashboards/arbitrage-monitor`);
      await waitForTiles(page);
      await pairs.getByRole("link", { name: /in the editor/ }).click();
      await page.waitForURL((url) => url.pathname === "/queries/new");
      expect(new URL(page.url()).searchParams.get("sql")).toContain("crossvenue.market_pairs");
    },
    POLLED_TEST_MS,
  );

  it(
    "fits the arbitrage monitor on a phone",
    async () => {
      const { page } = phone;
      await openMonitorWhenReady(page);
      const width = await page.evaluate<number>("document.documentElement.scrollWidth");
      expect(width).toBeLessThanOrEqual(390);
      await phone.screenshot("dashboard-arbitrage-monitor-390");
    },
    POLLED_TEST_MS,
  );

  it("fits a phone with refresh controls above the bottom navigation", async () => {
    const { page } = phone;
    await page.goto(`${baseUrl}/dashboards/kalshi-pulse`);
    await page.getByRole("navigation", { name: "Bottom navigation" }).waitFor();
    const states = await waitForTiles(page);
    expect(Object.keys(states).length).toBeGreaterThanOrEqual(10);
    expect(Object.entries(states).filter(([, state]) => state !== "ready")).toEqual([]);
    expect(await page.getByRole("button", { name: "Refresh" }).isVisible()).toBe(true);
    const width = await page.evaluate<number>("document.documentElement.scrollWidth");
    expect(width).toBeLessThanOrEqual(390);
    await phone.screenshot("dashboard-kalshi-pulse-390");
  });
});
