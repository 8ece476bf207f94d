import { describe, expect, it } from "vitest";
import { createRateLimiter } from "./rate-limiter";

/**
 * The most grants that fell in any window of `perMs`, measured where the callers resume,
 * a little after each grant: a window a few ms short of `perMs` absorbs that lag.
 */
function busiestWindow(times: number[], perMs: number): number {
  let most = 0;
  for (let i = 0, j = 0; i < times.length; i += 1) {
    while ((times[i] as number) - (times[j] as number) >= perMs - 10) j += 1;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

describe("the rate limiter", () => {
  it("never lets more than the limit through in any window, from a cold start on", async () => {
    const limiter = createRateLimiter({ requests: 10, perMs: 200 });
    const times: number[] = [];
    await Promise.all(Array.from({ length: 35 }, () => limiter.acquire().then(() => times.push(performance.now()))));
    expect(times).toHaveLength(35);
    expect(busiestWindow(times, 200)).toBeLessThanOrEqual(10);
    // And it is not slower than the limit needs: 35 grants take three windows and a bit.
    expect((times.at(-1) as number) - (times[0] as number)).toBeLessThan(900);
  });

  it("holds two callers sharing it to the one limit", async () => {
    const limiter = createRateLimiter({ requests: 5, perMs: 100 });
    const times: number[] = [];
    const caller = async () => {
      for (let i = 0; i < 10; i += 1) {
        await limiter.acquire();
        times.push(performance.now());
      }
    };
    await Promise.all([caller(), caller()]);
    times.sort((a, b) => a - b);
    expect(busiestWindow(times, 100)).toBeLessThanOrEqual(5);
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
