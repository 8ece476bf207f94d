/**
 * Issue 18's "done when" (and issue 23's escapes): under each single hostile query, aborted by its client after
 * 3 s, `/health` answers within 1 s throughout, another user's small query within 2 s,
 * and the hostile query is stopped within its limit plus 5 s; and the server's memory
 * stays bounded under oversized bodies and results.
 *
 * The server runs in a child process (`startChildServer`) so its event loop and its peak
 * resident memory (VmHWM) are its own. Two users sign in through the outbox; the admin
 * reads each hostile run's recorded duration from `/api/admin/query-runs`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import type { ChildServer } from "./server-child";

export interface HostileCase {
  name: string;
  /** Most /health took while it ran, ms (probed every 100 ms). */
  healthMaxMs: number;
  /** Most another user's small query took while it ran, ms (every 250 ms). */
  otherUserMaxMs: number;
  otherUserFailures: number;
  /** How long the engine ran it, from the run record (undefined: refused before it ran). */
  ranMs: number | undefined;
  /** What the hostile caller got. */
  outcome: string;
  /** The server's peak resident memory after it (VmHWM). */
  peakRss: number;
}

export interface MemoryCase {
  name: string;
  status: string;
  peakRssBefore: number;
  peakRssAfter: number;
  ms: number;
}

export interface HostileResult {
  cases: HostileCase[];
  memory: MemoryCase[];
  timeLimitSeconds: number;
}

const HOSTILE: Array<{ name: string; sql: string; path?: string; stallAfterFirstChunk?: boolean }> = [
  {
    name: "one block the engine cannot interrupt (a 60-million-element arrayMap)",
    sql: "SELECT length(arrayMap(x -> sipHash64(x, x, x, x), range(60000000))) AS n",
  },
  {
    name: "a scan of both cores (sipHash over numbers_mt)",
    sql: "SELECT count() FROM numbers_mt(1000000000000) WHERE sipHash64(number) % 7 = 3",
  },
  {
    name: "95,000 spaces and a syntax error",
    sql: `SELECT 1 ${" ".repeat(47_500)} FROM ${" ".repeat(47_500)} WHERE = =`,
  },
  {
    name: "a result of control characters (20 MB raw, 120 MB as JSON)",
    sql: "SELECT repeat(char(1), 1000000) AS s FROM numbers(20)",
  },
  {
    name: "a file read through an aggregate's parameters (issue 23)",
    sql: "SELECT arrayReduce('groupConcat(file(''/etc/hostname''))', ['a', 'b'])",
  },
  {
    name: "a file read hidden in APPLY (issue 23)",
    sql: "SELECT * APPLY(file) FROM (SELECT '/etc/hostname' AS p)",
  },
  {
    name: "a memory limit raised in a subquery's SETTINGS (issue 23)",
    sql: "SELECT * FROM (SELECT length(groupArray(repeat('x', 100))) FROM numbers(50000000) SETTINGS max_memory_usage = 100000000000)",
  },
  {
    name: "a download whose reader takes one chunk and stops",
    sql: "SELECT number, repeat('x', 1000) AS pad FROM numbers(100000000)",
    path: "/api/query/export",
    stallAfterFirstChunk: true,
  },
];

