/**
 * The limiter the scheduler shares between a venue's snapshots and its history, against the
 * replay enforcing Kalshi's Basic-tier token bucket as the venue does.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRateLimiter } from "../http/rate-limiter";
import { replayIngestConfig } from "../replay/server";
import { sourceNamed } from "../sources";
import { type Harness, startHarness } from "../testing/harness";
import { runHistoryStep } from "./history";
import { runSync } from "./run-sync";

const NOW = Date.parse("2026-07-01T12:00:00Z");
const DAY = 86_400_000;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    catalogSize: 60,
    now: () => NOW,
    historicalCutoff: NOW - 120 * DAY,
    historicalTradesCutoff: NOW - 40 * DAY,
  });
  h.deps = { ...h.deps, config: replayIngestConfig(h.replay), clock: () => new Date(NOW) };
  expect((await runSync(h.deps, { source: "kalshi" })).success).toBe(true);
}, 120_000);
afterAll(async () => {
  await h?.close();
});

describe("the shared limiter", () => {
  it("keeps Kalshi's combined spend inside the venue's token bucket while a snapshot runs beside the history", async () => {
    // The replay refuses, as Kalshi does, any request its Basic-tier bucket has no tokens for.
    h.replay.setLimits({ kalshiTokensPerSecond: 200 });
    const kalshiHost = new URL(h.replay.url.kalshi).pathname;
    let requests = 0;
    const deps = {
      ...h.deps,
      rateLimiters: new Map([["kalshi", createRateLimiter(sourceNamed("kalshi").rateLimit(h.deps.config))]]),
      // No retry may hide a refusal.
      http: { retries: 0 },
      fetch: (input: string | URL | Request, init?: RequestInit) => {
        if (String(input).includes(kalshiHost)) requests += 1;
        return fetch(input, init);
      },
    };
    const started = performance.now();
    let use: ReturnType<typeof h.replay.limitUse>[string] | undefined;
    try {
      const [snapshot, history] = await Promise.all([
        runSync(deps, { source: "kalshi" }),
        runHistoryStep(deps, "kalshi", { markets: 60 }),
      ]);
      expect(snapshot.success, snapshot.error ?? "").toBe(true);
      expect(history.run.success, history.run.error ?? "").toBe(true);
    } finally {
      use = h.replay.limitUse().kalshi;
      h.replay.setLimits(null);
    }
    const seconds = (performance.now() - started) / 1000;
    expect(requests).toBeGreaterThan(40);
    expect(use?.refused).toBe(0);
    // Batches were billed per ticker: more tokens than ten a request.
    expect(use?.admitted ?? 0).toBeGreaterThan(requests * 10);
    // Within 88 % of the refill over the run, beside the bucket's first second. How much of
    // the bucket the run used is a figure of `npm run bench -- --only scale`, not asserted
    // here: on a loaded machine the work, not the bucket, sets the pace (it failed so, beside
    // a benchmark, at 3,600 tokens against a bound of 4,160).
    expect(use?.admitted ?? 0).toBeLessThanOrEqual(200 + 0.9 * 200 * seconds);
  }, 300_000);
});
