/**
 * The matcher's one pass over closed markets, so the pairs cover the history too, not only
 * the markets open since install. Closed markets are far too many to pair at once (Kalshi
 * alone settles tens of thousands a day), so the pass walks close dates oldest first, a
 * window at a time (`runMatcher`'s `closes`), each window a bounded step recorded in
 * `internal.matcher_runs`: a restart resumes at the window after the last one recorded,
 * and the pass ends, once, at the time of its last step. Markets that close later were
 * paired while open.
 */
import { fromDateTime64, toDateTime64, type Warehouse } from "@epicenter/warehouse";
import { type MatcherDeps, type MatcherOutcome, runMatcher } from "./matcher";

const DAY_MS = 86_400_000;

/** Days of close dates per step: a busy week of Kalshi is a few hundred thousand markets. */
export const CLOSED_PASS_STEP_DAYS = 7;

export type MatcherPass = "full" | "new" | "closed";

export interface ClosedPassStep {
  from: Date;
  to: Date;
  /** Whether this step reached the present: the pass is over. */
  done: boolean;
  outcome: MatcherOutcome;
}

/** Records one matcher run in `internal.matcher_runs`. */
export async function recordMatcherRun(
  warehouse: Warehouse,
  run: {
    startedAt: Date;
    pass: MatcherPass;
    outcome: MatcherOutcome;
    closes?: { from: Date; to: Date };
    done?: boolean;
  },
): Promise<void> {
  const { outcome } = run;
  await warehouse.insert("internal.matcher_runs", [
    {
      started_at: toDateTime64(run.startedAt.getTime()),
      pass: run.pass,
      closes_from: run.closes ? toDateTime64(run.closes.from.getTime()) : null,
      closes_until: run.closes ? toDateTime64(run.closes.to.getTime()) : null,
      done: run.done ?? false,
      candidates: outcome.candidates,
      same_contract: outcome.sameContract,
      related: outcome.related,
      written: outcome.written,
      retired: outcome.retired,
      duration_ms: outcome.durationMs,
    },
  ]);
}

export interface ClosedPassProgress {
  /** Windows of close dates paired so far. */
  windows: number;
  /** Where the last window ended; null before the first. */
  pairedThrough: Date | null;
  done: boolean;
}

/** How far the pass over closed markets has gone, from its rows in `internal.matcher_runs`. */
export async function closedPassProgress(warehouse: Warehouse): Promise<ClosedPassProgress> {
  const [row] = await warehouse.query<{ windows: string; through: string | null; done: boolean | number }>(
    `SELECT count() AS windows, toString(max(closes_until)) AS through, max(done) AS done
     FROM internal.matcher_runs WHERE pass = 'closed'`,
  );
  const windows = Number(row?.windows ?? 0);
  return {
    windows,
    pairedThrough: windows > 0 && row?.through ? fromDateTime64(row.through) : null,
    done: Boolean(row?.done),
  };
}

/** The oldest close date of a closed market on either venue, where the pass starts; null when none is closed. */
async function oldestClose(warehouse: Warehouse): Promise<Date | null> {
  const [first] = await warehouse.query<{ oldest: string | null }>(
    `SELECT toString(arrayMin(arrayFilter(at -> at IS NOT NULL, [
       (SELECT min(endDate) FROM polymarket.markets_latest FINAL WHERE ifNull(closed, false)),
       (SELECT min(close_time) FROM kalshi.markets_latest FINAL
        WHERE status NOT IN ('active', 'open', 'initialized', 'unopened'))]))) AS oldest`,
  );
  return first?.oldest && !first.oldest.startsWith("1970") ? fromDateTime64(first.oldest) : null;
}

/** What a window with no close dates in it pairs. */
export const NOTHING_PAIRED: MatcherOutcome = {
  candidates: 0,
  sameContract: 0,
  related: 0,
  written: 0,
  retired: 0,
  reviewed: 0,
  candidatesMs: 0,
  durationMs: 0,
};

/**
 * One step of the pass: the next window of close dates, paired and recorded. Undefined once
 * the pass is over; with no closed market at all, the first step ends it.
 */
export async function runClosedPassStep(
  deps: MatcherDeps,
  options: { stepDays?: number } = {},
): Promise<ClosedPassStep | undefined> {
  const now = (deps.clock ?? (() => new Date()))();
  const progress = await closedPassProgress(deps.warehouse);
  if (progress.done) return undefined;
  const from = progress.pairedThrough ?? (await oldestClose(deps.warehouse)) ?? now;
  const to = new Date(Math.min(from.getTime() + (options.stepDays ?? CLOSED_PASS_STEP_DAYS) * DAY_MS, now.getTime()));
  const done = to.getTime() >= now.getTime();
  const outcome = to > from ? await runMatcher(deps, { includeClosed: true, closes: { from, to } }) : NOTHING_PAIRED;
  await recordMatcherRun(deps.warehouse, { startedAt: now, pass: "closed", outcome, closes: { from, to }, done });
  deps.logger?.info(
    { from: from.toISOString(), to: to.toISOString(), done, written: outcome.written },
    "cross-venue pass over closed markets: a window paired",
  );
  return { from, to, done, outcome };
}
