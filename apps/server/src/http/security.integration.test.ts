/**
 * Issue 18's findings, each from the outside: what an ordinary allow-listed user (or
 * anyone) can send over HTTP, and what the server must answer.
 */
import { readdirSync } from "node:fs";
import { Writable } from "node:stream";
import { ZApiError, ZRunQueryResponse, ZSavedQuery } from "@epicenter/contracts";
import { toDateTime64 } from "@epicenter/warehouse";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSignInLimits } from "../services/access/rate-limits";
import { createMailer } from "../services/mail/mailer";
import { json, signIn } from "../testing/sign-in";
import { createTestApp, type TestApp } from "../testing/test-app";

let t: TestApp;
let ada: string;

beforeAll(async () => {
  t = await createTestApp({ env: { ALLOWED_EMAILS: "ada@example.com" } });
  await t.stores.warehouse.insert(
    "polymarket.markets",
    ["1", "2"].map((id) => ({ sync_timestamp: toDateTime64(Date.now()), id, question: `Q${id}`, volume24hr: 10 })),
  );
  ada = (await signIn(t, "ada@example.com")).access_token;
});
afterAll(async () => {
  await t.close();
});

const run = (body: unknown) => t.app.request("/api/query", json(body, { token: ada }));
const errorOf = async (response: Response) => ZApiError.parse(await response.json()).error;

describe("structure strings cannot read files (finding 1)", () => {
  it.each([
    "SELECT b FROM values('a String, b String ALIAS file(\\'/etc/passwd\\')', ('x'))",
    "SELECT * FROM generateRandom('a String DEFAULT file(\\'/proc/self/environ\\')') LIMIT 1",
    "WITH concat('a String DEF', 'AULT file(\\'/etc/shadow\\')') AS s SELECT * FROM values(s, 'x')",
    "SELECT * FROM (SELECT * FROM values(lower('A STRING DEFAULT FILE(\\'/ETC/PASSWD\\')'), 'x'))",
  ])("%s → 400, nothing read", async (query) => {
    const response = await run({ query });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe("invalid_sql");
    expect(JSON.stringify(error)).not.toMatch(/root:|PATH=/);
  });

  it("refuses the functions that describe the host (finding 8)", async () => {
    for (const query of [
      "SELECT hostName()",
      "SELECT getOSKernelVersion()",
      "SELECT filesystemAvailable()",
      "SELECT uptime()",
    ]) {
      const response = await run({ query });
      expect(response.status, query).toBe(400);
      expect((await errorOf(response)).message).toMatch(/not available/);
    }
  });
});

describe("the sandbox does not refuse real work", () => {
  it("accepts a quoted alias with a dot and FROM (VALUES …)", async () => {
    const alias = ZRunQueryResponse.parse(
      await (await run({ query: 'SELECT avg(volume24hr) AS "avg.prob" FROM polymarket.markets' })).json(),
    );
    expect(alias.result.data).toEqual([{ "avg.prob": 10 }]);
    const values = ZRunQueryResponse.parse(
      await (await run({ query: "SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS t(n, s) ORDER BY n" })).json(),
    );
    expect(values.result.data).toEqual([
      { n: 1, s: "a" },
      { n: 2, s: "b" },
    ]);
  });
});

describe("no regular expression stalls the server (finding 3)", () => {
  it("answers a query with 90,000 spaces in its text, its syntax tree and its error at once", async () => {
    const spaces = " ".repeat(90_000);
    const cases: Array<[string, number]> = [
      [`SELECT '${spaces}' AS s`, 200],
      [`SELECT length('${spaces.slice(45_000)}') AS n ${spaces.slice(45_000)}`, 200],
      [`SELECT 1 ${spaces} FROM ${spaces} WHERE = =`, 400],
      [`SELECT nope + '${spaces}' ${spaces}`, 400],
    ];
    for (const [query, status] of cases) {
      const response = await run({ query });
      expect(response.status).toBe(status);
      if (status === 400) expect((await errorOf(response)).message.length).toBeLessThan(2_100);
    }
  });
});

