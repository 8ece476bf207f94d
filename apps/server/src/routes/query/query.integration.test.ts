import {
  ZApiError,
  ZQueryResult,
  ZQueryStats,
  ZRunHistory,
  ZRunQueryResponse,
  ZSavedQuery,
  ZSavedQueryList,
} from "@epicenter/contracts";
import { toDateTime64 } from "@epicenter/warehouse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowEmail } from "../../services/admin/admin";
import { createQueryAdmission } from "../../services/queries/admission";
import { EXAMPLE_QUERIES } from "../../services/queries/examples";
import { visibleQueries } from "../../services/queries/saved-queries";
import { bearer, json, signIn } from "../../testing/sign-in";
import { createTestApp, type TestApp } from "../../testing/test-app";

let t: TestApp;
let ada: string;
let grace: string;
let adaId: string;

beforeAll(async () => {
  t = await createTestApp({ env: { ALLOWED_EMAILS: "ada@example.com,grace@example.com" } });
  const now = toDateTime64(Date.now());
  await t.stores.warehouse.insert(
    "polymarket.markets",
    ["1", "2", "3"].map((id) => ({ sync_timestamp: now, id, event_id: "9", question: `Question ${id}?`, raw: "{}" })),
  );
  const a = await signIn(t, "ada@example.com");
  ada = a.access_token;
  adaId = a.user.id;
  grace = (await signIn(t, "grace@example.com")).access_token;
});
afterAll(async () => {
  await t.close();
});

const run = (token: string, body: unknown) => t.app.request("/api/query", json(body, { token }));
const errorOf = async (response: Response) => ZApiError.parse(await response.json()).error;

