import { describe, expect, it } from "vitest";
import { ClickHouseRefusal } from "./protocol";
import { createSessionStore, SESSION_LIMITS } from "./sessions";

describe("ClickHouse HTTP sessions", () => {
  it("keep a caller's settings until the session has been idle for its timeout", () => {
    let now = Date.parse("2026-11-27T00:00:00Z");
    const sessions = createSessionStore(() => new Date(now));
    sessions.set("key-1", "s", [["max_result_rows", "3"]]);
    expect(sessions.settings("key-1", "s")).toEqual(new Map([["max_result_rows", "3"]]));
    // Another caller's session of the same name is another session.
    expect(sessions.settings("key-2", "s")).toBeUndefined();
    // Each use keeps it alive: 50 s apart, three times, past the 60 s default.
    for (let step = 0; step < 3; step++) {
      now += 50_000;
      expect(sessions.settings("key-1", "s")).toBeDefined();
    }
    now += 61_000;
    expect(sessions.settings("key-1", "s")).toBeUndefined();
  });

  it("take the session_timeout a request gives, and add settings to what the session has", () => {
    let now = 0;
    const sessions = createSessionStore(() => new Date(now));
    sessions.set("k", "long", [["limit", "5"]], 600);
    sessions.set("k", "long", [["readonly", "1"]]);
    now += 300_000;
    expect(sessions.settings("k", "long")).toEqual(
      new Map([
        ["limit", "5"],
        ["readonly", "1"],
      ]),
    );
  });

  it("give back a key's room when its sessions end, and keep nothing of a refused SET", () => {
    let now = 0;
    const sessions = createSessionStore(() => new Date(now));
    for (let index = 0; index < SESSION_LIMITS.sessionsPerKey; index++)
      sessions.set("k", `s${index}`, [["limit", "1"]]);
    const refusal = (run: () => void) => {
      try {
        run();
      } catch (error) {
        return error instanceof ClickHouseRefusal ? error.failure : error;
      }
      return undefined;
    };
    expect(refusal(() => sessions.set("k", "more", [["limit", "1"]]))).toMatchObject({ status: 400, code: 290 });
    // Idle past their timeout, they no longer count: the key may open new ones.
    now += 61_000;
    expect(refusal(() => sessions.set("k", "more", [["limit", "1"]]))).toBeUndefined();
    // The bytes of a key's sessions likewise; a SET past them changes nothing it had.
    const value = "x".repeat(SESSION_LIMITS.valueBytes - 10);
    const names = Math.floor(SESSION_LIMITS.bytesPerKey / SESSION_LIMITS.valueBytes);
    for (let index = 0; index < names; index++) sessions.set("k", "big", [[`param_p${index}`, value]]);
    expect(
      refusal(() =>
        sessions.set("k", "big", [
          ["limit", "7"],
          ["param_last", value],
        ]),
      ),
    ).toMatchObject({
      code: 290,
      message: expect.stringMatching(/at most 1048576 bytes/),
    });
    expect(sessions.settings("k", "big")?.has("limit")).toBe(false);
    now += 61_000;
    expect(refusal(() => sessions.set("k", "big", [["param_last", value]]))).toBeUndefined();
    expect(sessions.settings("k", "big")).toEqual(new Map([["param_last", value]]));
  });
});
