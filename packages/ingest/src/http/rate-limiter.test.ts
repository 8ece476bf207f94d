import { describe, expect, it } from "vitest";
import { createReplayLimits } from "../replay/limits";
import { bucketUnder, createRateLimiter, windowUnder } from "./rate-limiter";

/** A simulated clock both the limiter and the venue's counter run on: sleeping moves it. */
function simulatedClock() {
  let t = 0;
  return {
    now: () => t,
    sleep: async (ms: number) => {
      t += ms;
    },
  };
}

/** The most grants that fell in any window of `perMs`. */
function busiestWindow(times: number[], perMs: number): number {
  let most = 0;
  for (let i = 0, j = 0; i < times.length; i += 1) {
    while ((times[i] as number) - (times[j] as number) >= perMs) j += 1;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

// On a simulated clock, so what is checked is the limiter's arithmetic, not how late a
// busy machine woke a timer.
describe("the rate limiter", () => {
  it("never lets more than the limit through in any window, from a cold start on", async () => {
    const clock = simulatedClock();
    const limiter = createRateLimiter({ requests: 10, perMs: 200 }, clock.now, clock.sleep);
    const times: number[] = [];
    await Promise.all(Array.from({ length: 35 }, () => limiter.acquire().then(() => times.push(clock.now()))));
    expect(times).toHaveLength(35);
    expect(busiestWindow(times, 200)).toBe(10);
    // And it is not slower than the limit needs: three full windows, then the last five go.
    expect(times.at(-1)).toBe(600);
  });

  it("holds two callers sharing it to the one limit", async () => {
    const clock = simulatedClock();
    const limiter = createRateLimiter({ requests: 5, perMs: 100 }, clock.now, clock.sleep);
    const times: number[] = [];
    const caller = async () => {
      for (let i = 0; i < 10; i += 1) {
        await limiter.acquire();
        times.push(clock.now());
      }
    };
    await Promise.all([caller(), caller()]);
    times.sort((a, b) => a - b);
    expect(times).toHaveLength(20);
    expect(busiestWindow(times, 100)).toBe(5);
    expect(times.at(-1)).toBe(300);
  });

  it("stops waiting when its signal aborts", async () => {
    const limiter = createRateLimiter({ requests: 1, perMs: 10_000 });
    await limiter.acquire();
    const abort = new AbortController();
    const waiting = limiter.acquire(abort.signal);
    abort.abort(new Error("stopped"));
    await expect(waiting).rejects.toThrow("stopped");
  });
});

describe("Kalshi's token bucket at the client", () => {
  it("spends no more than the venue's bucket holds, batch items billed each, from a cold start on", async () => {
    const clock = simulatedClock();
    const client = createRateLimiter(bucketUnder(200, 10), clock.now, clock.sleep);
    // The venue's own bucket at the Basic tier, on the same clock: it refuses what it has not got.
    const venue = createReplayLimits({ kalshiTokensPerSecond: 200, now: clock.now });
    const base = "http://replay/kalshi/trade-api/v2";
    const requests = Array.from({ length: 600 }, (_, i) =>
      i % 3 === 0
        ? new URL(
            `${base}/markets/candlesticks?market_tickers=${Array.from({ length: 15 }, (_, k) => `T${k}`).join(",")}`,
          )
        : new URL(`${base}/markets/trades?limit=1000`),
    );
    let refused = 0;
    for (const url of requests) {
      const tickers = url.searchParams.get("market_tickers")?.split(",").length ?? 1;
      await client.acquire(undefined, tickers);
      if (venue.admit(url)) refused += 1;
    }
    expect(refused).toBe(0);
    const use = venue.use().kalshi;
    // 200 fifteen-ticker batches and 400 single calls: 3,400 requests' worth of tokens.
    expect(use?.admitted).toBe(34_000);
    // And it spends the bucket, not a fraction of it: 88 % of 200 tokens a second.
    const seconds = clock.now() / 1000;
    expect(use?.admitted ?? 0).toBeGreaterThan(0.85 * 200 * seconds);
    expect(use?.admitted ?? 0).toBeLessThan(0.9 * 200 * seconds + 200);
    expect(client.usage()).toMatchObject({ requests: 600, granted: 3_400 });
    // Measured at the client: the last minute used 88 % of the venue's limit.
    expect(client.usage().shareOfVenueLimit).toBeCloseTo(0.88, 1);
  });

  it("follows the configured tier, and refuses a batch larger than the bucket", async () => {
    const clock = simulatedClock();
    const premier = createRateLimiter(bucketUnder(1_000, 10), clock.now, clock.sleep);
    expect(premier.maxCost).toBeCloseTo(88);
    for (let i = 0; i < 100; i += 1) await premier.acquire(undefined, 88);
    // 8,800 requests' worth at 88 a second, the first second's from the full bucket.
    expect(clock.now() / 1000).toBeGreaterThan(98);
    expect(clock.now() / 1000).toBeLessThan(100);
    const basic = createRateLimiter(bucketUnder(200, 10), clock.now, clock.sleep);
    await expect(basic.acquire(undefined, 100)).rejects.toThrow("can never fit");
  });
});

describe("Polymarket's per-endpoint windows at the client", () => {
  it("keeps each endpoint under the venue's count in every 10 s", async () => {
    const clock = simulatedClock();
    const venue = createReplayLimits({ polymarket: true, now: clock.now });
    const trades = createRateLimiter(windowUnder(200, 10_000), clock.now, clock.sleep);
    let refused = 0;
    for (let i = 0; i < 1_000; i += 1) {
      await trades.acquire();
      if (venue.admit(new URL("http://replay/polymarket-data/v2/trades?limit=500"))) refused += 1;
    }
    expect(refused).toBe(0);
    expect(venue.use()["polymarket-data /trades"]?.busiestWindow).toBe(176);
  });
});
