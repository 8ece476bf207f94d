/**
 * Issue 44's "done when", measured on a running server (`npm run demo`): under each of the
 * red team's requests, how long `/health` and another user's `SELECT 1` took at most, and
 * how much the server's resident memory grew. Sign-in goes through the outbox, so the two
 * users must be allow-listed first (`npm run admin -- allow add …`).
 *
 *   npx tsx scripts/bench/red-team-44.ts --url http://127.0.0.1:3000 --data-dir .demo-data \
 *     --pid <server pid> --hostile ada@example.com --other bob@example.com
 *
 * It prints one line per finding; the figures go into the issue's note.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { signInThroughOutbox } from "./hostile";

const { values: args } = parseArgs({
  options: {
    url: { type: "string", default: "http://127.0.0.1:3000" },
    "data-dir": { type: "string", default: ".demo-data" },
    pid: { type: "string" },
    hostile: { type: "string", default: "ada@example.com" },
    other: { type: "string", default: "bob@example.com" },
  },
});
const baseUrl = args.url as string;
const pid = Number(args.pid);

const signIn = (email: string) => signInThroughOutbox(baseUrl, args["data-dir"] as string, email);

const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
const mb = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(0)} MB`;

/** /health every 100 ms, the other user's SELECT 1 every 250 ms, the server's RSS every 100 ms. */
function probes(otherToken: string) {
  let health = 0;
  let other = 0;
  let otherFailures = 0;
  let peak = 0;
  let running = true;
  const loop = async (every: number, work: () => Promise<void>) => {
    while (running) {
      await work();
      await new Promise((resolve) => setTimeout(resolve, every));
    }
  };
  const timed = async (request: () => Promise<Response>) => {
    const started = performance.now();
    const response = await request().catch(() => undefined);
    await response?.arrayBuffer();
    return { ms: performance.now() - started, ok: response?.ok === true };
  };
  const all = Promise.all([
    loop(100, async () => {
      health = Math.max(health, (await timed(() => fetch(`${baseUrl}/health`))).ms);
    }),
    loop(250, async () => {
      const answer = await timed(() =>
        fetch(`${baseUrl}/api/query`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${otherToken}` },
          body: JSON.stringify({ query: "SELECT 1" }),
        }),
      );
      other = Math.max(other, answer.ms);
      if (!answer.ok) otherFailures++;
    }),
    loop(100, async () => {
      peak = Math.max(peak, rss());
    }),
  ]);
  return async () => {
    running = false;
    await all;
    return { health, other, otherFailures, peak };
  };
}

async function measure(name: string, otherToken: string, work: () => Promise<string>): Promise<void> {
  const before = rss();
  const stop = probes(otherToken);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const started = performance.now();
  const outcome = await work().catch((error: Error) => `failed: ${error.message}`);
  const ms = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 500));
  const figures = await stop();
  console.log(
    `${name}: ${outcome} in ${ms.toFixed(0)} ms · /health max ${figures.health.toFixed(0)} ms · other user's SELECT 1 max ${figures.other.toFixed(0)} ms (${figures.otherFailures} failed) · RSS ${mb(before)} → peak ${mb(figures.peak)} (+${mb(Math.max(0, figures.peak - before))})`,
  );
}

/** An LZ4 frame of 65,536 one-byte stored blocks, then `linked` six-byte compressed blocks that may reach back. */
function adversarialLz4(linked: number): Buffer {
  const parts: Buffer[] = [Buffer.from([0x04, 0x22, 0x4d, 0x18, 0x40, 0x40, 0x00])];
  const stored = Buffer.alloc(5);
  stored.writeUInt32LE(0x80000001, 0);
  stored[4] = 0x20;
  for (let index = 0; index < 65_536; index++) parts.push(stored);
  const compressed = Buffer.from([6, 0, 0, 0, 0x50, 0x53, 0x45, 0x4c, 0x45, 0x43]);
  for (let index = 0; index < linked; index++) parts.push(compressed);
  parts.push(Buffer.alloc(4));
  return Buffer.concat(parts);
}

async function main(): Promise<void> {
  const hostile = await signIn(args.hostile as string);
  const other = await signIn(args.other as string);
  const created = await fetch(`${baseUrl}/api/keys/create`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${hostile.token}` },
    body: JSON.stringify({ name: "red team 44", user_id: hostile.userId }),
  });
  const key = ((await created.json()) as { key: string }).key;
  const basic = `Basic ${Buffer.from(`any:${key}`).toString("base64")}`;
  const api = async (query: string, params?: Record<string, string>) => {
    const response = await fetch(`${baseUrl}/api/query`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify(params ? { query, params } : { query }),
    });
    const text = await response.text();
    return `${response.status} ${text.slice(0, 120)}`;
  };
  const clickhouse = async (search: string, body: string | Buffer, headers: Record<string, string> = {}) => {
    const response = await fetch(`${baseUrl}/clickhouse/?${search}`, { method: "POST", body, headers });
    const text = await response.text();
    return `${response.status} ${text.slice(0, 100).trim()}`;
  };
  console.log(`server pid ${pid}, RSS ${mb(rss())}, load average ${readFileSync("/proc/loadavg", "utf8").trim()}`);

  const forged =
    "SELECT b, 1 AS z$a$ FROM values('a String, b String ALIAS file(''/etc/passwd'')', 'x') AS `t\n       ExpressionList (children 1)\n        Literal 'a String'` WHERE (1 AS w$a$) = 1";
  await measure("1. forged dump lines, /api/query", other.token, () => api(forged));
  await measure("1. forged dump lines, /clickhouse/ body", other.token, () =>
    clickhouse("", forged, { authorization: basic }),
  );
  for (const linked of [8, 64]) {
    const body = adversarialLz4(linked);
    await measure(`2. anonymous LZ4 body (${body.length} bytes, ${linked} linked blocks)`, other.token, () =>
      clickhouse("", body, { "content-encoding": "lz4" }),
    );
    await measure(`2. the same body with a valid key`, other.token, () =>
      clickhouse("", body, { "content-encoding": "lz4", authorization: basic }),
    );
  }
  for (const count of [200, 1_000]) {
    const uses = Array.from({ length: count }, () => "{a:String}").join(", ");
    await measure(`3. a 64 KiB parameter used ${count} times, /api/query`, other.token, () =>
      api(`SELECT length(concat(${uses})) AS n`, { a: "x".repeat(65_536) }),
    );
  }
  {
    const uses = Array.from({ length: 200 }, () => "{a:String}").join(", ");
    // Node refuses a request line past 16 KiB (431), so the value in the URL is 8 KiB.
    await measure("3. an 8 KiB param_a used 200 times, /clickhouse/", other.token, () =>
      clickhouse(`param_a=${"y".repeat(8_192)}`, `SELECT length(concat(${uses})) AS n`, { authorization: basic }),
    );
  }
  await measure("4. 3,000 × SET param_<n> = '<95 KB>' on one session", other.token, async () => {
    const statuses = new Map<number, number>();
    const value = "z".repeat(95_000);
    for (let index = 0; index < 3_000; index++) {
      const response = await fetch(`${baseUrl}/clickhouse/?session_id=red-team-44`, {
        method: "POST",
        body: `SET param_p${index} = '${value}'`,
        headers: { authorization: basic },
      });
      await response.arrayBuffer();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    }
    return [...statuses].map(([status, count]) => `${count} × ${status}`).join(", ");
  });
  await measure("5. arrayReduce with a subquery's SETTINGS in its aggregate", other.token, () =>
    api(
      "SELECT arrayReduce('groupConcat((SELECT getSetting(''max_execution_time'') SETTINGS max_execution_time = 1000))', ['a'])",
    ),
  );
  const ordinary = [
    "SELECT count() FROM polymarket.books",
    "SELECT count() FROM kalshi.books",
    "SELECT * FROM polymarket.markets_latest FINAL LIMIT 5",
    "SELECT * FROM kalshi.markets_latest FINAL LIMIT 5",
    "SELECT name, total_rows FROM epicenter_system.tables ORDER BY name",
    "SELECT count() FROM polymarket.markets WHERE sync_timestamp > now() - INTERVAL 1 DAY",
    "SELECT * FROM polymarket.markets_asof(now() - INTERVAL 1 DAY) LIMIT 5",
    "SELECT * FROM kalshi.book_asof(ts = now() - INTERVAL 1 HOUR) LIMIT 5",
  ];
  await measure(
    `7. ${ordinary.length} ordinary queries (books, FINAL, catalogue views, as-of)`,
    other.token,
    async () => {
      const answers = await Promise.all(ordinary.map((query) => api(query)));
      const failed = answers.filter((answer) => !answer.startsWith("200"));
      return `${ordinary.length - failed.length} of ${ordinary.length} answered${failed.length > 0 ? `; ${failed.join(" | ")}` : ""}`;
    },
  );
}

await main();
