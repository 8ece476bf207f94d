/**
 * SQL the product shows as an example, run as a user would run it, with its rows checked
 * (issue 24, defect 3): the landing page's sample once returned every market twice (no
 * FINAL over a table that keeps each snapshot until it merges) and dropped markets whose
 * `closed` is unknown.
 */
import { LANDING_SAMPLE_SQL, ZRunQueryResponse } from "@epicenter/contracts";
import { toDateTime64 } from "@epicenter/warehouse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, signIn } from "../../testing/sign-in";
import { createTestApp, type TestApp } from "../../testing/test-app";

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp({ env: { ALLOWED_EMAILS: "ada@example.com" } });
  const market = (id: string, minutesAgo: number, volume: number, closed: boolean | null) => ({
    sync_timestamp: toDateTime64(Date.now() - minutesAgo * 60_000),
    id,
    question: `Market ${id}?`,
    yes_probability: 0.5,
    volume24hr: volume,
    closed,
  });
  // Two snapshots of each market, as ten minutes of syncing leave them before a merge.
  for (const minutesAgo of [10, 0]) {
    await t.stores.warehouse.insert("polymarket.markets_latest", [
      market("open", minutesAgo, 300 + minutesAgo, false),
      market("unknown", minutesAgo, 200 + minutesAgo, null),
      market("closed", minutesAgo, 900 + minutesAgo, true),
    ]);
  }
  token = (await signIn(t, "ada@example.com")).access_token;
});
afterAll(async () => {
  await t?.close();
});

describe("the landing page's sample query", () => {
  it("lists each open market once, newest snapshot, most traded first", async () => {
    const response = await t.app.request("/api/query", json({ query: LANDING_SAMPLE_SQL }, { token }));
    expect(response.status).toBe(200);
    const { result } = ZRunQueryResponse.parse(await response.json());
    expect(result.data).toEqual([
      { question: "Market open?", yes_pct: 50, volume24hr: 300 },
      { question: "Market unknown?", yes_pct: 50, volume24hr: 200 },
    ]);
  });
});
