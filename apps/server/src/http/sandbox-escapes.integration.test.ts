/**
 * Issue 23's findings, each from the outside, on every surface that takes SQL: the REST
 * API, the ClickHouse interface (also with the string bound from a parameter) and MCP's
 * run_query. An ordinary allow-listed user with one API key sends what the red team sent.
 */
import { readFileSync, statSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { ZApiError } from "@epicenter/contracts";
import { type Sandbox, toDateTime64 } from "@epicenter/warehouse";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type McpTestServer, startMcpTestServer } from "../testing/mcp-test-server";
import { json, signIn, signInWithKey } from "../testing/sign-in";
import { createTestApp, openUnconfinedSandbox, type TestApp } from "../testing/test-app";

let t: TestApp;
let ada: string;
let adaKey: string;
let mcp: McpTestServer;
const hostname = readFileSync("/etc/hostname", "utf8").trim();

beforeAll(async () => {
  t = await createTestApp({ env: { ALLOWED_EMAILS: "ada@example.com", ADMIN_EMAILS: "root@example.com" } });
  await t.stores.warehouse.insert("polymarket.markets", [
    { sync_timestamp: toDateTime64(Date.now()), id: "1", question: "Q1", volume24hr: 10 },
  ]);
  ({ token: ada, key: adaKey } = await signInWithKey(t, "ada@example.com", "red team"));
  mcp = await startMcpTestServer(t);
});
afterAll(async () => {
  await mcp?.close();
  await t?.close();
});

/** Statements that read a file, or raise a limit, through what the engine parses from a string or hides in APPLY. */
const ESCAPES = [
  "SELECT arrayReduce('groupConcat(file(''/etc/hostname''))', ['a', 'b'])",
  "SELECT arrayReduce(concat('groupConcat(file(''/etc/', 'hostname''))'), ['a'])",
  "SELECT arrayReduce(format('groupConcat(file({}))', '''/etc/hostname'''), ['a'])",
  "SELECT arrayReduce(base64Decode('Z3JvdXBDb25jYXQoZmlsZSgnL2V0Yy9ob3N0bmFtZScpKQ=='), ['a'])",
  "SELECT arrayReduce(reverse('))''emantsoh/cte/''(elif(tacnoCpuorg'), ['a'])",
  "WITH 'groupConcat(file(''/etc/hostname''))' AS f SELECT arrayReduce(f, ['a'])",
  "SELECT arrayReduceInRanges('groupConcat(file(''/etc/hostname''))', [(1, 2)], ['a', 'b'])",
  "SELECT initializeAggregation('groupConcatState(file(''/etc/hostname''))', 'a')",
  "SELECT arrayReduce('groupConcat((SELECT getSetting(''max_execution_time'') SETTINGS max_execution_time = 1000))', ['a'])",
  "SELECT * APPLY(file) FROM (SELECT '/etc/hostname' AS p)",
  "SELECT * APPLY(x -> getServerSetting('path')) FROM (SELECT 1 AS p)",
  "SELECT COLUMNS('p') APPLY(file) FROM (SELECT '/proc/self/cmdline' AS p)",
];

const errorOf = async (response: Response) => ZApiError.parse(await response.json()).error;

describe("POST /api/query", () => {
  it.each(ESCAPES)("%s → 400, nothing read", async (query) => {
    const response = await t.app.request("/api/query", json({ query }, { token: ada }));
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe("invalid_sql");
    // Refused by the check, not failed by the engine: nothing of it ran.
    expect(error.message).toMatch(/aggregate|APPLY|not available|string literal/);
    expect(JSON.stringify(error)).not.toContain(hostname);
  });

  it("refuses the arrayReduce family by name, and runs what does the same directly (issue 44)", async () => {
    const refused = await t.app.request(
      "/api/query",
      json({ query: "SELECT arrayReduce('max', [1, 3, 2]) AS a" }, { token: ada }),
    );
    expect(refused.status).toBe(400);
    expect((await errorOf(refused)).message).toMatch(/arrayReduce\(\) is not available: .*Use arraySum/);
    const response = await t.app.request(
      "/api/query",
      json(
        {
          query:
            "SELECT arrayMax([1, 3, 2]) AS a, b FROM (SELECT quantile(0.5)(x) AS b FROM (SELECT arrayJoin([1, 2, 3]) AS x))",
        },
        { token: ada },
      ),
    );
    expect(response.status).toBe(200);
    expect(((await response.json()) as { result: { data: unknown[] } }).result.data).toEqual([{ a: 3, b: 2 }]);
  });

  it("runs structures whose columns are called index, check, primary or comment", async () => {
    const response = await t.app.request(
      "/api/query",
      json(
        {
          query:
            "SELECT * FROM values('outcome String, comment String, index UInt8, check UInt8, primary String', ('yes', 'ok', 1, 0, 'p'))",
        },
        { token: ada },
      ),
    );
    expect(response.status, await response.clone().text()).toBe(200);
    const aliases = await t.app.request(
      "/api/query",
      json({ query: "SELECT 1 AS index, 2 AS check, 3 AS primary, 4 AS comment, 5 AS default" }, { token: ada }),
    );
    expect(aliases.status, await aliases.clone().text()).toBe(200);
  });
});

