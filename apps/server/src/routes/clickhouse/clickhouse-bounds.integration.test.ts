import type { Sandbox } from "@epicenter/warehouse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compressFrame } from "../../services/clickhouse/compressed";
import { SESSION_LIMITS } from "../../services/clickhouse/sessions";
import { type ClickHouseInterface, startClickHouseInterface } from "../../testing/clickhouse-interface";
import { json, signIn } from "../../testing/sign-in";
import { openUnconfinedSandbox, type TestApp } from "../../testing/test-app";

let chi: ClickHouseInterface;
let t: TestApp;
let adaToken: string;
let adaId: string;

beforeAll(async () => {
  chi = await startClickHouseInterface();
  t = chi.t;
  const ada = await signIn(t, "ada@example.com");
  adaToken = ada.access_token;
  adaId = ada.user.id;
});

afterAll(async () => {
  await chi?.close();
});

/** A key of its own for a test, so that what one test keeps does not count against another. */
async function newKey(name: string): Promise<string> {
  const created = await t.app.request("/api/keys/create", json({ name, user_id: adaId }, { token: adaToken }));
  expect(created.status).toBe(201);
  return ((await created.json()) as { key: string }).key;
}

const basic = (key: string) => ({ authorization: `Basic ${Buffer.from(`any:${key}`).toString("base64")}` });

/** 65,536 one-byte stored blocks and then 64 linked ones: the frame that held the event loop for seconds. */
function adversarialLz4(content: Buffer): Buffer {
  const parts = [Buffer.from([0x04, 0x22, 0x4d, 0x18, 0x40, 0x40, 0x00])];
  const window = content.subarray(0, 65_536);
  for (const byte of window) parts.push(Buffer.from([1, 0, 0, 0x80, byte]));
  // Each linked block: one literal, the rest of the content one byte at a time after it.
  for (const byte of content.subarray(65_536)) parts.push(Buffer.from([2, 0, 0, 0, 0x10, byte]));
  parts.push(Buffer.alloc(4));
  return Buffer.concat(parts);
}

/** ClickHouse's frames, one byte each: 26 bytes of frame per byte of statement. */
function oneByteFrames(content: Buffer): Buffer {
  return Buffer.concat([...content].map((byte) => compressFrame(Buffer.from([byte]))));
}

/** A statement that runs, padded to `length` with a comment. */
const statement = (length: number) => Buffer.from(`SELECT 1 /* ${"x".repeat(length - 17)} */`);

/** `body` as a request stream in 16 KiB chunks, counting the chunks the server pulls. */
function countedBody(body: Buffer): { stream: ReadableStream<Uint8Array>; pulled: () => number; chunks: number } {
  const size = 16 * 1024;
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = body.subarray(pulled * size, (pulled + 1) * size);
        pulled++;
        if (chunk.length === 0) controller.close();
        else controller.enqueue(new Uint8Array(chunk));
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => pulled, chunks: Math.ceil(body.length / size) };
}

