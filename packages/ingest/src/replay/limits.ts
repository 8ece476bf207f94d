/**
 * The venues' rate limits on the replay server, counted as each venue counts them
 * (API_FORMATS §4), so a client that overspends meets the refusal it would meet upstream:
 *
 * - Kalshi: one token bucket per account, `tokensPerSecond` refilled, holding a second's
 *   worth; a request costs 10 tokens and each ticker of a batch (`/markets/candlesticks`,
 *   `/markets/orderbooks`) 10 more; short of tokens → 429 without `Retry-After`.
 * - Polymarket: each endpoint its own count per 10 s (Gamma `/events` 500, the CLOB's
 *   `/prices-history` 1,000 with its batch route counted there too, the Data API's
 *   `/trades` 200); over it → 429. Cloudflare queues before it refuses; a refusal is the
 *   stricter model, and a client inside the limit never sees either.
 *
 * Off unless asked for: most tests are not about the rate. What each limit admitted is
 * kept for the measure of its use.
 */

export interface ReplayLimitOptions {
  /** Kalshi's read tokens per second (Basic 200); no bucket when absent. */
  kalshiTokensPerSecond?: number;
  /** Whether Polymarket's per-endpoint counts apply. */
  polymarket?: boolean;
  /** The clock the limits run on (ms); the monotonic one when absent. */
  now?: () => number;
}

export interface LimitUse {
  /** What the limit allows per second, in its unit (tokens, requests). */
  perSecond: number;
  /** Units admitted, and requests refused. */
  admitted: number;
  refused: number;
  /** The most units admitted in any one of the limit's windows (1 s for a bucket, 10 s else). */
  busiestWindow: number;
  windowMs: number;
}

export interface ReplayLimits {
  /** Null when the request may be served; else the refusal's headers. */
  admit(url: URL): { retryAfter: string | null } | null;
  use(): Record<string, LimitUse>;
}

const KALSHI_TOKENS_PER_REQUEST = 10;
const POLYMARKET_WINDOW_MS = 10_000;
const POLYMARKET_ENDPOINTS: ReadonlyArray<{ name: string; match: RegExp; requests: number }> = [
  { name: "polymarket /events", match: /^\/polymarket\/events/, requests: 500 },
  { name: "polymarket-clob /prices-history", match: /^\/polymarket-clob\/(batch-)?prices-history/, requests: 1_000 },
  { name: "polymarket-data /trades", match: /^\/polymarket-data\/(v2\/)?trades/, requests: 200 },
  { name: "polymarket-clob /books", match: /^\/polymarket-clob\/books$/, requests: 500 },
];

export function createReplayLimits(options: ReplayLimitOptions): ReplayLimits {
  const now = options.now ?? (() => performance.now());
  const counters = new Map<string, Counter>();
  const kalshiRate = options.kalshiTokensPerSecond;
  if (kalshiRate) counters.set("kalshi", bucketCounter(kalshiRate, now));
  if (options.polymarket) {
    for (const endpoint of POLYMARKET_ENDPOINTS) {
      counters.set(endpoint.name, windowCounter(endpoint.requests, POLYMARKET_WINDOW_MS, now));
    }
  }
  return {
    admit(url) {
      if (url.pathname.startsWith("/kalshi/")) {
        const bucket = counters.get("kalshi");
        if (!bucket) return null;
        return bucket.take(kalshiCost(url)) ? null : { retryAfter: null };
      }
      const endpoint = POLYMARKET_ENDPOINTS.find(({ match }) => match.test(url.pathname));
      const counter = endpoint && counters.get(endpoint.name);
      if (!counter) return null;
      return counter.take(1) ? null : { retryAfter: "1" };
    },
    use: () => Object.fromEntries([...counters].map(([name, counter]) => [name, counter.use()])),
  };
}

/** Tokens a Kalshi request costs: 10, and 10 for each ticker of a batch. */
export function kalshiCost(url: URL): number {
  const batch = url.searchParams.get("market_tickers") ?? url.searchParams.get("tickers");
  const items = batch && /\/markets\/(candlesticks|orderbooks)$/.test(url.pathname) ? batch.split(",").length : 1;
  return items * KALSHI_TOKENS_PER_REQUEST;
}

interface Counter {
  take(cost: number): boolean;
  use(): LimitUse;
}

/** Admitted units by time, to find the busiest window afterwards. */
function ledger(windowMs: number) {
  const times: number[] = [];
  const costs: number[] = [];
  let busiest = 0;
  let inWindow = 0;
  let first = 0;
  return {
    add(at: number, cost: number) {
      times.push(at);
      costs.push(cost);
      inWindow += cost;
      while ((times[first] as number) <= at - windowMs) inWindow -= costs[first++] as number;
      busiest = Math.max(busiest, inWindow);
      if (first > 10_000) {
        times.splice(0, first);
        costs.splice(0, first);
        first = 0;
      }
    },
    busiest: () => busiest,
  };
}

function bucketCounter(tokensPerSecond: number, now: () => number): Counter {
  let tokens = tokensPerSecond;
  let at = now();
  let admitted = 0;
  let refused = 0;
  const seen = ledger(1_000);
  return {
    take(cost) {
      const t = now();
      tokens = Math.min(tokensPerSecond, tokens + ((t - at) * tokensPerSecond) / 1000);
      at = t;
      if (tokens < cost) {
        refused += 1;
        return false;
      }
      tokens -= cost;
      admitted += cost;
      seen.add(t, cost);
      return true;
    },
    use: () => ({ perSecond: tokensPerSecond, admitted, refused, busiestWindow: seen.busiest(), windowMs: 1_000 }),
  };
}

function windowCounter(requests: number, windowMs: number, now: () => number): Counter {
  const seen = ledger(windowMs);
  const recent: number[] = [];
  let admitted = 0;
  let refused = 0;
  return {
    take(cost) {
      const t = now();
      while (recent.length > 0 && (recent[0] as number) <= t - windowMs) recent.shift();
      if (recent.length + cost > requests) {
        refused += 1;
        return false;
      }
      for (let i = 0; i < cost; i += 1) recent.push(t);
      admitted += cost;
      seen.add(t, cost);
      return true;
    },
    use: () => ({
      perSecond: (requests * 1000) / windowMs,
      admitted,
      refused,
      busiestWindow: seen.busiest(),
      windowMs,
    }),
  };
}