describe("the ClickHouse interface", () => {
  const post = (sql: string, search = "") =>
    t.app.request(`/clickhouse/?${search}`, {
      method: "POST",
      body: sql,
      headers: { authorization: `Basic ${Buffer.from(`any:${adaKey}`).toString("base64")}` },
    });

  it.each(ESCAPES)("%s → refused, nothing read", async (query) => {
    const response = await post(query);
    // Refusals are ClickHouse's ACCESS_DENIED (403), as a server's grants would answer.
    expect(response.status).toBe(403);
    const body = await response.text();
    expect(body).toMatch(/^Code: 497\. DB::Exception: .*(aggregate|APPLY|not available|string literal)/);
    expect(body).not.toContain(hostname);
  });

  it("refuses an aggregate string bound from a String parameter", async () => {
    const response = await post(
      "SELECT arrayReduce({agg:String}, ['a', 'b'])",
      `param_agg=${encodeURIComponent("groupConcat(file('/etc/hostname'))")}`,
    );
    expect(response.status).toBe(403);
    const body = await response.text();
    expect(body).toMatch(/runs its aggregate from a string/);
    expect(body).not.toContain(hostname);
  });
});

describe("the ClickHouse interface under load (findings 4 and 6)", () => {
  const get = (search: string) =>
    t.app.request(`/clickhouse/?${search}`, {
      headers: { authorization: `Basic ${Buffer.from(`any:${adaKey}`).toString("base64")}` },
    });

  it("stops a wait_end_of_query answer at the interactive byte cap instead of holding it all", async () => {
    const before = process.memoryUsage().rss;
    const response = await get(
      `wait_end_of_query=1&query=${encodeURIComponent("SELECT repeat('x', 900) FROM numbers(1000000) FORMAT TSV")}`,
    );
    expect(response.status).toBe(500);
    expect(await response.text()).toMatch(/^Code: 396\. .*larger than 32 MiB.*\(TOO_MANY_ROWS_OR_BYTES\)/);
    // 900 MB of answer once took the process from 650 MB to 1.85 GB.
    expect(process.memoryUsage().rss - before).toBeLessThan(400 * 1024 ** 2);
  });

  it("refuses a query_id with a line break before anything runs, and the next query runs at once", async () => {
    const refused = await get(`query_id=${encodeURIComponent("a\nb")}&query=${encodeURIComponent("SELECT 1")}`);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/query_id must be/);
    const next = await get(`query_id=tag-1&query=${encodeURIComponent("SELECT 1")}`);
    expect(next.status).toBe(200);
    expect(next.headers.get("x-clickhouse-query-id")).toBe("tag-1");
  });
});

describe("MCP run_query", () => {
  it.each(ESCAPES.slice(0, 4).concat(ESCAPES.slice(9)))("%s → an error result, nothing read", async (sql) => {
    const client = await mcp.connectHttp(adaKey);
    const answer = (await client.callTool({ name: "run_query", arguments: { sql } })) as CallToolResult;
    await client.close();
    expect(answer.isError).toBe(true);
    expect(JSON.stringify(answer.content)).toMatch(/aggregate|APPLY|not available|string literal/);
    expect(JSON.stringify(answer.content)).not.toContain(hostname);
  });
});

describe("where user SQL cannot be confined", () => {
  let unconfined: Sandbox;
  beforeAll(async () => {
    unconfined = await openUnconfinedSandbox(t);
  });
  afterAll(async () => {
    await unconfined?.close();
  });

  it("runs SQL for admins only, and says so on the health check", async () => {
    const app = t.withApp({ sandbox: unconfined });
    const refused = await app.request("/api/query", json({ query: "SELECT 1 AS one" }, { token: ada }));
    expect(refused.status).toBe(503);
    expect((await errorOf(refused)).message).toMatch(/administrators only.*bubblewrap/);
    const clickhouse = await app.request("/clickhouse/?query=SELECT%201", {
      headers: { authorization: `Basic ${Buffer.from(`any:${adaKey}`).toString("base64")}` },
    });
    expect(clickhouse.status).toBe(503);
    expect(await clickhouse.text()).toMatch(/administrators only/);

    const root = (await signIn(t, "root@example.com")).access_token;
    const admitted = await app.request("/api/query", json({ query: "SELECT 1 AS one" }, { token: root }));
    expect(admitted.status).toBe(200);

    const health = (await (await app.request("/health")).json()) as { sandbox: unknown };
    expect(health.sandbox).toEqual({ confined: false, user_sql: "admins" });
  });

  it("runs it for everyone when the operator allows it", async () => {
    const app = t.withApp({ sandbox: unconfined, config: { ...t.config, unconfinedSql: "allow" } });
    const answer = await app.request("/api/query", json({ query: "SELECT 1 AS one" }, { token: ada }));
    expect(answer.status).toBe(200);
    const health = (await (await app.request("/health")).json()) as { sandbox: unknown };
    expect(health.sandbox).toEqual({ confined: false, user_sql: "everyone" });
  });

  it("is not the case here: the server confines user SQL (bubblewrap, as CI installs it)", async () => {
    const health = (await (await t.app.request("/health")).json()) as { sandbox: unknown };
    expect(health.sandbox).toEqual({ confined: true, user_sql: "everyone" });
  });
});

describe("the server's files", () => {
  it("are its user's only: DATA_DIR, the app database and the outbox's mails", async () => {
    await t.app.request("/api/auth/magic-link", json({ email: "ada@example.com" }));
    expect(statSync(t.dataDir).mode & 0o777).toBe(0o700);
    const mails = await readdir(t.outboxDir);
    expect(mails.length).toBeGreaterThan(0);
    expect(statSync(t.outboxDir).mode & 0o077).toBe(0);
    for (const mail of mails) expect(statSync(join(t.outboxDir, mail)).mode & 0o077, mail).toBe(0);
    const appDir = join(t.dataDir, "app");
    expect(statSync(appDir).mode & 0o077).toBe(0);
    expect(statSync(join(appDir, "PG_VERSION")).mode & 0o077).toBe(0);
  });
});
