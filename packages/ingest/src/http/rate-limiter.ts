/**
 * Client-side rate limits, counted the way each venue counts them (API_FORMATS §4), kept
 * under the venue's own figure so the archive never trips its throttle in the first place.
 * One limiter per venue limit, shared by every run that spends it (snapshots, backfill,
 * history), and retries take a turn like any request.
 *
 * Two kinds:
 * - **A sliding window** (Polymarket: each endpoint so many requests per 10 s): at most
 *   `requests` units granted in any `perMs`. A bucket that starts full would let nearly
 *   twice its size through in one window (a full bucket plus a window of refill).
 * - **A token bucket** (Kalshi: read tokens refilled per second, 10 per request, each item
 *   of a batch billed separately): the bucket holds at most `capacity` tokens and refills
 *   at `tokensPerSecond`. Run at a rate and capacity no higher than the venue's own, it
 *   never asks for a token the venue's bucket has not got.
 *
 * A request spends a cost (1 in a window, its tokens in a bucket); one that costs more
 * than the limit holds at once could never be granted, so callers size their batches by
 * `maxCost`. Each limiter counts what it granted, the measure "share of each limit used"
 * is read from (`usage`).
 */
import { setTimeout as delay } from "node:timers/promises";

export interface RateLimiter {
  /** Resolves when a request of `cost` units may go out; rejects if `signal` aborts while waiting. */
  acquire(signal?: AbortSignal, cost?: number): Promise<void>;
  /** The most units one request may cost. */
  readonly maxCost: number;
  /** What it granted since it was made, for the client-side measure of the limit's use. */
  usage(): LimiterUsage;
}

export interface LimiterUsage {
  /** Units granted (requests in a window, tokens in a bucket). */
  granted: number;
  /** Requests granted. */
  requests: number;
  /** Milliseconds requests waited for their turn, summed. */
  waitedMs: number;
  /** Units the limit allows per second. */
  unitsPerSecond: number;
  /** Units granted in the last minute. */
  lastMinute: number;
  /**
   * The share of the venue's own limit the last minute used (0–1), where the limit says
   * what the venue's is; else of this limit.
   */
  shareOfVenueLimit: number;
}

/** A sliding window: at most `requests` units in any `perMs`. */
export interface WindowLimit {
  kind?: "window";
  requests: number;
  perMs: number;
  /** The venue's own figure, in units a second, when this is a share of it. */
  venuePerSecond?: number;
}

/** A token bucket: `capacity` tokens at most, refilled at `tokensPerSecond`. */
export interface BucketLimit {
  kind: "bucket";
  tokensPerSecond: number;
  capacity: number;
  venuePerSecond?: number;
}

export type RateLimit = WindowLimit | BucketLimit;

/** Units a limit allows per second, whatever its kind. */
export function unitsPerSecond(limit: RateLimit): number {
  return limit.kind === "bucket" ? limit.tokensPerSecond : (limit.requests * 1000) / limit.perMs;
}

/**
 * Times come from the monotonic clock: a wall clock that steps forward (a VM's time sync)
 * would free a window's slots or fill a bucket at once. A caller may give its own clock
 * and sleep (a simulated one) as long as the two agree.
 */