function post(search: string, body: ReadableStream<Uint8Array> | Buffer, headers: Record<string, string> = {}) {
  return t.app.request(`/clickhouse/?${search}`, {
    method: "POST",
    body,
    headers,
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
}

describe("a request without a valid key", () => {
  const lz4 = adversarialLz4(statement(65_600));
  const framed = oneByteFrames(statement(19_000));
  const bodies: { name: string; search: string; headers: Record<string, string>; body: Buffer }[] = [
    { name: "lz4", search: "", headers: { "content-encoding": "lz4" }, body: lz4 },
    { name: "decompress=1", search: "decompress=1", headers: {}, body: framed },
    // ClickHouse's frames (67 KB of them) inside the LZ4 frame, as a client may send both.
    {
      name: "both",
      search: "decompress=1",
      headers: { "content-encoding": "lz4" },
      body: adversarialLz4(oneByteFrames(statement(2_500))),
    },
  ];

  it("is answered 401 before its body is read, while /health answers beside it", async () => {
    for (const { name, search, headers, body } of bodies) {
      expect(body.length, name).toBeLessThan(512 * 1024);
      const credentials: Record<string, string>[] = [
        {},
        { "x-clickhouse-key": "ep_live_unknown0000000000000000" },
        basic("ep_live_x"),
      ];
      for (const credential of credentials) {
        const counted = countedBody(body);
        const [answer, health] = await Promise.all([
          post(search, counted.stream, { ...headers, ...credential }),
          t.app.request("/health"),
        ]);
        expect(answer.status, name).toBe(401);
        expect(await answer.text()).toMatch(/^Code: 516\. DB::Exception: .*\(AUTHENTICATION_FAILED\)/);
        expect(health.status, name).toBe(200);
        // Of the body's 16 KiB chunks, none was pulled to be read.
        expect(counted.chunks, name).toBeGreaterThan(10);
        expect(counted.pulled(), name).toBe(0);
      }
    }
  });

  it("is answered 401 over a real port too, and the next request is served", async () => {
    const refused = await fetch(`${chi.base}/?decompress=1`, {
      method: "POST",
      body: new Uint8Array(framed),
      headers: { "content-encoding": "lz4" },
    });
    expect(refused.status).toBe(401);
    expect((await fetch(`${chi.base}/ping`)).status).toBe(200);
  });

  it("is read and decoded once the key is valid: the statement inside runs", async () => {
    for (const { name, search, headers, body } of bodies) {
      const answer = await post(search, body, { ...headers, ...basic(chi.key) });
      expect(await answer.text(), name).toBe("1\n");
    }
  });
});

describe("what a session keeps", () => {
  const set = (key: string, session: string, sql: string) =>
    post(`session_id=${session}`, Buffer.from(sql), basic(key));
  const refusal = async (response: Response) => {
    expect(response.status, "refused").toBe(400);
    expect(response.headers.get("x-clickhouse-exception-code")).toBe("290");
    return response.text();
  };

  it("is bounded per value, and a refused SET keeps nothing", async () => {
    const key = await newKey("values");
    const big = "x".repeat(SESSION_LIMITS.valueBytes + 1);
    expect(await refusal(await set(key, "v", `SET param_big = '${big}'`))).toMatch(
      /value of param_big is 65537 bytes; a session keeps values of at most 65536 bytes.*LIMIT_EXCEEDED/,
    );
    const unopened = await post("session_id=v&session_check=1", Buffer.from("SELECT 1"), basic(key));
    expect(unopened.status).toBe(404);
    // At the bound it is kept, and used.
    const fits = "y".repeat(SESSION_LIMITS.valueBytes);
    expect((await set(key, "v", `SET param_big = '${fits}'`)).status).toBe(200);
    const used = await post("session_id=v", Buffer.from("SELECT length({big:String})"), basic(key));
    expect(await used.text()).toBe(`${SESSION_LIMITS.valueBytes}\n`);
  });

  it("is bounded in settings per session", async () => {
    const key = await newKey("names");
    const assignments = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => `param_p${from + i} = '${from + i}'`).join(", ");
    expect((await set(key, "n", `SET ${assignments(0, SESSION_LIMITS.settingsPerSession)}`)).status).toBe(200);
    expect(await refusal(await set(key, "n", `SET ${assignments(1_000, 1)}`))).toMatch(
      /A session keeps at most 64 settings \(parameters included\); this SET would make 65 in session n/,
    );
    // A name it already has may change.
    expect((await set(key, "n", "SET param_p0 = 'changed'")).status).toBe(200);
  });

  it("is bounded in sessions per key, and another key is not held by it", async () => {
    const key = await newKey("sessions");
    for (let index = 0; index < SESSION_LIMITS.sessionsPerKey; index++) {
      expect((await set(key, `s${index}`, "SET max_result_rows = 5")).status).toBe(200);
    }
    expect(await refusal(await set(key, "one-more", "SET max_result_rows = 5"))).toMatch(
      /This key already keeps 32 sessions with settings, the most it may/,
    );
    // Its sessions still take SETs, and another key opens sessions of its own.
    expect((await set(key, "s0", "SET limit = 2")).status).toBe(200);
    expect((await set(chi.key, "one-more", "SET max_result_rows = 5")).status).toBe(200);
  });

  it("is bounded in bytes over a key's sessions: the red team's loop stops at 1 MiB", async () => {
    const key = await newKey("bytes");
    const value = "z".repeat(60_000);
    const answers: number[] = [];
    // 3,000 in the report, each a new name in one session; here 40 show where it stops.
    for (let n = 0; n < 40; n++) answers.push((await set(key, `b${n % 3}`, `SET param_p${n} = '${value}'`)).status);
    const kept = answers.filter((status) => status === 200).length;
    expect(kept).toBe(Math.floor(SESSION_LIMITS.bytesPerKey / (value.length + "param_p00".length)));
    expect(answers.slice(kept).every((status) => status === 400)).toBe(true);
    expect(await refusal(await set(key, "b4", `SET param_more = '${value}'`))).toMatch(
      /The sessions of one key keep at most 1048576 bytes of settings; this SET would make \d+/,
    );
  });
});

describe("a key that may not run SQL (the sandbox cannot confine it, the caller is not an admin)", () => {
  let unconfined: Sandbox;
  beforeAll(async () => {
    unconfined = await openUnconfinedSandbox(t);
  });
  afterAll(async () => {
    await unconfined?.close();
  });

  it("gets the same refusal for SET as for a query, before its body is read", async () => {
    const app = t.withApp({ sandbox: unconfined });
    const request = (sql: string) => {
      const counted = countedBody(Buffer.from(sql));
      const answer = app.request("/clickhouse/?session_id=admins-only", {
        method: "POST",
        body: counted.stream,
        duplex: "half",
        headers: basic(chi.key),
      } as RequestInit);
      return { answer, pulled: counted.pulled };
    };
    const texts: string[] = [];
    for (const sql of ["SET max_result_rows = 1", "SET param_x = 'y'", "SELECT 1"]) {
      const { answer, pulled } = request(sql);
      const response = await answer;
      expect(response.status, sql).toBe(503);
      expect(response.headers.get("x-clickhouse-exception-code"), sql).toBe("497");
      expect(pulled(), sql).toBe(0);
      texts.push(await response.text());
    }
    expect(texts[0]).toMatch(/^Code: 497\. DB::Exception: Running SQL is open to administrators only/);
    expect(new Set(texts).size).toBe(1);
  });
});
