/**
 * The MCP server through the SDK's own client, over both transports: streamable HTTP
 * against the real app listening on a port, and stdio through `cli/mcp.ts` spawned as a
 * desktop agent would start it, forwarding to that server. The same checks run on both:
 * every tool on seeded market data, the sandbox's refusals as tool errors, the row and
 * byte bounds, saved queries with parameters, and the run records. Then what keeps
 * callers out: no key, a session token, a wrong or revoked key.
 */
import type { CreatedApiKey, SavedQuery, SessionTokens } from "@epicenter/contracts";
import { queryRows, removeFromAllowList } from "@epicenter/db";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  call,
  FERRY,
  KALSHI_LISBON,
  LISBON,
  type McpTestServer,
  type QueryAnswer,
  seedMarkets,
  startMcpTestServer,
  structured,
  textOf,
} from "../../testing/mcp-test-server";
import { json, signIn } from "../../testing/sign-in";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { MAX_MCP_BODY_BYTES, MCP_PATH } from "./post-mcp";

const TOOLS = ["describe_table", "list_saved_queries", "list_tables", "run_query", "run_saved_query", "search_markets"];

let t: TestApp;
let mcp: McpTestServer;
let ada: SessionTokens;
let adaKey: CreatedApiKey;
let adaQuery: SavedQuery;
let grace: SessionTokens;
let graceQuery: SavedQuery;

beforeAll(async () => {
  t = await createTestApp({ env: { ALLOWED_EMAILS: "ada@example.com,grace@example.com" } });
  await seedMarkets(t.stores.warehouse);
  mcp = await startMcpTestServer(t);
  ada = await signIn(t, "ada@example.com");
  adaKey = await createKey(ada, "mcp");
  adaQuery = await saveQuery(ada, {
    title: "One market's snapshots",
    sql: "SELECT id, question, sync_timestamp FROM polymarket.markets WHERE id = {market_id:String} ORDER BY sync_timestamp",
  });
  grace = await signIn(t, "grace@example.com");
  graceQuery = await saveQuery(grace, { title: "Grace's private query", sql: "SELECT 1 AS one" });
});

afterAll(async () => {
  await mcp?.close();
  await t?.close();
});

async function createKey(session: SessionTokens, name: string): Promise<CreatedApiKey> {
  const created = await t.app.request(
    "/api/keys/create",
    json({ name, user_id: session.user.id }, { token: session.access_token }),
  );
  expect(created.status).toBe(201);
  return (await created.json()) as CreatedApiKey;
}

async function saveQuery(session: SessionTokens, body: { title: string; sql: string }): Promise<SavedQuery> {
  const saved = await t.app.request("/api/queries", json(body, { token: session.access_token }));
  expect(saved.status).toBe(201);
  return (await saved.json()) as SavedQuery;
}

async function runsOf(origin: string): Promise<Array<{ sql: string; query_id: string | null; api_key_id: string }>> {
  await t.stores.queryRuns.flush();
  return queryRows(
    t.stores.appDatabase.db,
    sql`SELECT sql, query_id, api_key_id FROM query_runs WHERE origin = ${origin} ORDER BY started_at`,
  );
}

