/**
 * Every example of the gallery runs in the sandbox on an archive the way an install fills
 * it: snapshots, the closed-market backfill and the venues' history fetched from the
 * replay server. The examples only history makes possible return rows.
 */
import {
  createRateLimiter,
  type ReplayServer,
  replayIngestConfig,
  runBackfillStep,
  runHistoryStep,
  runSync,
  SOURCES,
  silentLogger,
  startReplayServer,
} from "@epicenter/ingest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, signIn } from "../../testing/sign-in";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { EXAMPLE_QUERIES } from "./examples";

let t: TestApp;
let replay: ReplayServer;
let token: string;

beforeAll(async () => {
  t = await createTestApp({ env: { ALLOWED_EMAILS: "ada@example.com" } });
  token = (await signIn(t, "ada@example.com")).access_token;
  replay = await startReplayServer({ catalogSize: 60, historicalCutoff: Date.now() - 200 * 86_400_000 });
  const deps = {
    warehouse: t.stores.warehouse,
    config: replayIngestConfig(replay),
    logger: silentLogger,
    // Far above the venues' limits: this test is about the examples, not the rate.
    rateLimiters: new Map(
      ["polymarket", "polymarket-clob", "polymarket-data", "kalshi"].map((name) => [
        name,
        createRateLimiter({ requests: 100_000, perMs: 1_000 }),
      ]),
    ),
  };
  for (const source of SOURCES) {
    expect((await runSync(deps, { source })).success).toBe(true);
    while (!(await runBackfillStep(deps, source, { pagesPerStep: 20 })).done) {}
    for (;;) {
      const step = await runHistoryStep(deps, source, { markets: 200 });
      expect(step.run.error).toBeNull();
      if (!step.outcome?.more) break;
    }
  }
}, 600_000);

afterAll(async () => {
  await replay?.close();
  await t?.close();
});

describe("the example queries", () => {
  for (const example of EXAMPLE_QUERIES) {
    it(`runs "${example.title}"`, async () => {
      const response = await t.app.request("/api/query/rows", json({ query: example.sql, limit: 1000 }, { token }));
      const body = (await response.json()) as { row_count?: number; error?: { message: string } };
      expect(body.error?.message).toBeUndefined();
      expect(response.status).toBe(200);
      if (/polymarket\.prices|kalshi\.candles|\.trades\b/.test(example.sql)) {
        expect(body.row_count, "an example of the history returns rows").toBeGreaterThan(0);
      }
    });
  }
});