describe("POST /api/query", () => {
  it("answers rows as objects with columns, count, runtime and the statement", async () => {
    const response = await run(ada, { query: "SELECT id, question FROM polymarket.markets ORDER BY id" });
    expect(response.status).toBe(200);
    const body = ZRunQueryResponse.parse(await response.json());
    expect(body.result.columns).toEqual([
      { name: "id", type: "String" },
      { name: "question", type: "LowCardinality(String)" },
    ]);
    expect(body.result.data).toEqual([
      { id: "1", question: "Question 1?" },
      { id: "2", question: "Question 2?" },
      { id: "3", question: "Question 3?" },
    ]);
    expect(body.result.row_count).toBe(3);
    expect(body.result.truncated).toBe(false);
    expect(body.query).toContain("SELECT id, question");
  });

  it("returns exactly the limit and says the result was truncated", async () => {
    const body = ZRunQueryResponse.parse(
      await (await run(ada, { query: "SELECT number FROM numbers(1000)", limit: 7 })).json(),
    );
    expect(body.result.row_count).toBe(7);
    expect(body.result.data).toHaveLength(7);
    expect(body.result.truncated).toBe(true);
  });

  it("refuses what must not run with a 400 and a clear message, and nothing changes", async () => {
    const refused = [
      "INSERT INTO polymarket.markets (id) VALUES ('x')",
      "CREATE TABLE polymarket.evil (x UInt8) ENGINE = Memory",
      "DROP TABLE polymarket.markets",
      "ALTER TABLE polymarket.markets DELETE WHERE 1",
      "TRUNCATE TABLE polymarket.markets",
      "SET max_threads = 1",
      "SELECT 1 SETTINGS readonly = 0",
      "SELECT * FROM (SELECT 1 SETTINGS readonly = 0)",
      "SYSTEM STOP MERGES",
      "KILL QUERY WHERE 1",
      "SELECT 1 INTO OUTFILE '/tmp/x'",
      "SELECT 1 FORMAT CSV",
      "SELECT 1; DROP TABLE polymarket.markets",
      "SELECT file('/etc/passwd')",
      "SELECT * FROM file('/etc/passwd')",
      "SELECT * FROM url('http://127.0.0.1/', CSV)",
      "SELECT * FROM s3('http://127.0.0.1/x.csv')",
      "SELECT * FROM remote('127.0.0.1', system.one)",
      "SELECT * FROM postgresql('127.0.0.1:5432', 'db', 't', 'u', 'p')",
      "SELECT * FROM mysql('127.0.0.1:3306', 'db', 't', 'u', 'p')",
      "SELECT * FROM executable('x.sh', CSV, 'a String')",
      "SELECT * FROM system.processes",
      "SELECT * FROM system.query_log",
      "SELECT * FROM internal.sync_run_history",
    ];
    for (const query of refused) {
      const response = await run(ada, { query });
      expect(response.status, query).toBe(400);
      const error = await errorOf(response);
      expect(error.code, query).toBe("invalid_sql");
      expect(error.message.length, query).toBeGreaterThan(10);
    }
    const count = ZRunQueryResponse.parse(
      await (await run(ada, { query: "SELECT count() AS n FROM polymarket.markets" })).json(),
    );
    expect(count.result.data).toEqual([{ n: "3" }]);
    const tables = ZRunQueryResponse.parse(
      await (await run(ada, { query: "SELECT count() AS n FROM numbers(1)" })).json(),
    );
    expect(tables.result.row_count).toBe(1);
  });

  it("points at the position of a syntax error", async () => {
    const response = await run(ada, { query: "SELECT id\nFROM polymarket.markets\nWHERE id = = 1" });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.message).toMatch(/Syntax error/);
    expect(error.details).toMatchObject({ position: { line: 3 } });
  });

  it("stops the query in the engine when the client goes away", async () => {
    const controller = new AbortController();
    const pending = Promise.resolve(
      t.app.request("/api/query", {
        ...json({ query: "SELECT count() FROM numbers(100000000000)" }, { token: ada }),
        signal: controller.signal,
      }),
    ).catch((error: unknown) => error);
    await expect.poll(async () => t.stores.sandbox.running().length, { timeout: 5_000 }).toBe(1);
    controller.abort();
    await pending;
    await expect.poll(async () => t.stores.sandbox.running().length, { timeout: 10_000 }).toBe(0);
  });

  it("answers 503 with Retry-After when the queue is full, and recovers", async () => {
    const app = t.withApp({ queryAdmission: createQueryAdmission(1, 3) });
    // About a second of work (sleep() is refused: it only holds a session).
    const slow = app.request(
      "/api/query",
      json({ query: "SELECT count() FROM numbers_mt(100000000) WHERE sipHash64(number) % 7 = 3" }, { token: ada }),
    );
    await expect.poll(async () => t.stores.sandbox.running().length, { timeout: 5_000 }).toBe(1);
    const refused = await app.request("/api/query", json({ query: "SELECT 1" }, { token: ada }));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("3");
    expect((await errorOf(refused)).message).toMatch(/busy/);
    expect((await slow).status).toBe(200);
    expect((await app.request("/api/query", json({ query: "SELECT 1" }, { token: ada }))).status).toBe(200);
  });

  it("needs a query or a query id, and a signed-in caller", async () => {
    expect((await run(ada, {})).status).toBe(400);
    expect((await t.app.request("/api/query", json({ query: "SELECT 1" }))).status).toBe(401);
  });

  it("runs a saved query by id and counts it in the statistics", async () => {
    const example = EXAMPLE_QUERIES[0];
    if (!example) throw new Error("no example queries");
    const before = ZQueryStats.parse(await (await t.app.request("/api/queries/stats", bearer(ada))).json());
    const count = (stats: typeof before) => stats.queries.find((q) => q.query_id === example.id)?.execution_count ?? 0;
    const response = await run(ada, { query_id: example.id });
    expect(response.status).toBe(200);
    // Runs are recorded after the answer.
    const stats = async () => ZQueryStats.parse(await (await t.app.request("/api/queries/stats", bearer(ada))).json());
    await expect.poll(async () => count(await stats())).toBe(count(before) + 1);
    const after = await stats();
    expect(after.queries.find((q) => q.query_id === example.id)?.last_executed_at).not.toBeNull();
  });

  it("counts a run against a saved query only when it ran that query's SQL", async () => {
    const example = EXAMPLE_QUERIES[0];
    if (!example) throw new Error("no example queries");
    const stats = async () =>
      ZQueryStats.parse(await (await t.app.request("/api/queries/stats", bearer(grace))).json()).queries.find(
        (q) => q.query_id === example.id,
      );
    const before = await stats();
    const runs = async () =>
      ZRunHistory.parse(await (await t.app.request("/api/query/runs", bearer(grace))).json()).runs;
    const runsBefore = (await runs()).length;
    // Another statement sent with the example's id: it runs, but is not the example's run.
    expect((await run(grace, { query: "SELECT 1", query_id: example.id })).status).toBe(200);
    expect((await run(grace, { query: `  ${example.sql}  `, query_id: example.id })).status).toBe(200);
    // Both runs are recorded (after their answers) before the count is read.
    await expect.poll(async () => (await runs()).length).toBe(runsBefore + 2);
    const after = await stats();
    expect(after?.execution_count).toBe((before?.execution_count ?? 0) + 1);
  });
});

