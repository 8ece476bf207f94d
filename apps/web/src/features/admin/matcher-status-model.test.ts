import type { MatcherRun } from "@epicenter/contracts";
import { describe, expect, it } from "vitest";
import { matcherStatusText } from "./matcher-status-model";

const now = new Date("2026-11-25T12:00:00Z");
const run = (pass: MatcherRun["pass"], minutesAgo: number, fields: Partial<MatcherRun> = {}): MatcherRun => ({
  pass,
  started_at: new Date(now.getTime() - minutesAgo * 60_000).toISOString(),
  candidates: 11_960,
  same_contract: 40,
  related: 900,
  written: 12,
  retired: 0,
  duration_ms: 21_600,
  ...fields,
});

describe("matcherStatusText", () => {
  it("says the matcher has not run, and that closed markets wait for the backfills", () => {
    expect(
      matcherStatusText(
        { last_full: null, last_run: null, closed_pass: { state: "waiting", paired_through: null, windows: 0 } },
        now,
      ),
    ).toBe(
      "The matcher has not run yet: it pairs the markets after the first snapshot of each venue. Closed markets: paired once the backfills are in.",
    );
  });

  it("gives the last full pass and the last run, with retired pairs only when there are some", () => {
    const text = matcherStatusText(
      {
        last_full: run("full", 180, { retired: 3 }),
        last_run: run("new", 0, { candidates: 4, written: 1, duration_ms: 430 }),
        closed_pass: { state: "running", paired_through: "2025-03-04T00:00:00.000Z", windows: 9 },
      },
      now,
    );
    expect(text).toBe(
      "Last full pass 3 hours ago: 11,960 candidates scored, 12 written, 3 retired, in 21.6 s. Last run just now: 4 candidates scored, 1 written, in 0.4 s. Closed markets: paired through Mar 4, 2025, one more week of close dates after each run.",
    );
  });

  it("says the last run once when it was the full pass, and when the closed pass is over", () => {
    const full = run("full", 2, { duration_ms: 125_000 });
    expect(
      matcherStatusText(
        { last_full: full, last_run: full, closed_pass: { state: "done", paired_through: null, windows: 260 } },
        now,
      ),
    ).toBe(
      "Last full pass 2 minutes ago: 11,960 candidates scored, 12 written, in 2 min. Closed markets: all paired once.",
    );
  });
});
