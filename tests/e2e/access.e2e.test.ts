import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, openBrowser } from "./browser";
import { E2E_ADMIN } from "./global-setup";
import { e2eServer } from "./server";
import { signInThroughLogin, waitForLink } from "./session";

const { baseUrl, dataDir } = e2eServer();
const NEWCOMER = "newcomer@e2e.test";

describe("access, from the waitlist to an API key and back", () => {
  let admin: BrowserSession;
  let newcomer: BrowserSession;
  beforeAll(async () => {
    admin = await openBrowser();
    newcomer = await openBrowser();
    for (const session of [admin, newcomer]) session.page.on("dialog", (dialog) => void dialog.accept());
  });
  afterAll(async () => {
    await admin.close();
    await newcomer.close();
  });

  it("sends a guest to /login, and puts an unknown e-mail on the waitlist", async () => {
    const { page } = newcomer;
    await page.goto(`${baseUrl}/queries`);
    await page.waitForURL(`${baseUrl}/login`);
    await page.getByLabel("Email").fill(NEWCOMER);
    await page.getByRole("button", { name: "REQUEST ACCESS" }).click();
    await page
      .getByText("You've been added to the waitlist! Once approved, you'll receive a magic link to sign in.")
      .waitFor();
    await newcomer.screenshot("login-waitlist");
  });

  it("lets the admin approve the waiting e-mail, which mails a sign-in link", async () => {
    await signInThroughLogin(admin.page, baseUrl, dataDir, E2E_ADMIN);
    const { page } = admin;
    await page.getByRole("complementary", { name: "Main navigation" }).getByRole("link", { name: "Admin" }).click();
    await page.getByRole("link", { name: "Waitlist" }).click();
    const row = page.getByRole("row").filter({ hasText: NEWCOMER });
    const approvedAt = Date.now() - 1_000;
    await row.getByRole("button", { name: "Approve" }).click();
    await row.waitFor({ state: "detached" });
    await admin.screenshot("admin-waitlist");
    expect(await waitForLink(dataDir, NEWCOMER, approvedAt)).toContain("/auth/callback?token=");
  });

  it("signs the newcomer in through the mailed link and lands in the app", async () => {
    const { page } = newcomer;
    await page.goto(await waitForLink(dataDir, NEWCOMER, 0));
    await page.waitForURL(`${baseUrl}/`);
    await page.getByRole("heading", { name: "The Data Terminal for Prediction Markets" }).waitFor();
    expect(await page.getByRole("button", { name: "Profile" }).first().textContent()).toContain(NEWCOMER);
  });

  it("creates an API key that works from outside the browser until it is revoked", async () => {
    const { page } = newcomer;
    await page.goto(`${baseUrl}/hub/api`);
    await page.getByRole("button", { name: "Create key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create API key" });
    const create = dialog.getByRole("button", { name: "Create" });
    expect(await create.isDisabled()).toBe(true);
    await dialog.getByLabel("Name").fill("   ");
    expect(await create.isDisabled()).toBe(true);
    await dialog.getByLabel("Name").fill("e2e script");
    await create.click();
    const key = (await page.getByTestId("new-api-key").textContent()) ?? "";
    expect(key).toMatch(/^ep_live_/);
    const created = page.getByRole("dialog", { name: "Your new API key" });
    await created.getByRole("button", { name: "Copy" }).click();
    await created.getByRole("button", { name: "Copied!" }).waitFor();
    await newcomer.screenshot("api-key-created");
    await page.getByRole("button", { name: "Done" }).click();
    await page.getByRole("cell", { name: "e2e script", exact: true }).waitFor();

    const withKey = await fetch(`${baseUrl}/api/sync/status`, { headers: { authorization: `Bearer ${key}` } });
    expect(withKey.status).toBe(200);
    expect(Object.keys(((await withKey.json()) as { sources: object }).sources).sort()).toEqual([
      "kalshi",
      "polymarket",
    ]);
    expect((await fetch(`${baseUrl}/api/sync/status`, { headers: { "x-api-key": key } })).status).toBe(200);

    await page.getByRole("button", { name: "Revoke e2e script" }).click();
    await page.getByRole("cell", { name: "e2e script", exact: true }).waitFor({ state: "detached" });
    const revoked = await fetch(`${baseUrl}/api/sync/status`, { headers: { authorization: `Bearer ${key}` } });
    expect(revoked.status).toBe(401);
  });

  it("shows Access Denied at the next page once the newcomer is taken off the allow-list, without a reload", async () => {
    const { page } = newcomer;
    await page.goto(`${baseUrl}/queries`);
    await page.getByRole("heading", { name: "Queries" }).first().waitFor();

    await admin.page.goto(`${baseUrl}/admin/allow-list`);
    const row = admin.page.getByRole("row").filter({ hasText: NEWCOMER });
    await row.getByRole("button", { name: `Remove ${NEWCOMER}` }).click();
    await row.waitFor({ state: "detached" });

    // A route change inside the app, no page load: the allow-list is asked again.
    await page
      .getByRole("complementary", { name: "Main navigation" })
      .getByRole("link", { name: "Data Catalog" })
      .click();
    await page.getByRole("heading", { name: "Access Denied" }).waitFor();
    await page.getByText(`Your email (${NEWCOMER}) is not whitelisted for access.`).waitFor();
    await newcomer.screenshot("access-denied");
    await page.getByRole("button", { name: "Try Different Email" }).click();
    await page.waitForURL(`${baseUrl}/login`);
  });

  it("signs the admin out to /login, and the old session no longer works", async () => {
    const { page } = admin;
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem("epicenter.session") ?? "{}").accessToken);
    await page.goto(`${baseUrl}/`);
    await page.getByRole("button", { name: "Profile" }).first().click();
    const profile = page.getByRole("dialog", { name: "Profile" });
    await profile.getByText("Free Account").waitFor();
    await admin.screenshot("profile-modal");
    await profile.getByRole("button", { name: "Sign Out" }).click();
    await page.waitForURL(`${baseUrl}/login`);
    await expect
      .poll(
        async () => (await fetch(`${baseUrl}/api/keys/list`, { headers: { authorization: `Bearer ${token}` } })).status,
      )
      .toBe(401);
  });
});
