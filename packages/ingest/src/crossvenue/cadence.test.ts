import type { Warehouse } from "@epicenter/warehouse";
import { describe, expect, it } from "vitest";
import type { LogFields, Logger } from "../logger";
import {
  afterMatchPass,
  createMatcherCadence,
  type MatcherCadenceState,
  type MatcherSteps,
  nextMatchPass,
} from "./cadence";
import { NOTHING_PAIRED } from "./closed-pass";
import type { MatcherOptions } from "./matcher";

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const START = Date.parse("2026-03-01T00:00:00Z");

/** A clock that moves only when told to. */
function fakeClock() {
  let now = START;
  return {
    now: () => now,
    clock: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
}

describe("nextMatchPass", () => {
  /** Runs the pass that is due at the clock's time and keeps the state, as the scheduler does. */
  function cadence() {
    const time = fakeClock();
    let state: MatcherCadenceState = {};
    return {
      time,
      run() {
        const started = time.now();
        const next = nextMatchPass(state, started);
        state = afterMatchPass(state, next.pass, started);
        return next;
      },
    };
  }

  it("pairs every market on the first run", () => {
    expect(cadence().run()).toEqual({ pass: "full" });
  });

  it("pairs the markets new since an hour before the last run's start, ten minutes on", () => {
    const c = cadence();
    c.run();
    c.time.advance(10 * MINUTE_MS);
    expect(c.run()).toEqual({ pass: "new", since: new Date(START - HOUR_MS) });
    c.time.advance(10 * MINUTE_MS);
    expect(c.run()).toEqual({ pass: "new", since: new Date(START + 10 * MINUTE_MS - HOUR_MS) });
  });

  it("pairs every market again 24 hours after the last full pass, though new passes ran between", () => {
    const c = cadence();
    c.run();
    for (let minutes = 10; minutes < 24 * 60; minutes += 10) {
      c.time.advance(10 * MINUTE_MS);
      expect(c.run().pass).toBe("new");
    }
    c.time.advance(10 * MINUTE_MS);
    expect(c.run()).toEqual({ pass: "full" });
    c.time.advance(10 * MINUTE_MS);
    expect(c.run()).toEqual({ pass: "new", since: new Date(START + 24 * HOUR_MS - HOUR_MS) });
  });

  it("keeps the full pass's time after a new pass", () => {
    const full = afterMatchPass({}, "full", START);
    const after = afterMatchPass(full, "new", START + 23 * HOUR_MS);
    expect(after).toEqual({ lastFullMatch: START, lastMatch: START + 23 * HOUR_MS });
    expect(nextMatchPass(after, START + 24 * HOUR_MS).pass).toBe("full");
    expect(nextMatchPass(after, START + 24 * HOUR_MS - 1).pass).toBe("new");
  });
});

/** Steps that record what they were asked and finish when the test says so. */
function fakeSteps(closedPassWindows: number) {
  const matched: MatcherOptions[] = [];
  const recorded: Array<{ startedAt: Date; pass: string }> = [];
  let closedSteps = 0;
  let finish: (() => void) | undefined;
  let fail: Error | undefined;
  const steps: MatcherSteps = {
    match: (_deps, options = {}) => {
      matched.push(options);
      return new Promise((resolve, reject) => {
        finish = () => (fail ? reject(fail) : resolve(NOTHING_PAIRED));
      });
    },
    record: async (_warehouse, run) => {
      recorded.push({ startedAt: run.startedAt, pass: run.pass });
    },
    closedPassStep: async () => {
      closedSteps += 1;
      const now = new Date(START);
      return { from: now, to: now, done: closedSteps >= closedPassWindows, outcome: NOTHING_PAIRED };
    },
  };
  return {
    steps,
    matched,
    recorded,
    closedSteps: () => closedSteps,
    finish: () => finish?.(),
    failNext(error: Error | undefined) {
      fail = error;
    },
  };
}

function recordingLogger() {
  const errors: Array<{ fields: LogFields; message: string }> = [];
  const logger: Logger = {
    info: () => {},
    warn: () => {},
    error: (fields, message) => {
      errors.push({ fields, message });
    },
  };
  return { logger, errors };
}

describe("createMatcherCadence", () => {
  const warehouse = {} as Warehouse;

  it("runs one matcher at a time: a second snapshot gets the run under way", async () => {
    const time = fakeClock();
    const fake = fakeSteps(1);
    const { logger } = recordingLogger();
    const cadence = createMatcherCadence({ warehouse, logger, clock: time.clock }, () => false, fake.steps);
    const first = cadence.afterSnapshot();
    time.advance(MINUTE_MS);
    const second = cadence.afterSnapshot();
    expect(second).toBe(first);
    fake.finish();
    await first;
    expect(fake.matched).toEqual([{}]);
    expect(fake.recorded).toEqual([{ startedAt: new Date(START), pass: "full" }]);

    time.advance(10 * MINUTE_MS);
    const third = cadence.afterSnapshot();
    expect(third).not.toBe(first);
    fake.finish();
    await third;
    expect(fake.matched[1]).toEqual({ since: new Date(START - HOUR_MS) });
    expect(fake.recorded[1]).toEqual({ startedAt: new Date(START + 11 * MINUTE_MS), pass: "new" });
  });

  it("steps the pass over closed markets only once the backfills are done, until it is over", async () => {
    const time = fakeClock();
    const fake = fakeSteps(2);
    const { logger } = recordingLogger();
    let backfilled = false;
    const cadence = createMatcherCadence({ warehouse, logger, clock: time.clock }, () => backfilled, fake.steps);
    const run = async () => {
      const done = cadence.afterSnapshot();
      fake.finish();
      await done;
      time.advance(10 * MINUTE_MS);
    };
    await run();
    expect(fake.closedSteps()).toBe(0);
    backfilled = true;
    await run();
    expect(fake.closedSteps()).toBe(1);
    await run();
    expect(fake.closedSteps()).toBe(2);
    await run();
    expect(fake.closedSteps()).toBe(2);
  });

  it("logs a failed run instead of throwing, and the next snapshot runs the matcher again", async () => {
    const time = fakeClock();
    const fake = fakeSteps(1);
    const { logger, errors } = recordingLogger();
    const cadence = createMatcherCadence({ warehouse, logger, clock: time.clock }, () => true, fake.steps);
    fake.failNext(new Error("engine away"));
    const failed = cadence.afterSnapshot();
    fake.finish();
    await expect(failed).resolves.toBeUndefined();
    expect(errors).toEqual([{ fields: { error: "Error: engine away" }, message: "cross-venue matching failed" }]);
    expect(fake.recorded).toEqual([]);
    expect(fake.closedSteps()).toBe(0);

    // The failed run paired nothing, so the next one is a full pass again.
    time.advance(10 * MINUTE_MS);
    fake.failNext(undefined);
    const next = cadence.afterSnapshot();
    fake.finish();
    await next;
    expect(fake.matched).toEqual([{}, {}]);
    expect(fake.recorded).toEqual([{ startedAt: new Date(START + 10 * MINUTE_MS), pass: "full" }]);
  });
});
