/**
 * Client-side rate limit: a token bucket per upstream, kept under the venue's documented
 * limit (each `Source` states its own `rateLimit`) so a full snapshot never trips the
 * venue's throttle in the first place. Retries also take a token.
 */
import { setTimeout as delay } from "node:timers/promises";

export interface RateLimiter {
  /** Resolves when a request may go out; rejects if `signal` aborts while waiting. */
  acquire(signal?: AbortSignal): Promise<void>;
}

export interface RateLimit {
  requests: number;
  perMs: number;
}

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
      await delay(Math.ceil((1 - tokens) / refillPerMs), undefined, signal ? { signal } : {}).catch(
        (error: unknown) => {
          throw signal?.reason ?? error;
        },
      );
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
