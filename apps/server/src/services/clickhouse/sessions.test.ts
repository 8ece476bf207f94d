import { describe, expect, it } from "vitest";
import { createSessionStore } from "./sessions";

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
});
