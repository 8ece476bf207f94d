/**
 * The matcher's cadence: when a run after a snapshot pairs every market against every
 * market, when only the markets new since the run before, and the one-time pass over closed
 * markets that follows. Kept apart from the scheduler so the rules can be driven by a fake
 * clock: `nextMatchPass` and `afterMatchPass` are pure, `createMatcherCadence` holds the
 * state and runs the matcher, one run at a time.
 */
import type { Warehouse } from "@epicenter/warehouse";
import type { Clock, Logger } from "../logger";
import type { Adjudicator } from "./adjudication";
import { recordMatcherRun, runClosedPassStep } from "./closed-pass";
import { runMatcher } from "./matcher";

const HOUR_MS = 3_600_000;
/**
 * The matcher pairs every market against every market once at start and then daily (a
 * title or a date may have changed); after the other snapshots only the markets created
 * since its last run. Each run is followed by one window of the one-time pass over closed
 * markets (`closed-pass.ts`) until that pass is over.
 */
export const FULL_MATCH_EVERY_MS = 24 * HOUR_MS;

/** When the last full pass and the last run started (epoch ms); none before the first run. */
export interface MatcherCadenceState {
  lastFullMatch?: number;
  lastMatch?: number;
}

export interface MatchPass {
  pass: "full" | "new";
  /** The markets created since then meet candidates; every market when absent (a full pass). */
  since?: Date;
}

export function nextMatchPass(state: MatcherCadenceState, now: number): MatchPass {
  const { lastFullMatch, lastMatch } = state;
  if (lastFullMatch === undefined || now - lastFullMatch >= FULL_MATCH_EVERY_MS) return { pass: "full" };
  // An hour's margin: a market's creation time is the venue's, a little before we see it.
  return lastMatch === undefined ? { pass: "new" } : { pass: "new", since: new Date(lastMatch - HOUR_MS) };
}

/** The state once a run that started at `startedAt` has paired its markets. */
export function afterMatchPass(
  state: MatcherCadenceState,
  pass: MatchPass["pass"],
  startedAt: number,
): MatcherCadenceState {
  return { lastMatch: startedAt, lastFullMatch: pass === "full" ? startedAt : state.lastFullMatch };
}

export interface MatcherCadenceDeps {
  warehouse: Warehouse;
  logger: Logger;
  clock: Clock;
  adjudicator?: Adjudicator;
}

/** What a run calls; the warehouse's by default, small fakes in the unit tests. */
export interface MatcherSteps {
  match: typeof runMatcher;
  record: typeof recordMatcherRun;
  closedPassStep: typeof runClosedPassStep;
}

const WAREHOUSE_STEPS: MatcherSteps = {
  match: runMatcher,
  record: recordMatcherRun,
  closedPassStep: runClosedPassStep,
};

export interface MatcherCadence {
  /**
   * Pairs what the cadence says is due, then one window of the pass over closed markets.
   * A call while a run is under way gets that run. Never rejects: a failure is logged.
   */
  afterSnapshot(): Promise<void>;
}

/**
 * `isBackfillDone` says whether every source's backfill has brought the closed markets in:
 * the pass over them waits for it.
 */
export function createMatcherCadence(
  deps: MatcherCadenceDeps,
  isBackfillDone: () => boolean,
  steps: MatcherSteps = WAREHOUSE_STEPS,
): MatcherCadence {
  const matcher = {
    warehouse: deps.warehouse,
    logger: deps.logger,
    clock: deps.clock,
    ...(deps.adjudicator ? { adjudicator: deps.adjudicator } : {}),
  };
  /** The matcher reads both venues: one run at a time, whichever snapshot asked for it. */
  let matching: Promise<void> | undefined;
  let state: MatcherCadenceState = {};
  /** Whether the one-time pass over closed markets has ended (it resumes from `internal.matcher_runs`). */
  let closedPassDone = false;
  return {
    afterSnapshot() {
      if (matching) return matching;
      const started = deps.clock().getTime();
      const { pass, since } = nextMatchPass(state, started);
      matching = steps
        .match(matcher, since ? { since } : {})
        .then(async (outcome) => {
          state = afterMatchPass(state, pass, started);
          await steps.record(deps.warehouse, { startedAt: new Date(started), pass, outcome });
          if (!closedPassDone && isBackfillDone()) {
            closedPassDone = (await steps.closedPassStep(matcher))?.done ?? true;
          }
        })
        .catch((error: unknown) => deps.logger.error({ error: String(error) }, "cross-venue matching failed"))
        .finally(() => {
          matching = undefined;
        });
      return matching;
    },
  };
}