export async function runHostileBench(
  server: ChildServer,
  dataDir: string,
  users: { hostile: string; other: string; admin: string },
  log: (line: string) => void,
): Promise<HostileResult> {
  const [hostile, other, admin] = await Promise.all([
    signIn(server.baseUrl, dataDir, users.hostile),
    signIn(server.baseUrl, dataDir, users.other),
    signIn(server.baseUrl, dataDir, users.admin),
  ]);
  const cases: HostileCase[] = [];
  log(`hostile: the server's peak RSS after start and sign-in: ${mb(peakRss(server.pid))}`);
  for (const item of HOSTILE) {
    const probes = startProbes(server.baseUrl, other);
    const started = Date.now();
    const outcome = await hostileRequest(server.baseUrl, hostile, item);
    // Probe on until the hostile run is recorded as over (or 40 s).
    const ranMs = await recordedDuration(server.baseUrl, admin, item.sql, started, 40_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const figures = await probes.stop();
    cases.push({ name: item.name, ...figures, ranMs, outcome, peakRss: peakRss(server.pid) });
    log(
      `hostile: ${item.name}: health max ${figures.healthMaxMs} ms, other user max ${figures.otherUserMaxMs} ms (${figures.otherUserFailures} failed), ran ${ranMs ?? "—"} ms, ${outcome}, peak RSS ${mb(peakRss(server.pid))}`,
    );
  }

  const memory: MemoryCase[] = [];
  const oversized = async (name: string, path: string, count: number, bytes: number, isChunked: boolean) => {
    const before = peakRss(server.pid);
    const started = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: count }, () => sendBody(server.baseUrl, path, bytes, isChunked, hostile)),
    );
    const result = {
      name,
      status: summarize(statuses),
      peakRssBefore: before,
      peakRssAfter: peakRss(server.pid),
      ms: Math.round(performance.now() - started),
    };
    memory.push(result);
    log(`memory: ${name}: ${result.status} in ${result.ms} ms, peak RSS ${mb(before)} → ${mb(result.peakRssAfter)}`);
  };
  await oversized(
    "8 bodies of 500 MiB to /api/auth/verify (Content-Length)",
    "/api/auth/verify",
    8,
    500 * 1024 ** 2,
    false,
  );
  await oversized("8 chunked bodies of 500 MiB to /api/query", "/api/query", 8, 500 * 1024 ** 2, true);
  const before = peakRss(server.pid);
  const started = performance.now();
  const results = await Promise.all(
    Array.from({ length: 4 }, () =>
      post(server.baseUrl, "/api/query", hostile, {
        query: "SELECT repeat(char(1), 1000000) AS s FROM numbers(20)",
        limit: 100,
      }),
    ),
  );
  const amplification = {
    name: "4 results of control characters at once (120 MB as JSON each)",
    status: results
      .map((r) => `${r.status} ${(r.bytes / 1024 ** 2).toFixed(0)} MiB${r.truncated ? " truncated" : ""}`)
      .join(", "),
    peakRssBefore: before,
    peakRssAfter: peakRss(server.pid),
    ms: Math.round(performance.now() - started),
  };
  memory.push(amplification);
  log(
    `memory: ${amplification.name}: ${amplification.status}, peak RSS ${mb(before)} → ${mb(amplification.peakRssAfter)}`,
  );
  return { cases, memory, timeLimitSeconds: 30 };
}

