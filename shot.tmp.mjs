import { chromium } from "playwright-core";
import { readdirSync, readFileSync } from "node:fs";
const base = "http://localhost:3000";
const res = await fetch(`${base}/api/auth/magic-link`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "admin@epicenter.local" }) });
const dir = "/work/main/.demo-data/outbox";
const newest = readdirSync(dir).sort().reverse()[0];
const link = JSON.parse(readFileSync(`${dir}/${newest}`, "utf8")).link;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
await page.goto(link);
await page.waitForTimeout(1500);
for (const [name, path] of JSON.parse(process.argv[2])) {
  await page.goto(`${base}${path}`);
  await page.waitForTimeout(2500);
  await page.screenshot({ path: `/tmp/${name}.png`, fullPage: false });
  const text = await page.locator('[data-testid="market-resolution"]').allInnerTexts().catch(() => []);
  console.log(name, JSON.stringify(text));
}
await browser.close();
