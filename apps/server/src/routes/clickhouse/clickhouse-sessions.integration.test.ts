/**
 * Sessions on the ClickHouse HTTP interface (`session_id`), as clients use them: a session
 * keeps the settings it SETs for its later requests, per caller, through raw requests and
 * `@clickhouse/client`'s own `session_id`.
 */
import { ClickHouseError } from "@clickhouse/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ClickHouseInterface, startClickHouseInterface } from "../../testing/clickhouse-interface";

let chi: ClickHouseInterface;
let post: ClickHouseInterface["post"];
let rowsOf: ClickHouseInterface["rowsOf"];
let connect: ClickHouseInterface["connect"];

beforeAll(async () => {
  chi = await startClickHouseInterface();
  ({ post, rowsOf, connect } = chi);
});

afterAll(async () => {
  await chi?.close();
});

describe("sessions (session_id)", () => {
  it("keeps the settings a session SETs for its later requests, and only its own", async () => {
    const session = `s-${Date.now()}`;
    const sql = "SELECT number FROM numbers(10)";
    expect(
      (await post("SET max_result_rows = 3, result_overflow_mode = 'break'", `session_id=${session}`)).status,
    ).toBe(200);
    expect(await rowsOf(sql, `session_id=${session}`)).toHaveLength(3);
    // The request's own settings go over the session's.
    expect(await rowsOf(sql, `session_id=${session}&limit=2`)).toHaveLength(2);
    // Another session, or none: the settings are not theirs.
    expect(await rowsOf(sql, `session_id=${session}-other`)).toHaveLength(10);
    expect(await rowsOf(sql)).toHaveLength(10);
    // A SET without a session changes nothing after it, as on a ClickHouse server.
    expect((await post("SET max_result_rows = 1")).status).toBe(200);
    expect(await rowsOf(sql)).toHaveLength(10);
  });

  it("works through @clickhouse/client's session_id, and checks what a session may SET", async () => {
    const sessionClient = connect({ session_id: `client-${Date.now()}` });
    try {
      await sessionClient.command({ query: "SET max_result_rows = 2" });
      const result = await sessionClient.query({ query: "SELECT number FROM numbers(10)", format: "JSONEachRow" });
      expect(await result.json()).toEqual([{ number: "0" }, { number: "1" }]);
      const refused = await sessionClient.command({ query: "SET max_threads = 64" }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ClickHouseError);
      expect((refused as ClickHouseError).code).toBe("164");
    } finally {
      await sessionClient.close();
    }
  });

  it("says when a checked session is not live, and what a session does not keep", async () => {
    const missing = await post("SELECT 1", "session_id=nobody-opened-this&session_check=1");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("x-clickhouse-exception-code")).toBe("372");
    expect(await missing.text()).toMatch(/^Code: 372\. DB::Exception: Session nobody-opened-this not found/);
    const temporary = await post("CREATE TEMPORARY TABLE t (x UInt8)", "session_id=with-temp");
    expect(temporary.status).toBe(400);
    expect(await temporary.text()).toMatch(/Temporary tables are not kept here.*keeps the settings it SETs/);
    expect((await post("SELECT 1", "session_id=x&session_timeout=99999")).status).toBe(400);
  });
});