function startProbes(baseUrl: string, token: string) {
  let healthMaxMs = 0;
  let otherUserMaxMs = 0;
  let otherUserFailures = 0;
  let isRunning = true;
  const health = (async () => {
    while (isRunning) {
      const started = performance.now();
      await fetch(`${baseUrl}/health`)
        .then((r) => r.arrayBuffer())
        .catch(() => undefined);
      healthMaxMs = Math.max(healthMaxMs, Math.round(performance.now() - started));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const small = (async () => {
    while (isRunning) {
      const started = performance.now();
      const response = await post(baseUrl, "/api/query", token, { query: "SELECT count() AS n FROM numbers(1000)" });
      if (response.status !== 200) otherUserFailures += 1;
      otherUserMaxMs = Math.max(otherUserMaxMs, Math.round(performance.now() - started));
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  return {
    stop: async () => {
      isRunning = false;
      await Promise.all([health, small]);
      return { healthMaxMs, otherUserMaxMs, otherUserFailures };
    },
  };
}

/** The hostile request, aborted by its client after 3 s (or, for the download, left unread). */
async function hostileRequest(baseUrl: string, token: string, item: (typeof HOSTILE)[number]): Promise<string> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 3_000);
  try {
    const response = await fetch(`${baseUrl}${item.path ?? "/api/query"}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(
        item.path ? { query: item.sql, format: "csv", limit: 1_000_000 } : { query: item.sql, limit: 100 },
      ),
      signal: controller.signal,
    });
    if (item.stallAfterFirstChunk && response.body) {
      clearTimeout(timer);
      const reader = response.body.getReader();
      await reader.read();
      // Never read again; the server's idle deadline must cut it.
      return `${response.status}, one chunk read, then nothing`;
    }
    const text = await response.text();
    const body = JSON.parse(text) as { error?: { code: string }; result?: { truncated: boolean } };
    return `${response.status} ${body.error?.code ?? (body.result?.truncated ? "truncated" : "complete")} (${(text.length / 1024 ** 2).toFixed(1)} MiB)`;
  } catch {
    return "aborted by the client after 3 s";
  } finally {
    clearTimeout(timer);
  }
}

async function recordedDuration(
  baseUrl: string,
  adminToken: string,
  sql: string,
  since: number,
  timeoutMs: number,
): Promise<number | undefined> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const response = await fetch(`${baseUrl}/api/admin/query-runs`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    const body = (await response.json()) as { runs?: Array<{ sql: string; started_at: string; duration_ms: number }> };
    const run = body.runs?.find((r) => r.sql === sql && Date.parse(r.started_at) >= since - 1_000);
    if (run) return run.duration_ms;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return undefined;
}

async function post(
  baseUrl: string,
  path: string,
  token: string,
  body: unknown,
): Promise<{ status: number; bytes: number; truncated: boolean }> {
  try {
    const response = await fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, bytes: text.length, truncated: text.includes('"truncated":true') };
  } catch {
    return { status: 0, bytes: 0, truncated: false };
  }
}

/** Streams `bytes` of spaces without holding them: the client side of a flood. */
function sendBody(baseUrl: string, path: string, bytes: number, isChunked: boolean, token: string): Promise<number> {
  const url = new URL(path, baseUrl);
  return new Promise((resolve) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${token}`,
          ...(isChunked ? { "transfer-encoding": "chunked" } : { "content-length": String(bytes) }),
        },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    req.on("error", () => resolve(0));
    const piece = Buffer.alloc(1024 * 1024, 32);
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        sent += piece.length;
        if (!req.write(piece)) {
          req.once("drain", pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

async function signIn(baseUrl: string, dataDir: string, email: string): Promise<string> {
  return (await signInThroughOutbox(baseUrl, dataDir, email)).token;
}

/** Signs `email` in on a running server through its outbox: the access token and the user's id. */
export async function signInThroughOutbox(
  baseUrl: string,
  dataDir: string,
  email: string,
): Promise<{ token: string; userId: string }> {
  const asked = Date.now() - 1_000;
  const response = await fetch(`${baseUrl}/api/auth/magic-link`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email }),
  });
  if (!response.ok) throw new Error(`magic link for ${email}: ${response.status} ${await response.text()}`);
  const outbox = join(dataDir, "outbox");
  for (let attempt = 0; attempt < 50; attempt++) {
    for (const file of readdirSync(outbox).sort().reverse()) {
      const mail = JSON.parse(readFileSync(join(outbox, file), "utf8")) as {
        to: string;
        link: string;
        created_at: string;
      };
      if (mail.to !== email || Date.parse(mail.created_at) < asked) continue;
      const token = new URL(mail.link).searchParams.get("token");
      const verified = await fetch(`${baseUrl}/api/auth/verify`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token }),
      });
      const body = (await verified.json()) as { access_token: string; user: { id: string } };
      return { token: body.access_token, userId: body.user.id };
    }
    // The mail is written as the answer goes out; a loaded machine may take a moment.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail to ${email}`);
}

function peakRss(pid: number): number {
  try {
    return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

function summarize(statuses: number[]): string {
  const counts = new Map<number, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts].map(([status, count]) => `${count} × ${status === 0 ? "closed" : status}`).join(", ");
}

const mb = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(0)} MiB`;