describe.each([
  ["streamable HTTP", (key: string) => mcp.connectHttp(key)],
  ["stdio (npm run mcp)", (key: string) => mcp.connectStdio(key)],
])("MCP over %s", (_transport, connect) => {
  let client: Client;
  beforeAll(async () => {
    client = await connect(adaKey.key);
  });
  afterAll(async () => {
    await client?.close();
  });

  it("lists the tools, each saying what the data means, and the resources", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
    const runQuery = tools.find((tool) => tool.name === "run_query");
    expect(runQuery?.description).toMatch(/probabilities from 0 to 1/);
    expect(runQuery?.description).toMatch(/every 10 minutes/);
    expect(runQuery?.description).toMatch(/combo/);
    expect(runQuery?.description).toMatch(/polymarket\.prices/);
    expect(runQuery?.inputSchema.properties).toHaveProperty("sql");
    expect(client.getInstructions()).toMatch(/Polymarket and Kalshi/);
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri).sort()).toEqual([
      "epicenter://docs/latest-row-pattern",
      "epicenter://tables",
    ]);
  });

  it("list_tables: the market tables with their row counts, nothing internal", async () => {
    const { tables } = await structured<{ tables: Array<{ name: string; row_count: number | null }> }>(
      client,
      "list_tables",
      {},
    );
    const byName = new Map(tables.map((table) => [table.name, table]));
    expect(byName.get("polymarket.markets_latest")?.row_count).toBe(2);
    expect(byName.get("polymarket.markets")?.row_count).toBe(6);
    expect(byName.get("kalshi.markets_latest")?.row_count).toBe(1);
    expect(byName.has("kalshi.candles")).toBe(true);
    expect(tables.every((table) => /^(polymarket|kalshi|crossvenue)\./.test(table.name))).toBe(true);
    const kalshiOnly = await structured<{ tables: Array<{ name: string }> }>(client, "list_tables", {
      database: "kalshi",
    });
    expect(kalshiOnly.tables.length).toBeGreaterThan(0);
    expect(kalshiOnly.tables.every((table) => table.name.startsWith("kalshi."))).toBe(true);
  });

  it("describe_table: columns, types, descriptions and real sample values", async () => {
    const table = await structured<{
      name: string;
      columns: Array<{ name: string; type: string; description: string | null; sample_values: unknown[] }>;
    }>(client, "describe_table", { table: "polymarket.markets_latest" });
    expect(table.name).toBe("polymarket.markets_latest");
    const question = table.columns.find((column) => column.name === "question");
    expect(question?.type).toContain("String");
    expect(question?.description).toBeTruthy();
    expect(question?.sample_values.sort()).toEqual([LISBON.question, FERRY.question].sort());
    // An as-of view: its columns (which the engine's system.columns leaves out), sampled as of now.
    const asOf = await structured<{
      name: string;
      columns: Array<{ name: string; description: string | null; sample_values: unknown[] }>;
      sample_note: string | null;
    }>(client, "describe_table", { table: "polymarket.markets_asof" });
    expect(asOf.columns.slice(0, 3).map((column) => column.name)).toEqual(["captured_at", "sync_timestamp", "id"]);
    expect(asOf.columns.every((column) => column.description)).toBe(true);
    expect(asOf.columns.find((column) => column.name === "question")?.sample_values.sort()).toEqual(
      [LISBON.question, FERRY.question].sort(),
    );
    const unknown = await call(client, "describe_table", { table: "internal.sync_run_history" });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/No table internal\.sync_run_history/);
  });

  it("run_query: columns and rows from the warehouse, parameters bound by the engine", async () => {
    const answer = await structured<QueryAnswer>(client, "run_query", {
      sql: "SELECT id, question, yes_probability FROM polymarket.markets_latest FINAL ORDER BY id",
    });
    expect(answer.columns.map((column) => column.name)).toEqual(["id", "question", "yes_probability"]);
    expect(answer.rows).toEqual([
      [LISBON.id, LISBON.question, LISBON.yes],
      [FERRY.id, FERRY.question, FERRY.yes],
    ]);
    expect(answer).toMatchObject({ row_count: 2, truncated: false, cut_by: null });
    const bound = await structured<QueryAnswer>(client, "run_query", {
      sql: "SELECT ticker, last_price_dollars FROM kalshi.markets_latest FINAL WHERE ticker = {ticker:String}",
      params: { ticker: KALSHI_LISBON.ticker },
    });
    expect(bound.rows).toEqual([[KALSHI_LISBON.ticker, KALSHI_LISBON.yes]]);
  });

  it("run_query: forbidden SQL is a tool error with the sandbox's message, and nothing changes", async () => {
    const dropped = await call(client, "run_query", { sql: "DROP TABLE polymarket.markets" });
    expect(dropped.isError).toBe(true);
    expect(textOf(dropped)).toMatch(/Only SELECT queries are allowed/);
    const system = await call(client, "run_query", { sql: "SELECT * FROM system.users" });
    expect(system.isError).toBe(true);
    expect(textOf(system)).not.toBe("");
    const count = await structured<QueryAnswer>(client, "run_query", { sql: "SELECT count() FROM polymarket.markets" });
    expect(count.rows).toEqual([["6"]]);
  });

  it("run_query: a result past the row limit or the byte bound is cut, and says so", async () => {
    const byRows = await structured<QueryAnswer>(client, "run_query", {
      sql: "SELECT number FROM numbers(5000)",
      limit: 7,
    });
    expect(byRows).toMatchObject({ row_count: 7, truncated: true, cut_by: "rows" });
    expect(byRows.rows).toHaveLength(7);
    const byBytes = await call(client, "run_query", {
      sql: "SELECT number, repeat('x', 2000) AS filler FROM numbers(1000)",
      limit: 1000,
    });
    const answer = byBytes.structuredContent as unknown as QueryAnswer;
    expect(answer.truncated).toBe(true);
    expect(answer.cut_by).toBe("bytes");
    expect(answer.row_count).toBeGreaterThan(0);
    expect(answer.row_count).toBeLessThan(1000);
    expect(JSON.stringify(answer.rows).length).toBeLessThanOrEqual(256 * 1024);
    expect(textOf(byBytes)).toMatch(/cut at the 256 KiB bound/);
    const tooMany = await call(client, "run_query", { sql: "SELECT 1", limit: 100_000 });
    expect(tooMany.isError).toBe(true);
  });

  it("search_markets: both venues' latest rows with ids, titles, prices and status", async () => {
    const { markets } = await structured<{
      markets: Array<{ venue: string; id: string; title: string; status: string; outcomes: unknown[] }>;
    }>(client, "search_markets", { q: "lisbon" });
    const found = new Map(markets.map((market) => [`${market.venue}:${market.id}`, market]));
    expect([...found.keys()].sort()).toEqual([`kalshi:${KALSHI_LISBON.ticker}`, "polymarket:501", "polymarket:502"]);
    expect(found.get("polymarket:501")).toMatchObject({ title: LISBON.question, status: "open" });
    expect(found.get("polymarket:501")?.outcomes).toEqual([
      { label: "Yes", price: LISBON.yes },
      { label: "No", price: Math.round((1 - LISBON.yes) * 100) / 100 },
    ]);
    expect(found.get("polymarket:502")?.status).toBe("closed");
    expect(found.get(`kalshi:${KALSHI_LISBON.ticker}`)).toMatchObject({ title: KALSHI_LISBON.title, status: "open" });
    expect(found.get(`kalshi:${KALSHI_LISBON.ticker}`)?.outcomes).toEqual([
      { label: "Yes", price: KALSHI_LISBON.yes },
      { label: "No", price: Math.round((1 - KALSHI_LISBON.yes) * 10_000) / 10_000 },
    ]);
    const ferryOnly = await structured<{ markets: Array<{ id: string }> }>(client, "search_markets", {
      q: "ferry sunday",
      venue: "polymarket",
    });
    expect(ferryOnly.markets.map((market) => market.id)).toEqual([FERRY.id]);
  });

  it("list_saved_queries: the caller's own, with parameters, and the examples; not another's private query", async () => {
    const { queries } = await structured<{
      queries: Array<{ id: string; author: string; parameters: Array<{ name: string; type: string }> }>;
    }>(client, "list_saved_queries", {});
    const own = queries.find((query) => query.id === adaQuery.id);
    expect(own?.author).toBe("You");
    expect(own?.parameters).toEqual([{ name: "market_id", type: "String" }]);
    expect(queries.some((query) => query.author === "Example")).toBe(true);
    expect(queries.some((query) => query.id === graceQuery.id)).toBe(false);
  });

  it("run_saved_query: runs with its parameters, names a missing one, and hides another's query", async () => {
    const answer = await structured<QueryAnswer>(client, "run_saved_query", {
      id: adaQuery.id,
      params: { market_id: LISBON.id },
    });
    expect(answer.sql).toBe(adaQuery.sql);
    expect(answer.row_count).toBe(3);
    expect(answer.rows.every((row) => row[0] === LISBON.id && row[1] === LISBON.question)).toBe(true);
    const missing = await call(client, "run_saved_query", { id: adaQuery.id });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/market_id/);
    const hidden = await call(client, "run_saved_query", { id: graceQuery.id });
    expect(hidden.isError).toBe(true);
    expect(textOf(hidden)).toMatch(/No saved query/);
  });

  it("resources: the latest-row pattern, whose every statement runs, and the table list", async () => {
    const pattern = await client.readResource({ uri: "epicenter://docs/latest-row-pattern" });
    const text = String((pattern.contents[0] as { text?: string }).text);
    expect(text).toMatch(/argMax\(/);
    expect(text).toMatch(/markets_latest FINAL/);
    const statements = [...text.matchAll(/```sql\n([\s\S]*?)```/g)].map((match) => match[1] as string);
    expect(statements.length).toBeGreaterThanOrEqual(3);
    for (const statement of statements) {
      const answer = await structured<QueryAnswer>(client, "run_query", { sql: statement });
      expect(answer.row_count, statement).toBeGreaterThan(0);
    }
    const tables = await client.readResource({ uri: "epicenter://tables" });
    const list = String((tables.contents[0] as { text?: string }).text);
    expect(list).toMatch(/### polymarket\.markets_latest — 2 rows/);
    expect(list).not.toMatch(/internal\./);
  });
});

