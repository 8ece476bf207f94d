/**
 * Client-side rate limit: a token bucket per upstream, kept under the documented limits
 * (Kalshi basic tier 20 reads/s; Polymarket `/events` 500 per 10 s) so a full snapshot
 * never trips the venue's throttle in the first place. Retries also take a token.
 */
export interface RateLimiter {
  /** Resolves when a request may go out; rejects if `signal` aborts while waiting. */
  acquire(signal?: AbortSignal): Promise<void>;
}

export interface RateLimit {
  requests: number;
  perMs: number;
}

export const POLYMARKET_EVENTS_LIMIT: RateLimit = { requests: 450, perMs: 10_000 };
export const KALSHI_BASIC_LIMIT: RateLimit = { requests: 18, perMs: 1_000 };

export function createRateLimiter(limit: RateLimit, now: () => number = Date.now): RateLimiter {
  const refillPerMs = limit.requests / limit.perMs;
  let tokens = limit.requests;
  let refilledAt = now();
  let queue: Promise<void> = Promise.resolve();

  const take = async (signal?: AbortSignal) => {
    for (;;) {
      const at = now();
      tokens = Math.min(limit.requests, tokens + (at - refilledAt) * refillPerMs);
      refilledAt = at;
      if (tokens >= 1) {
        tokens -= 1;
        return;
      }
      await sleep(Math.ceil((1 - tokens) / refillPerMs), signal);
    }
  };
  return {
    acquire(signal) {
      // Waiters are served in arrival order, one at a time.
      const turn = queue.then(() => take(signal));
      queue = turn.catch(() => undefined);
      return turn;
    },
  };
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason ?? new Error("aborted"));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new Error("aborted"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
