import { describe, expect, it } from "vitest";
import { z } from "zod";
import { silentLogger } from "../logger";
import { createPageFetcher, retryAfterMs, UpstreamError } from "./fetch-page";
import { createRateLimiter } from "./rate-limiter";

const envelope = z.object({ events: z.array(z.unknown()) });
const noLimit = createRateLimiter({ requests: 1_000_000, perMs: 1 });
const policy = { baseDelayMs: 1, maxDelayMs: 2, retries: 2, timeoutMs: 200, maxRetryAfterMs: 50 };

function scripted(responses: Array<() => Response>) {
  const calls: string[] = [];
  const fetchFn = (async (url: string) => {
    calls.push(url);
    const next = responses.shift();
    if (!next) throw new Error("no more responses");
    return next();
  }) as unknown as typeof fetch;
  return { calls, fetchFn };
}

describe("page fetcher", () => {
  it("retries 429 and 5xx, then returns the parsed page", async () => {
    const { calls, fetchFn } = scripted([
      () => new Response("slow down", { status: 429, headers: { "retry-after": "0" } }),
      () => new Response("oops", { status: 502 }),
      () => new Response('{"events":[1]}'),
    ]);
    const fetchPage = createPageFetcher({ limiter: noLimit, logger: silentLogger, policy, fetch: fetchFn });
    await expect(fetchPage("http://x/events", envelope)).resolves.toEqual({ events: [1] });
    expect(calls).toHaveLength(3);
  });

  it("strips a UTF-8 BOM", async () => {
    const { fetchFn } = scripted([() => new Response('\uFEFF{"events":[]}')]);
    const fetchPage = createPageFetcher({ limiter: noLimit, logger: silentLogger, policy, fetch: fetchFn });
    await expect(fetchPage("http://x/events", envelope)).resolves.toEqual({ events: [] });
  });

  it("fails at once on a 422 and names the URL", async () => {
    const { calls, fetchFn } = scripted([() => new Response("offset not allowed", { status: 422 })]);
    const fetchPage = createPageFetcher({ limiter: noLimit, logger: silentLogger, policy, fetch: fetchFn });
    const failure = await fetchPage("http://x/events?offset=1", envelope).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamError);
    expect((failure as UpstreamError).url).toBe("http://x/events?offset=1");
    expect(calls).toHaveLength(1);
  });

  it("gives up on a body that stays truncated", async () => {
    const { calls, fetchFn } = scripted(Array.from({ length: 3 }, () => () => new Response('{"events":[{"id')));
    const fetchPage = createPageFetcher({ limiter: noLimit, logger: silentLogger, policy, fetch: fetchFn });
    await expect(fetchPage("http://x/events", envelope)).rejects.toThrow(/not JSON/);
    expect(calls).toHaveLength(3);
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    expect(retryAfterMs("2")).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(retryAfterMs(null)).toBe(0);
  });
});

describe("rate limiter", () => {
  it("lets a burst through and then spaces requests at the refill rate", async () => {
    // On a simulated clock: the limiter's arithmetic, not a busy machine's timer lag.
    let now = 0;
    const limiter = createRateLimiter(
      { requests: 5, perMs: 100 },
      () => now,
      async (ms) => {
        now += ms;
      },
    );
    const granted: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      await limiter.acquire();
      granted.push(now);
    }
    expect(granted).toEqual([0, 0, 0, 0, 0, 100, 100, 100, 100, 100]);
  });
});
