/**
 * Admin → Cross-venue in a real browser: the matcher pairs the replay's markets (the
 * 2026 World Cup winners, and one false positive: Xi Jinping out before 2027 against
 * Kalshi's "leave General Secretary" market); the admin rejects the false positive,
 * confirms a World Cup pair, sees both move to their lists with who decided, and pairs by
 * hand the one World Cup market the matcher misses (Curaçao, spelt Curacao on Kalshi).
 * At 1440 px and at 390 px, where each pair is a card and nothing scrolls sideways.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserSession } from "./browser";
import { E2E_ADMIN } from "./global-setup";
import { e2eServer } from "./server";
import { openSignedInPair } from "./session";

const { baseUrl, dataDir } = e2eServer();

const XI = { polymarket: "559651", kalshi: "KXLEADERSOUT-27JAN01-XJINCHI", question: "Xi Jinping out before 2027?" };
const SPAIN = {
  polymarket: "558934",
  kalshi: "KXMENWORLDCUP-26-ES",
  question: "Will Spain win the 2026 FIFA World Cup?",
};
const CURACAO = {
  polymarket: "558978",
  kalshi: "KXMENWORLDCUP-26-CUW",
  question: "Will Curaçao win the 2026 FIFA World Cup?",
};

/** The pairs the API lists for `query`, as the signed-in admin. */
async function listed(page: Page, query: string): Promise<Array<{ polymarket_id: string; kalshi_ticker: string }>> {
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem("epicenter.session") ?? "{}").accessToken);
  const response = await fetch(`${baseUrl}/api/admin/crossvenue/pairs?${query}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return response.ok ? ((await response.json()) as { pairs: [] }).pairs : [];
}

/** The row of the pairs table that holds this question. */
const rowOf = (page: Page, question: string) =>
  page.getByRole("row").filter({ has: page.getByRole("link", { name: question, exact: true }) });

async function showView(page: Page, name: RegExp) {
  await page.getByRole("tab", { name }).click();
  await expect.poll(() => page.getByRole("tab", { name }).getAttribute("aria-selected")).toBe("true");
}

async function search(page: Page, words: string) {
  await page.getByRole("searchbox", { name: "Search pairs" }).fill(words);
}

describe("Admin → Cross-venue", () => {
  let wide: BrowserSession;
  let phone: BrowserSession;
  /** Pairs other files confirmed before this one ran (the dashboards' checked pairs). */
  let confirmedBefore = 0;
  beforeAll(async () => {
    ({ wide, phone } = await openSignedInPair(baseUrl, dataDir, E2E_ADMIN));
  });
  afterAll(async () => {
    await wide?.close();
    await phone?.close();
  });

  it("lists the candidates with both markets, their prices, the score and the reasons", async () => {
    const { page } = wide;
    // The seed's matcher pass paired them; the server's passes again after its first syncs.
    await expect
      .poll(async () => (await listed(wide.page, "method=all&limit=200")).length, { timeout: 100_000, interval: 1_000 })
      .toBeGreaterThanOrEqual(40);
    confirmedBefore = (await listed(wide.page, "method=confirmed&limit=200")).length;
    await page.goto(`${baseUrl}/admin`);
    await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Cross-venue" }).click();
    await page.waitForURL(`${baseUrl}/admin/cross-venue`);
    await expect.poll(() => page.getByRole("tab", { name: /^Candidates \d+$/ }).count()).toBe(1);
    const spain = rowOf(page, SPAIN.question);
    await spain.waitFor();
    expect(
      await spain.getByRole("link", { name: "Will the Spain win the 2026 Men's World Cup?" }).getAttribute("href"),
    ).toBe(`/markets/kalshi/${SPAIN.kalshi}`);
    expect(await spain.getByRole("link", { name: SPAIN.question }).getAttribute("href")).toBe(
      `/markets/polymarket/${SPAIN.polymarket}`,
    );
    expect(await spain.textContent()).toMatch(/Yes \d+\.\d%.*Yes \d+\.\d%.*Same contract.*Same orientation.*0\.\d\d/);
    expect(await spain.getByRole("listitem").count()).toBeGreaterThan(1);
    // Where the matcher stands: its first full pass ran after the first snapshots.
    await expect
      .poll(() => page.getByTestId("matcher-status").textContent(), { timeout: 10_000 })
      .toMatch(/^Last full pass .*: [\d,]+ candidates scored, [\d,]+ written, in [\d.]+ (s|min)\..*Closed markets: /);
    await wide.screenshot("admin-crossvenue-1440");
  });

  it("rejects the Xi Jinping pair and confirms a World Cup pair, which move to their lists with the reviewer", async () => {
    const { page } = wide;
    await search(page, "Xi Jinping");
    const xi = rowOf(page, XI.question);
    await xi.waitFor();
    await xi.getByRole("button", { name: "Reject" }).click();
    await xi.waitFor({ state: "detached" });
    await page.getByText("No pairs match these filters.").waitFor();

    await search(page, "Spain");
    const spain = rowOf(page, SPAIN.question);
    await spain.getByRole("button", { name: "Confirm" }).click();
    await spain.waitFor({ state: "detached" });

    await search(page, "");
    await showView(page, /^Rejected 1$/);
    const rejected = rowOf(page, XI.question);
    await rejected.waitFor();
    expect(await rejected.textContent()).toContain(E2E_ADMIN);
    // A rejected pair can still be confirmed; it cannot be rejected twice.
    expect(await rejected.getByRole("button", { name: "Reject" }).count()).toBe(0);

    await showView(page, /^Confirmed \d+$/);
    const confirmed = rowOf(page, SPAIN.question);
    await confirmed.waitFor();
    expect(await confirmed.textContent()).toContain(E2E_ADMIN);
    await wide.screenshot("admin-crossvenue-confirmed-1440");
    expect(await listed(page, "method=rejected")).toMatchObject([
      { polymarket_id: XI.polymarket, kalshi_ticker: XI.kalshi },
    ]);
  });

  it("pairs two markets by id, says which id is unknown, and logs every change", async () => {
    const { page } = wide;
    await page.getByText("Pair two markets by id").click();
    await page.getByLabel("Polymarket id").fill(CURACAO.polymarket);
    await page.getByLabel("Kalshi ticker").fill("KXMENWORLDCUP-26-NOPE");
    await page.getByRole("button", { name: "Pair", exact: true }).click();
    await page.getByText("There is no Kalshi market KXMENWORLDCUP-26-NOPE in the latest snapshot.").waitFor();

    await page.getByLabel("Kalshi ticker").fill(CURACAO.kalshi);
    await page.getByRole("button", { name: "Pair", exact: true }).click();
    await page
      .getByText(`Paired Polymarket ${CURACAO.polymarket} with Kalshi ${CURACAO.kalshi}.`, { exact: false })
      .waitFor();
    await showView(page, /^Confirmed \d+$/);
    const curacao = rowOf(page, CURACAO.question);
    await curacao.waitFor();
    expect(await curacao.textContent()).toContain("Same contract");
    // Every list's counts follow the change, the one read before it too.
    await showView(page, /^Candidates \d+$/);
    await expect
      .poll(() => page.getByRole("tab", { name: /^Confirmed/ }).textContent())
      .toBe(`Confirmed ${confirmedBefore + 2}`);

    await showView(page, /^Change log$/);
    const log = page.getByRole("tabpanel");
    await log.getByRole("row").nth(3).waitFor();
    const changes = await log.getByRole("row").allTextContents();
    expect(changes[1]).toContain("Paired by hand");
    expect(changes[2]).toContain("Confirmed");
    expect(changes[3]).toContain("Rejected");
    for (const change of changes.slice(1, 4)) expect(change).toContain(E2E_ADMIN);
    expect(await page.getByRole("tab", { name: /^Confirmed/ }).textContent()).toBe(`Confirmed ${confirmedBefore + 2}`);
    await wide.screenshot("admin-crossvenue-log-1440");
  });

  it("fits 390 px without sideways scrolling, each pair a card with its buttons in reach", async () => {
    const { page } = phone;
    await page.goto(`${baseUrl}/admin/cross-venue`);
    await page.getByRole("tab", { name: /^Candidates \d+$/ }).waitFor();
    await page.getByRole("table").waitFor();
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    await phone.screenshot("admin-crossvenue-390");

    await page.getByText("Pair two markets by id").click();
    await page.getByLabel("Polymarket id").waitFor();
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    await phone.screenshot("admin-crossvenue-form-390");

    await showView(page, /^Rejected 1$/);
    const xi = rowOf(page, XI.question);
    await xi.waitFor();
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    const confirm = await xi.getByRole("button", { name: "Confirm" }).boundingBox();
    expect((confirm?.x ?? 0) + (confirm?.width ?? 0)).toBeLessThanOrEqual(390);
    await xi.scrollIntoViewIfNeeded();
    await phone.screenshot("admin-crossvenue-rejected-390");
  });
});
