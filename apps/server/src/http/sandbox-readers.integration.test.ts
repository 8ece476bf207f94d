/**
 * Issue 44's findings on the check's readers, each from the outside, on every surface that
 * takes SQL: the REST API, the ClickHouse interface (the statement in the URL, in the
 * body, split between them, with framed answers, in Native) and MCP's run_query. An
 * ordinary allow-listed user with one API key sends what the red team sent.
 */
import { readFileSync } from "node:fs";
import { ZApiError } from "@epicenter/contracts";
import { toDateTime64 } from "@epicenter/warehouse";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type McpTestServer, startMcpTestServer } from "../testing/mcp-test-server";
import { json, signInWithKey } from "../testing/sign-in";
import { createTestApp, type TestApp } from "../testing/test-app";

let t: TestApp;
let ada: string;
let adaKey: string;
let mcp: McpTestServer;
const hostname = readFileSync("/etc/hostname", "utf8").trim();

beforeAll(async () => {
  t = await createTestApp({ env: { ALLOWED_EMAILS: "ada@example.com" } });
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

/**
 * Statements whose quoted names spell lines of `EXPLAIN AST`: a forged `ExpressionList`
 * holding a harmless structure in front of `values()`'s real one, whose `ALIAS` reads a
 * file. Before issue 44 each was accepted and read /etc/hostname: the first because our
 * lexer took `z$a$ … w$a$` for a heredoc around the quoted name, the second because it
 * read `\n` inside backquotes as the letter n.
 */
const FORGED = [
  "SELECT b, 1 AS z$a$ FROM values('a String, b String ALIAS file(''/etc/hostname'')', 'x') AS `t\n       ExpressionList (children 1)\n        Literal 'a String'` WHERE (1 AS w$a$) = 1",
  "SELECT b FROM values('a String, b String ALIAS file(''/etc/hostname'')', 'x') AS `t\\n       ExpressionList (children 1)\\n        Literal 'a String'`",
  "SELECT 1 AS z$a$, arrayReduce('groupConcat(file(''/etc/hostname''))', ['a']) AS `y\n     ExpressionList (children 2)\n      Literal 'sum'` , 2 AS w$a$",
];
const REFUSED = /control character|arrayReduce\(\) is not available/;

const errorOf = async (response: Response) => ZApiError.parse(await response.json()).error;
const basic = () => ({ authorization: `Basic ${Buffer.from(`any:${adaKey}`).toString("base64")}` });

describe("POST /api/query", () => {
  it.each(FORGED)("%j → 400, nothing read", async (query) => {
    const response = await t.app.request("/api/query", json({ query }, { token: ada }));
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.message).toMatch(REFUSED);
    expect(JSON.stringify(error)).not.toContain(hostname);
  });

  it("still runs analyst SQL with $ in names, heredocs, column transformers, QUALIFY, WINDOW and time zones", async () => {
    const query = [
      "SELECT id AS price$usd, $$it's$$ AS note, toTimeZone(sync_timestamp, 'America/New_York') AS ny,",
      "  row_number() OVER w AS rank",
      "FROM (SELECT * EXCEPT (raw) REPLACE (upper(question) AS question) FROM polymarket.markets)",
      "WINDOW w AS (PARTITION BY id ORDER BY sync_timestamp DESC)",
      "QUALIFY rank = 1 -- the latest row of each market",
    ].join("\n");
    const response = await t.app.request("/api/query", json({ query }, { token: ada }));
    expect(response.status, await response.clone().text()).toBe(200);
    const { result } = (await response.json()) as { result: { data: Array<Record<string, unknown>> } };
    expect(result.data).toHaveLength(1);
    expect(result.data[0]).toMatchObject({ price$usd: "1", note: "it's", rank: "1" });
  });

  it("binds a large value used many times without amplifying the check (finding 3)", async () => {
    // 2,000 uses of a 64 KiB value: before, the check's dump printed the value at every
    // use (128 MB) and was read back a character at a time on the server's thread.
    const uses = Array.from({ length: 2_000 }, () => "{a:String}").join(", ");
    const response = await t.app.request(
      "/api/query",
      json({ query: `SELECT length(concat(${uses})) AS n`, params: { a: "x".repeat(65_536) } }, { token: ada }),
    );
    expect(response.status, await response.clone().text()).toBe(200);
    const { result } = (await response.json()) as { result: { data: Array<{ n: string }> } };
    expect(result.data).toEqual([{ n: String(2_000 * 65_536) }]);
  }, 60_000);

  it("refuses an Identifier parameter holding a line break", async () => {
    const response = await t.app.request(
      "/api/query",
      json(
        { query: "SELECT count() FROM {t:Identifier}", params: { t: "polymarket.markets\n Literal 'x'" } },
        { token: ada },
      ),
    );
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toMatch(/Parameter t \(Identifier\) contains a line break/);
  });
});

describe("the ClickHouse interface", () => {
  const send = (search: string, body?: string) =>
    t.app.request(
      `/clickhouse/?${search}`,
      body === undefined ? { headers: basic() } : { method: "POST", body, headers: basic() },
    );

  const expectRefused = async (response: Response) => {
    expect(response.status).toBe(403);
    const text = await response.text();
    expect(text).toMatch(/^Code: 497\. DB::Exception: /);
    expect(text).toMatch(REFUSED);
    expect(text).not.toContain(hostname);
  };

  it.each(FORGED)("%j → refused in the URL, the body and split between them", async (sql) => {
    await expectRefused(await send(`query=${encodeURIComponent(sql)}`));
    await expectRefused(await send("", sql));
    const cut = sql.indexOf("`");
    await expectRefused(await send(`query=${encodeURIComponent(sql.slice(0, cut).trimEnd())}`, sql.slice(cut)));
  });

  it.each(FORGED)("%j → refused with a framed answer and in Native", async (sql) => {
    await expectRefused(await send("compress=1", sql));
    await expectRefused(await send("default_format=Native", sql));
    await expectRefused(await send("", `${sql} FORMAT Native`));
  });

  it("binds a large param_ value used many times (finding 3)", async () => {
    const uses = Array.from({ length: 1_000 }, () => "{a:String}").join(", ");
    const response = await send(`param_a=${"y".repeat(32_768)}`, `SELECT length(concat(${uses})) AS n FORMAT TSV`);
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await response.text()).toBe(`${1_000 * 32_768}\n`);
  }, 60_000);
});

describe("MCP run_query", () => {
  it.each(FORGED)("%j → an error result, nothing read", async (sql) => {
    const client = await mcp.connectHttp(adaKey);
    const answer = (await client.callTool({ name: "run_query", arguments: { sql } })) as CallToolResult;
    await client.close();
    expect(answer.isError).toBe(true);
    expect(JSON.stringify(answer.content)).toMatch(REFUSED);
    expect(JSON.stringify(answer.content)).not.toContain(hostname);
  });
});
