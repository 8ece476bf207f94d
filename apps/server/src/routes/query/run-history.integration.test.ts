/**
 * `GET /api/query/runs` (issue 24, the editor's run history): a user's own runs of SQL they
 * wrote, newest first, failures with their reason; never another user's, never the runs
 * the product makes for them (dashboard tiles).
 */
import { ZRunHistory } from "@epicenter/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, json, signIn } from "../../testing/sign-in";
import { createTestApp, type TestApp } from "../../testing/test-app";

let t: TestApp;
let ada: string;
let bob: string;

beforeAll(async () => {
  t = await createTestApp({ env: { ALLOWED_EMAILS: "ada@example.com,bob@example.com" } });
  ada = (await signIn(t, "ada@example.com")).access_token;
  bob = (await signIn(t, "bob@example.com")).access_token;
});
afterAll(async () => {
  await t?.close();
});

const run = (token: string, query: string) => t.app.request("/api/query", json({ query }, { token }));
const history = async (token: string) => {
  const response = await t.app.request("/api/query/runs", bearer(token));
  expect(response.status).toBe(200);
  return ZRunHistory.parse(await response.json()).runs;
};

describe("GET /api/query/runs", () => {
  it("lists the caller's own runs, newest first, with rows or the reason it failed", async () => {
    expect((await run(ada, "SELECT 1 AS first")).status).toBe(200);
    expect((await run(ada, "SELECT * FROM nowhere.at_all")).status).toBeGreaterThanOrEqual(400);
    expect((await run(ada, "SELECT number FROM numbers(3)")).status).toBe(200);
    expect((await run(bob, "SELECT 'bob was here'")).status).toBe(200);
    // A tile Ada looks at runs as her too, but it is not SQL she wrote.
    expect((await t.app.request("/api/dashboards/kalshi-pulse/tiles/open-markets", bearer(ada))).status).toBe(200);

    const runs = await history(ada);
    expect(runs.map((entry) => entry.sql)).toEqual([
      "SELECT number FROM numbers(3)",
      "SELECT * FROM nowhere.at_all",
      "SELECT 1 AS first",
    ]);
    expect(runs[0]).toMatchObject({ row_count: 3, error: null });
    expect(runs[1]?.error).toMatch(/nowhere/);
    expect((await history(bob)).map((entry) => entry.sql)).toEqual(["SELECT 'bob was here'"]);
  });

  it("answers 401 without a session or key", async () => {
    expect((await t.app.request("/api/query/runs")).status).toBe(401);
  });
});