export function createRateLimiter(
  limit: RateLimit,
  now: () => number = () => performance.now(),
  sleep: (ms: number, signal?: AbortSignal) => Promise<void> = sleepFor,
): RateLimiter {
  const gate = limit.kind === "bucket" ? bucketGate(limit, now) : windowGate(limit, now);
  const usage = { granted: 0, requests: 0, waitedMs: 0, unitsPerSecond: unitsPerSecond(limit) };
  const venuePerSecond = limit.venuePerSecond ?? usage.unitsPerSecond;
  // The last minute's grants, oldest first, for the measure of the limit's use.
  const recent: Array<{ at: number; cost: number }> = [];
  let recentUnits = 0;
  const forget = (at: number) => {
    while (recent.length > 0 && (recent[0] as { at: number }).at <= at - 60_000) {
      recentUnits -= (recent.shift() as { cost: number }).cost;
    }
  };
  let queue: Promise<void> = Promise.resolve();

  const take = async (cost: number, signal?: AbortSignal) => {
    const asked = now();
    for (;;) {
      const wait = gate.tryTake(cost);
      if (wait === 0) break;
      await sleep(wait, signal);
    }
    const at = now();
    usage.granted += cost;
    usage.requests += 1;
    usage.waitedMs += at - asked;
    recent.push({ at, cost });
    recentUnits += cost;
    forget(at);
  };
  return {
    maxCost: gate.maxCost,
    acquire(signal, cost = 1) {
      if (!(cost > 0) || cost > gate.maxCost) {
        return Promise.reject(new RangeError(`a request costing ${cost} can never fit a limit of ${gate.maxCost}`));
      }
      // Waiters are served in arrival order, one at a time.
      const turn = queue.then(() => take(cost, signal));
      queue = turn.catch(() => undefined);
      return turn;
    },
    usage: () => {
      forget(now());
      return { ...usage, lastMinute: recentUnits, shareOfVenueLimit: recentUnits / (venuePerSecond * 60) };
    },
  };
}

interface Gate {
  maxCost: number;
  /** Takes `cost` units and answers 0, or answers how many ms to wait before asking again. */
  tryTake(cost: number): number;
}

function windowGate(limit: WindowLimit, now: () => number): Gate {
  // The time of each of the last `requests` units granted, oldest first, in a ring.
  const granted = new Array<number>(limit.requests).fill(Number.NEGATIVE_INFINITY);
  let oldest = 0;
  return {
    maxCost: limit.requests,
    tryTake(cost) {
      const at = now();
      // The cost-th oldest unit must have left the window.
      const freeAt = (granted[(oldest + cost - 1) % limit.requests] as number) + limit.perMs;
      if (at < freeAt) return Math.ceil(freeAt - at);
      for (let i = 0; i < cost; i += 1) {
        granted[oldest] = at;
        oldest = (oldest + 1) % limit.requests;
      }
      return 0;
    },
  };
}

function bucketGate(limit: BucketLimit, now: () => number): Gate {
  let tokens = limit.capacity;
  let at = now();
  return {
    maxCost: limit.capacity,
    tryTake(cost) {
      const t = now();
      tokens = Math.min(limit.capacity, tokens + ((t - at) * limit.tokensPerSecond) / 1000);
      at = t;
      if (tokens >= cost) {
        tokens -= cost;
        return 0;
      }
      return Math.max(1, Math.ceil(((cost - tokens) * 1000) / limit.tokensPerSecond));
    },
  };
}

function sleepFor(ms: number, signal?: AbortSignal): Promise<void> {
  return delay(ms, undefined, signal ? { signal } : {}).catch((error: unknown) => {
    throw signal?.reason ?? error;
  });
}

/**
 * The share of a venue's documented limit the archive spends at most. Below 1 so that a
 * clock a little fast, a request the venue counts and we do not (a browser on the same
 * account), or rounding never reaches the venue's throttle.
 */
export const VENUE_LIMIT_SHARE = 0.88;

/** A venue's "`requests` per `perMs`" limit, as the archive spends it. */
export function windowUnder(requests: number, perMs: number): WindowLimit {
  return { requests: Math.floor(requests * VENUE_LIMIT_SHARE), perMs, venuePerSecond: (requests * 1000) / perMs };
}

/**
 * A venue's token bucket of `tokensPerSecond`, counted in requests of `tokensPerRequest`
 * each (a batch item is billed as one request), as the archive spends it. Its capacity is
 * a second's refill: the venue's own bucket holds at least that.
 */
export function bucketUnder(tokensPerSecond: number, tokensPerRequest: number): BucketLimit {
  const rate = (tokensPerSecond / tokensPerRequest) * VENUE_LIMIT_SHARE;
  return { kind: "bucket", tokensPerSecond: rate, capacity: rate, venuePerSecond: tokensPerSecond / tokensPerRequest };
}
