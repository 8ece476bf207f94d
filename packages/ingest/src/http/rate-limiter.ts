/**
 * Client-side rate limit, one per upstream host, kept under the venue's documented limit
 * (each `Source` states its own) so the archive never trips the venue's throttle in the
 * first place. Retries also take a turn.
 *
 * A sliding window, not a token bucket: at most `requests` grants in any `perMs`, which
 * is how the venues state and enforce their limits. A bucket that starts full lets
 * nearly twice its size through in one window (a full bucket plus a window of refill),
 * and a limiter shared by the snapshot and the history worker must hold the combined
 * rate to the limit in every window.
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

/**
 * Times come from the monotonic clock: a wall clock that steps forward (a VM's time sync)
 * would free every slot of the window at once and let a second window's worth through.
 */
export function createRateLimiter(limit: RateLimit, now: () => number = () => performance.now()): RateLimiter {
  // The times of the last `requests` grants, oldest first, in a ring.
  const granted = new Array<number>(limit.requests).fill(Number.NEGATIVE_INFINITY);
  let oldest = 0;
  let queue: Promise<void> = Promise.resolve();

  const take = async (signal?: AbortSignal) => {
    for (;;) {
      const at = now();
      const freeAt = (granted[oldest] as number) + limit.perMs;
      if (at >= freeAt) {
        granted[oldest] = at;
        oldest = (oldest + 1) % limit.requests;
        return;
      }
      await delay(Math.ceil(freeAt - at), undefined, signal ? { signal } : {}).catch((error: unknown) => {
        throw signal?.reason ?? error;
      });
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