describe("POST /api/query/rows", () => {
  const rows = (token: string, body: unknown) => t.app.request("/api/query/rows", json(body, { token }));

  it("answers the same run as value arrays, exact when two columns share a name", async () => {
    const response = await rows(ada, { query: "SELECT id, upper(id) AS id_upper FROM polymarket.markets ORDER BY id" });
    expect(response.status).toBe(200);
    const result = ZQueryResult.parse(await response.json());
    expect(result.columns).toEqual([
      { name: "id", type: "String" },
      { name: "id_upper", type: "String" },
    ]);
    expect(result.rows).toEqual([
      ["1", "1"],
      ["2", "2"],
      ["3", "3"],
    ]);
    expect(result).toMatchObject({ row_count: 3, truncated: false });
    // Objects keyed by name would keep one of two columns called alike; arrays keep both.
    const twins = ZQueryResult.parse(await (await rows(ada, { query: "SELECT 1 AS a, 2 AS b, 3 AS c" })).json());
    expect(twins.rows).toEqual([[1, 2, 3]]);
    const same = ZQueryResult.parse(await (await rows(ada, { query: "SELECT number, number FROM numbers(2)" })).json());
    expect(same.columns.map((column) => column.name)).toEqual(["number", "number"]);
    expect(same.rows).toEqual([
      ["0", "0"],
      ["1", "1"],
    ]);
  });

  it("hands on values whose text holds commas, brackets and quotes: both endpoints agree with the engine's own objects", async () => {
    // Every shape a value takes as JSON text, with the separators the rows are cut at inside them.
    const query = `SELECT
      'a, "b"], [c\\\\' AS text, ['x, y', ']'] AS list, (1, 'two, {3}') AS pair,
      map('k, 1', [1, 2]) AS mapping, CAST(NULL AS Nullable(Float64)) AS nothing, nan AS not_a_number,
      toUInt64(18446744073709551615) AS big, '' AS empty, 'é ☃ \\x01' AS unicode, number AS n
    FROM numbers(3)`;
    const keyed = await t.app.request("/api/query", json({ query }, { token: ada }));
    expect(keyed.status).toBe(200);
    const data = ((await keyed.json()) as { result: { data: Array<Record<string, unknown>> } }).result.data;
    const values = ZQueryResult.parse(await (await rows(ada, { query })).json());
    expect(data).toEqual(values.rows.map((row) => Object.fromEntries(values.columns.map((c, i) => [c.name, row[i]]))));
    expect(data[2]).toEqual({
      text: 'a, "b"], [c\\',
      list: ["x, y", "]"],
      pair: [1, "two, {3}"],
      mapping: { "k, 1": [1, 2] },
      nothing: null,
      not_a_number: null,
      big: "18446744073709551615",
      empty: "",
      unicode: "é ☃ \u0001",
      n: "2",
    });
  });

  it("fails as POST /api/query does: 400 with the position, 404 for an unseen saved query", async () => {
    const failed = await rows(ada, { query: "SELECT nope FROM polymarket.markets" });
    expect(failed.status).toBe(400);
    expect((await errorOf(failed)).code).toBe("invalid_sql");
    const missing = await rows(ada, { query_id: "00000000-0000-4000-8000-000000000000" });
    expect(missing.status).toBe(404);
    expect((await rows(ada, {})).status).toBe(400);
  });
});