describe("MCP runs and access", () => {
  it("records every run as origin mcp, with the key, and a saved query's run as that query's", async () => {
    const runs = await runsOf("mcp");
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.every((run) => run.api_key_id === adaKey.id)).toBe(true);
    // Per transport: the run with its parameter, and the one refused for want of it.
    const saved = runs.filter((run) => run.query_id === adaQuery.id);
    expect(saved).toHaveLength(4);
    expect(saved.every((run) => run.sql === adaQuery.sql)).toBe(true);
    expect(runs.some((run) => run.sql === "DROP TABLE polymarket.markets")).toBe(true);
  });

  it("takes the key from X-API-Key too", async () => {
    const client = new Client({ name: "mcp-test", version: "1.0.0" });
    await client.connect(mcp.http({ "x-api-key": adaKey.key }));
    expect((await client.listTools()).tools).toHaveLength(TOOLS.length);
    await client.close();
  });

  it("refuses without a key, with a session token, and with a wrong or revoked key: 401", async () => {
    const revoked = await createKey(ada, "revoked");
    const revokedAnswer = await t.app.request(`/api/keys/${revoked.id}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${ada.access_token}` },
    });
    expect(revokedAnswer.status).toBe(204);
    const cases: Array<[string, Record<string, string>, RegExp]> = [
      ["no key", {}, /Send an Epicenter API key/],
      ["a session token", { authorization: `Bearer ${ada.access_token}` }, /not a session token/],
      ["a wrong key", { authorization: "Bearer ep_live_not-a-key" }, /not valid/],
      ["a revoked key", { "x-api-key": revoked.key }, /not valid/],
    ];
    for (const [label, headers, message] of cases) {
      const client = new Client({ name: "mcp-test", version: "1.0.0" });
      const refused = await client.connect(mcp.http(headers)).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused, label).toBeInstanceOf(StreamableHTTPError);
      expect((refused as StreamableHTTPError).code, label).toBe(401);
      expect((refused as Error).message, label).toMatch(message);
      const raw = await fetch(`${mcp.url}${MCP_PATH}`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      expect(raw.status, label).toBe(401);
      expect(await raw.json(), label).toMatchObject({
        jsonrpc: "2.0",
        error: { message: expect.stringMatching(message) },
      });
    }
  });

  it("refuses the key of someone no longer on the allow-list: 403", async () => {
    const graceKey = await createKey(grace, "grace");
    const client = await mcp.connectHttp(graceKey.key);
    await client.close();
    await removeFromAllowList(t.stores.appDatabase.db, "grace@example.com");
    const refused = await mcp.connectHttp(graceKey.key).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(StreamableHTTPError);
    expect((refused as StreamableHTTPError).code).toBe(403);
    expect((refused as Error).message).toMatch(/grace@example\.com\) is not whitelisted/);
  });

  it("answers GET and DELETE 405 (stateless) and a body past 1 MiB 413", async () => {
    for (const method of ["GET", "DELETE"]) {
      const answer = await fetch(`${mcp.url}${MCP_PATH}`, { method, headers: { "x-api-key": adaKey.key } });
      expect(answer.status, method).toBe(405);
      expect(answer.headers.get("allow")).toBe("POST");
    }
    const huge = await t.app.request(MCP_PATH, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "x-api-key": adaKey.key,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/list",
        params: { pad: "x".repeat(MAX_MCP_BODY_BYTES) },
      }),
    });
    expect(huge.status).toBe(413);
  });

  it("npm run mcp: a missing key and a refused key end it with one line on stderr and nothing on stdout", async () => {
    const missing = await mcp.runCli({});
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe("");
    expect(missing.stderr.trim().split("\n")).toHaveLength(1);
    expect(missing.stderr).toMatch(/EPICENTER_API_KEY is not set/);
    const refused = await mcp.runCli({ EPICENTER_API_KEY: "ep_live_not-a-key" });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toMatch(/HTTP 401: This API key is not valid/);
  });
});
