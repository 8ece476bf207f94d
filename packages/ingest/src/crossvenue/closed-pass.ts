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

/** Where the pass stands: the end of its last window, or where it starts; `done` once over. */
async function closedPassPosition(warehouse: Warehouse): Promise<{ from: Date | null; done: boolean }> {
  const [last] = await warehouse.query<{ until: string | null; done: boolean | number }>(
    `SELECT toString(max(closes_until)) AS until, max(done) AS done FROM internal.matcher_runs WHERE pass = 'closed'`,
  );
  if (last?.done) return { from: null, done: true };
  if (last?.until) return { from: fromDateTime64(last.until), done: false };
  // The first step starts at the oldest close date of a closed market on either venue.
  const [first] = await warehouse.query<{ oldest: string | null }>(
    `SELECT toString(arrayMin(arrayFilter(at -> at IS NOT NULL, [
       (SELECT min(endDate) FROM polymarket.markets_latest FINAL WHERE ifNull(closed, false)),
       (SELECT min(close_time) FROM kalshi.markets_latest FINAL
        WHERE status NOT IN ('active', 'open', 'initialized', 'unopened'))]))) AS oldest`,
  );
  const oldest = first?.oldest && !first.oldest.startsWith("1970") ? fromDateTime64(first.oldest) : null;
  return { from: oldest, done: false };
}

/**
 * One step of the pass: the next window of close dates, paired and recorded. Undefined when
 * the pass is over (or there is nothing closed yet to pair, which ends it too).
 */
export async function runClosedPassStep(
  deps: MatcherDeps,
  options: { stepDays?: number } = {},
): Promise<ClosedPassStep | undefined> {
  const now = (deps.clock ?? (() => new Date()))();
  const position = await closedPassPosition(deps.warehouse);
  if (position.done) return undefined;
  const from = position.from ?? now;
  const to = new Date(Math.min(from.getTime() + (options.stepDays ?? CLOSED_PASS_STEP_DAYS) * DAY_MS, now.getTime()));
  const done = to.getTime() >= now.getTime();
  const outcome =
    to > from
      ? await runMatcher(deps, { includeClosed: true, closes: { from, to } })
      : {
          candidates: 0,
          sameContract: 0,
          related: 0,
          written: 0,
          retired: 0,
          reviewed: 0,
          candidatesMs: 0,
          durationMs: 0,
        };
  await recordMatcherRun(deps.warehouse, { startedAt: now, pass: "closed", outcome, closes: { from, to }, done });
  deps.logger?.info(
    { from: from.toISOString(), to: to.toISOString(), done, written: outcome.written },
    "cross-venue pass over closed markets: a window paired",
  );
  return { from, to, done, outcome };
}