describe("request bodies are bounded before they are read (finding 6)", () => {
  it("answers 413 from the Content-Length of an oversized body, without reading it", async () => {
    let pulled = 0;
    const body = new ReadableStream({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const response = await t.app.request("/api/auth/verify", {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(500 * 1024 * 1024) },
      body,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect((await errorOf(response)).code).toBe("payload_too_large");
    expect(pulled).toBeLessThan(4);
  });

  it("stops reading a chunked body as soon as it passes the limit", async () => {
    let sent = 0;
    const body = new ReadableStream({
      pull(controller) {
        sent += 64 * 1024;
        if (sent > 100 * 1024 * 1024) controller.close();
        else controller.enqueue(new Uint8Array(64 * 1024).fill(32));
      },
    });
    const response = await t.app.request("/api/query", {
      method: "POST",
      headers: { "content-type": "application/json", "transfer-encoding": "chunked", authorization: `Bearer ${ada}` },
      body,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(sent).toBeLessThan(2 * 1024 * 1024);
  });
});

describe("results are bounded by bytes as well as rows (finding 7)", () => {
  it("cuts a result of control characters and says so", async () => {
    const response = await run({ query: "SELECT repeat(char(1), 1000000) AS s FROM numbers(20)", limit: 100 });
    expect(response.status, response.status === 200 ? "" : await response.clone().text()).toBe(200);
    const text = await response.text();
    expect(text.length).toBeLessThan(40 * 1024 * 1024);
    const body = ZRunQueryResponse.parse(JSON.parse(text));
    expect(body.result.truncated).toBe(true);
    // Issue 24, defect 4: it says the bytes cut it, not the row limit.
    expect(body.result.truncated_by).toBe("bytes");
    expect(body.result.row_count).toBeLessThan(20);
  });

  it("says when the row limit cut a result", async () => {
    const body = ZRunQueryResponse.parse(
      await (await run({ query: "SELECT number FROM numbers(1000)", limit: 100 })).json(),
    );
    expect(body.result).toMatchObject({ row_count: 100, truncated: true, truncated_by: "rows" });
  });
});

describe("NUL characters (finding 9)", () => {
  it("are refused with a 400 in a query, a saved query and a parameter", async () => {
    const query = await run({ query: "SELECT 'a\u0000b'" });
    expect(query.status).toBe(400);
    expect((await errorOf(query)).message).toMatch(/query: must not contain a NUL character/);
    const saved = await t.app.request(
      "/api/queries",
      json({ title: "nul\u0000title", sql: "SELECT 1" }, { token: ada }),
    );
    expect(saved.status).toBe(400);
    const sample = await t.app.request("/api/tables?with_stats=tr%00ue", {
      headers: { authorization: `Bearer ${ada}` },
    });
    expect(sample.status).toBe(400);
  });
});

describe("security headers (finding 10)", () => {
  it("come with every response, pages and API alike", async () => {
    for (const path of ["/health", "/api/config", "/api/nope"]) {
      const response = await t.app.request(path);
      const csp = response.headers.get("content-security-policy") ?? "";
      expect(csp, path).toMatch(/default-src 'self'/);
      expect(csp).toMatch(/script-src 'self'(;|$)/);
      expect(csp).toMatch(/frame-ancestors 'none'/);
      expect(csp).toMatch(/object-src 'none'/);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    }
  });
});

describe("CSV downloads (finding 11)", () => {
  it("defuse cells that spreadsheets run", async () => {
    const response = await t.app.request(
      "/api/query/export",
      json({ query: "SELECT '=cmd|calc' AS c, -1 AS n", format: "csv" }, { token: ada }),
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('"c","n"\n"\'=cmd|calc",-1\n');
  });
});

describe("the waitlist (finding 12)", () => {
  it("takes a bounded number of new e-mails an hour, whatever addresses they come from", async () => {
    const app = t.withApp({ signInLimits: createSignInLimits({ waitlistPerHour: 2 }) });
    const ask = (email: string) => app.request("/api/auth/magic-link", json({ email }));
    expect((await ask("new1@example.com")).status).toBe(403);
    expect((await ask("new2@example.com")).status).toBe(403);
    const refused = await ask("new3@example.com");
    expect(refused.status).toBe(429);
    expect((await errorOf(refused)).message).toMatch(/waitlist is not taking new e-mails/);
    // Asking again for an address already waiting takes no new place.
    expect((await ask("new1@example.com")).status).toBe(429);
  });
});

describe("saved queries (finding 13)", () => {
  it("keep their description when a change leaves it out", async () => {
    const created = ZSavedQuery.parse(
      await (
        await t.app.request(
          "/api/queries",
          json({ title: "Kept", sql: "SELECT 1", description: "Why this query exists" }, { token: ada }),
        )
      ).json(),
    );
    const changed = ZSavedQuery.parse(
      await (
        await t.app.request(`/api/queries/${created.id}`, json({ title: "Renamed" }, { token: ada, method: "PATCH" }))
      ).json(),
    );
    expect(changed.title).toBe("Renamed");
    expect(changed.description).toBe("Why this query exists");
    const cleared = ZSavedQuery.parse(
      await (
        await t.app.request(`/api/queries/${created.id}`, json({ description: null }, { token: ada, method: "PATCH" }))
      ).json(),
    );
    expect(cleared.description).toBeNull();
  });
});

describe("magic links beside SMTP (finding 2)", () => {
  it("are neither written to the outbox nor logged", async () => {
    const lines: string[] = [];
    const logger = pino(
      { level: "info" },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    const before = readdirSync(t.outboxDir).length;
    const mailer = createMailer(
      { smtpUrl: "smtp://127.0.0.1:9", from: "x@example.com", outboxDir: t.outboxDir },
      logger,
    );
    const app = t.withApp({ mailer, logger });
    const response = await app.request("/api/auth/magic-link", json({ email: "ada@example.com" }));
    // Nothing listens on port 9: the mail fails, and says so without a link.
    expect(response.status).toBe(503);
    expect(readdirSync(t.outboxDir)).toHaveLength(before);
    expect(lines.join("")).not.toMatch(/auth\/callback\?token=|epm_/);
  });
});