describe("saved queries", () => {
  const save = (token: string, body: Record<string, unknown>) => t.app.request("/api/queries", json(body, { token }));

  it("says Not authenticated when saving signed out", async () => {
    const response = await t.app.request("/api/queries", json({ title: "x", sql: "SELECT 1" }));
    expect(response.status).toBe(401);
    expect((await errorOf(response)).message).toBe("Not authenticated");
  });

  it("requires a title and keeps an empty description as null", async () => {
    expect((await save(ada, { title: "   ", sql: "SELECT 1" })).status).toBe(400);
    const saved = ZSavedQuery.parse(
      await (await save(ada, { title: "Mine", sql: "SELECT 1", description: "" })).json(),
    );
    expect(saved.description).toBeNull();
    expect(saved.is_public).toBe(false);
    expect(saved).toMatchObject({ is_owner: true, author: "You", is_example: false });
  });

  it("shows the owner their private queries, others only public ones, everyone the examples", async () => {
    const secret = ZSavedQuery.parse(await (await save(ada, { title: "Secret", sql: "SELECT 2" })).json());
    const shared = ZSavedQuery.parse(
      await (await save(ada, { title: "Shared", sql: "SELECT 3", is_public: true })).json(),
    );
    const titles = async (token: string) =>
      ZSavedQueryList.parse(await (await t.app.request("/api/queries", bearer(token))).json()).queries.map(
        (q) => q.title,
      );

    expect(await titles(ada)).toEqual(expect.arrayContaining(["Secret", "Shared", EXAMPLE_QUERIES[0]?.title]));
    const graceSees = await titles(grace);
    expect(graceSees).toContain("Shared");
    expect(graceSees).not.toContain("Secret");
    expect(graceSees).toContain(EXAMPLE_QUERIES[0]?.title);
    expect((await t.app.request(`/api/queries/${secret.id}`, bearer(grace))).status).toBe(404);
    const asGrace = ZSavedQuery.parse(await (await t.app.request(`/api/queries/${shared.id}`, bearer(grace))).json());
    expect(asGrace).toMatchObject({ is_owner: false, author: "Community" });

    // Without anyone signed in, only examples and public queries are visible.
    const anonymous = await visibleQueries({ db: t.stores.appDatabase.db }, null);
    expect(anonymous.map((q) => q.title)).toContain("Shared");
    expect(anonymous.map((q) => q.title)).not.toContain("Secret");
    expect(anonymous.filter((q) => q.is_example)).toHaveLength(EXAMPLE_QUERIES.length);
  });

  it("lets only the owner change or delete a query, and nobody an example", async () => {
    const mine = ZSavedQuery.parse(
      await (await save(ada, { title: "Editable", sql: "SELECT 4", is_public: true })).json(),
    );
    const patch = (token: string, id: string, body: unknown) =>
      t.app.request(`/api/queries/${id}`, json(body, { token, method: "PATCH" }));

    expect((await patch(grace, mine.id, { title: "Hijacked" })).status).toBe(404);
    expect((await t.app.request(`/api/queries/${mine.id}`, bearer(grace, "DELETE"))).status).toBe(404);
    const example = EXAMPLE_QUERIES[0]?.id ?? "";
    expect((await patch(ada, example, { title: "Mine now" })).status).toBe(404);
    expect((await t.app.request(`/api/queries/${example}`, bearer(ada, "DELETE"))).status).toBe(404);

    const changed = await patch(ada, mine.id, {
      title: "Edited",
      chart: { kind: "chart", type: "bar", x: "a", y: ["b"] },
    });
    expect(ZSavedQuery.parse(await changed.json())).toMatchObject({
      title: "Edited",
      sql: "SELECT 4",
      chart: { type: "bar", x: "a", y: ["b"] },
    });
    const stillMine = ZSavedQuery.parse(await (await t.app.request(`/api/queries/${mine.id}`, bearer(grace))).json());
    expect(stillMine.title).toBe("Edited");

    expect((await t.app.request(`/api/queries/${mine.id}`, bearer(ada, "DELETE"))).status).toBe(204);
    expect((await t.app.request(`/api/queries/${mine.id}`, bearer(ada))).status).toBe(404);
  });

  it("keeps its parameters' values: it reopens with them, and a run by id uses them where the run gives none", async () => {
    const sql = "SELECT id FROM polymarket.markets WHERE id = {market_id:String} AND event_id = {event:String}";
    const saved = ZSavedQuery.parse(
      await (await save(ada, { title: "One market", sql, params: { market_id: "2", event: "9" } })).json(),
    );
    expect(saved.params).toEqual({ market_id: "2", event: "9" });
    const reopened = ZSavedQuery.parse(await (await t.app.request(`/api/queries/${saved.id}`, bearer(ada))).json());
    expect(reopened.params).toEqual({ market_id: "2", event: "9" });
    const ids = async (body: unknown) =>
      ZRunQueryResponse.parse(await (await run(ada, body)).json()).result.data.map((row) => row.id);
    expect(await ids({ query_id: saved.id })).toEqual(["2"]);
    // A value the run gives wins; the others still come from the saved query.
    expect(await ids({ query_id: saved.id, params: { market_id: "3" } })).toEqual(["3"]);
    // Other SQL sent with the id is not the saved query's run, and takes none of its values.
    const other = await run(ada, { query: "SELECT {market_id:String} AS id", query_id: saved.id });
    expect(other.status).toBe(400);
    expect((await errorOf(other)).message).toContain("market_id");
    // A change replaces the values; a change without them keeps them.
    const patch = (body: unknown) =>
      t.app.request(`/api/queries/${saved.id}`, json(body, { token: ada, method: "PATCH" }));
    expect(ZSavedQuery.parse(await (await patch({ params: { market_id: "1", event: "9" } })).json()).params).toEqual({
      market_id: "1",
      event: "9",
    });
    expect(ZSavedQuery.parse(await (await patch({ title: "Renamed" })).json()).params.market_id).toBe("1");
    expect(await ids({ query_id: saved.id })).toEqual(["1"]);
    // Names are checked as the run's are.
    const bad = await save(ada, { title: "Bad", sql: "SELECT 1", params: { "not a name": "x" } });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toBe("Invalid body. params.not a name: Invalid key in record");
  });

  it("keeps the run statistics of a private query to its owner", async () => {
    const secret = ZSavedQuery.parse(await (await save(ada, { title: "Private stats", sql: "SELECT 5" })).json());
    expect((await run(ada, { query_id: secret.id })).status).toBe(200);
    const ids = async (token: string) =>
      ZQueryStats.parse(await (await t.app.request("/api/queries/stats", bearer(token))).json()).queries.map(
        (entry) => entry.query_id,
      );
    // Recorded after the answer.
    await expect.poll(() => ids(ada)).toContain(secret.id);
    expect(await ids(grace)).not.toContain(secret.id);
  });

  it("works with an API key for reads but not for writes", async () => {
    await allowEmail({ db: t.stores.appDatabase.db, adminEmails: [] }, "ada@example.com", "test");
    const key = (await (
      await t.app.request("/api/keys/create", json({ name: "k", user_id: adaId }, { token: ada }))
    ).json()) as { key: string };
    expect((await t.app.request("/api/queries", { headers: { "x-api-key": key.key } })).status).toBe(200);
    expect((await run(key.key, { query: "SELECT 1 AS one" })).status).toBe(200);
    expect((await t.app.request("/api/tables", { headers: { "x-api-key": key.key } })).status).toBe(200);
    expect((await save(key.key, { title: "via key", sql: "SELECT 1" })).status).toBe(403);
  });
});

