/**
 * Load on loopback with autocannon against the server in a child process.
 *
 * The mix, cycled by every connection: small and medium `/api/query` calls (the latest
 * tables, one market's last day, the per-platform and per-category samples), the catalog
 * (`/api/tables`, a sample of a table) and `/api/sync/status`, all with an API key. Memory
 * is the server process's VmRSS, sampled every 250 ms.
 *
 * Beyond capacity, many more connections send only queries: the service admits a bounded
 * number (running plus waiting) and answers the rest 503 with Retry-After at once. A
 * probe beside autocannon records what a client sees (status and Retry-After), and the
 * server must still answer `/health` afterwards.
 */
import autocannon from "autocannon";
import { categoryExpression } from "../../apps/server/src/services/queries/examples";
import type { ChildServer } from "./server-child";

export interface LoadResult {
  connections: number;
  durationS: number;
  requests: number;
  requestsPerSecond: number;
  latency: { p50: number; p90: number; p99: number; max: number };
  statusCounts: Record<string, number>;
  non2xx: number;
  errors: number;
  timeouts: number;
  rss: { before: number; peak: number; after: number };
  /** What a client saw when refused (only the overload run). */
  refusals?: { status: number; retryAfter: string | null; body: string } | undefined;
  aliveAfter: boolean;
  healthAfter: number;
}

export function loadMix(lookupId: string): Array<{ method: "GET" | "POST"; path: string; body?: string }> {
  const query = (sql: string) => ({
    method: "POST" as const,
    path: "/api/query",
    body: JSON.stringify({ query: sql, limit: 1000 }),
  });
  const id = lookupId.replaceAll("'", "");
  return [
    query("SELECT count() AS open_markets FROM polymarket.markets_latest FINAL WHERE NOT ifNull(closed, false)"),
    { method: "GET", path: "/api/tables" },
    query(
      `SELECT sync_timestamp, yes_probability, volume FROM polymarket.markets WHERE id = '${id}' AND sync_timestamp >= now() - INTERVAL 1 DAY ORDER BY sync_timestamp`,
    ),
    { method: "GET", path: "/api/sync/status" },
    query(
      "SELECT ticker, yes_sub_title, last_price_dollars, volume_24h, open_interest FROM kalshi.markets_latest FINAL WHERE status = 'active' ORDER BY open_interest DESC NULLS LAST LIMIT 50",
    ),
    { method: "GET", path: "/api/table/polymarket/markets_latest/sample?limit=20" },
    query(
      `SELECT ${categoryExpression("question")} AS category, count() AS markets, round(sum(ifNull(volume24hr, 0))) AS volume_24h FROM polymarket.markets_latest FINAL WHERE NOT ifNull(closed, false) GROUP BY category ORDER BY volume_24h DESC`,
    ),
    query(
      "SELECT question, round(yes_probability, 3) AS p, round(volume24hr) AS v FROM polymarket.markets_latest FINAL WHERE NOT ifNull(closed, false) ORDER BY volume24hr DESC NULLS LAST LIMIT 100",
    ),
  ];
}

export async function runLoad(
  server: ChildServer,
  apiKey: string,
  options: { connections: number; durationS: number; queriesOnly?: boolean; lookupId: string },
): Promise<LoadResult> {
  const mix = loadMix(options.lookupId).filter((r) => !options.queriesOnly || r.path === "/api/query");
  const before = server.rss();
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, server.rss());
  }, 250);

  let refusals: LoadResult["refusals"];
  const probing = options.queriesOnly
    ? (async () => {
        // Let the queue fill, then look at what one more client gets.
        for (let attempt = 0; attempt < 40 && !refusals; attempt += 1) {
          await new Promise((resolve) => setTimeout(resolve, 250));
          const response = await fetch(`${server.baseUrl}/api/query`, {
            method: "POST",
            headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
            body: mix[0]?.body ?? "",
          }).catch(() => undefined);
          if (response && response.status !== 200) {
            refusals = {
              status: response.status,
              retryAfter: response.headers.get("retry-after"),
              body: (await response.text()).slice(0, 300),
            };
          } else await response?.arrayBuffer();
        }
      })()
    : Promise.resolve();

  const result = await autocannon({
    url: server.baseUrl,
    connections: options.connections,
    duration: options.durationS,
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    requests: mix,
    timeout: 60,
  });
  await probing;
  clearInterval(sampler);
  peak = Math.max(peak, server.rss());
  // Give the server a moment to finish what was in flight before reading "after".
  await new Promise((resolve) => setTimeout(resolve, 3000));
  let healthAfter = 0;
  try {
    healthAfter = (await fetch(`${server.baseUrl}/health`)).status;
  } catch {
    healthAfter = 0;
  }
  const statusCounts: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCounts[code] = stat.count ?? 0;
  return {
    connections: options.connections,
    durationS: result.duration,
    requests: result.requests.total,
    requestsPerSecond: result.requests.average,
    latency: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
    statusCounts,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    rss: { before, peak, after: server.rss() },
    refusals,
    aliveAfter: server.isAlive(),
    healthAfter,
  };
}