describe("catalog", () => {
  it("lists only market tables, with counts when asked, and hides the bookkeeping", async () => {
    const response = await t.app.request("/api/tables?with_stats=true", bearer(ada));
    const body = (await response.json()) as {
      tables: Array<{ full_name: string; row_count: number | null }>;
      count: number;
    };
    const names = body.tables.map((table) => table.full_name);
    expect(names).toEqual(
      expect.arrayContaining(["polymarket.markets", "kalshi.markets", "polymarket.markets_latest"]),
    );
    expect(names.some((name) => name.startsWith("internal."))).toBe(false);
    expect(body.count).toBe(names.length);
    expect(body.tables.find((table) => table.full_name === "polymarket.markets")?.row_count).toBe(3);
    expect((await t.app.request("/api/table/internal/sync_run_history", bearer(ada))).status).toBe(404);
    expect((await t.app.request("/api/table/system/processes/sample", bearer(ada))).status).toBe(404);
  });

  it("counts a latest table as its readers see it, however its parts stand", async () => {
    // Two unmerged parts holding the same market: the engine's total_rows says 2.
    const at = (offset: number) => toDateTime64(Date.now() + offset);
    await t.stores.warehouse.command("SYSTEM STOP MERGES kalshi.markets_latest");
    await t.stores.warehouse.insert("kalshi.markets_latest", [{ sync_timestamp: at(0), ticker: "DUP-1" }]);
    await t.stores.warehouse.insert("kalshi.markets_latest", [{ sync_timestamp: at(1_000), ticker: "DUP-1" }]);
    try {
      const body = (await (await t.app.request("/api/tables?with_stats=true", bearer(ada))).json()) as {
        tables: Array<{ full_name: string; row_count: number | null }>;
      };
      expect(body.tables.find((table) => table.full_name === "kalshi.markets_latest")?.row_count).toBe(1);
    } finally {
      await t.stores.warehouse.command("SYSTEM START MERGES kalshi.markets_latest");
    }
  });

  it("samples rows as value arrays, 5 by default", async () => {
    const sample = (await (await t.app.request("/api/table/polymarket/markets/sample", bearer(ada))).json()) as {
      columns: string[];
      sample_data: unknown[][];
      sample_size: number;
    };
    expect(sample.columns).toContain("question");
    expect(sample.sample_size).toBe(3);
    expect(Array.isArray(sample.sample_data[0])).toBe(true);
  });
});
