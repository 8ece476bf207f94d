/**
 * `@epicenter/ingest`: the archive's intake. Snapshot runs of each `Source` (Polymarket
 * and Kalshi, `sources/`) into the warehouse (`runSync`), the scheduler that repeats them
 * and backfills closed history between them (`createScheduler`), the sync status the API
 * serves (`getSyncStatus`), the replay server that stands in for both upstream APIs in
 * tests and the demo (`startReplayServer`), and generated history for the demo
 * (`generateDemoHistory`).
 * Configuration is passed in; nothing here reads `process.env`.
 */

export {
  ADJUDICATOR_SYSTEM,
  type Adjudicator,
  type Judgement,
  judgementPrompt,
  ZJudgement,
} from "./crossvenue/adjudication";
export {
  CLOSED_PASS_STEP_DAYS,
  type ClosedPassProgress,
  type ClosedPassStep,
  closedPassProgress,
  type MatcherPass,
  recordMatcherRun,
  runClosedPassStep,
} from "./crossvenue/closed-pass";
export {
  type Evaluation,
  evaluateByFamily,
  evaluatePairs,
  evaluateWithAdjudicator,
  LABELLED_FILES,
  type LabelledPair,
  type MarketPool,
  sameContractsInPool,
} from "./crossvenue/evaluate";
export {
  type KalshiMarketText,
  kalshiSide,
  type MatcherOptions,
  type MatcherOutcome,
  type PolymarketMarketText,
  polymarketSide,
  runMatcher,
  writeEventPairs,
} from "./crossvenue/matcher";
export { comparePair, type KalshiSide, type PairVerdict, type PolymarketSide, type Relation } from "./crossvenue/score";
export { type DemoHistoryOptions, type DemoHistoryResult, generateDemoHistory } from "./demo-history";
export { openCoverageByTier, SCHEDULE, type TierCoverage } from "./history";
export { createPageFetcher, DEFAULT_HTTP_POLICY, type HttpPolicy, UpstreamError } from "./http/fetch-page";
export {
  createRateLimiter,
  type LimiterUsage,
  type RateLimit,
  type RateLimiter,
  unitsPerSecond,
} from "./http/rate-limiter";
export { LiveCapture, type LiveCaptureOptions, type LiveCaptureStats, type LiveTarget } from "./live-capture";
export { type Clock, consoleLogger, type Logger, silentLogger, systemClock } from "./logger";
export type { LimitUse, ReplayLimitOptions } from "./replay/limits";
export {
  type Fault,
  type FaultKind,
  type ReplayServer,
  type ReplayServerOptions,
  replayIngestConfig,
  startReplayServer,
} from "./replay/server";
export {
  createScheduler,
  type Scheduler,
  type SchedulerOptions,
  type SchedulerState,
  type SourceSchedulerState,
  type SourceSyncStatus,
} from "./scheduler";
export type {
  BackfillPosition,
  BackfillStep,
  HistoryOutcome,
  IngestConfig,
  RunOutcome,
  Source,
  SourceRun,
} from "./source";
export { SOURCE_LIST, SOURCES, type SourceName, sourceNamed } from "./sources";
export { getSyncStatus, type SourceSyncView, type SyncRunView, type SyncStatus } from "./status";
export {
  BACKFILL_EVENT_TYPES,
  type BackfillState,
  type BackfillStepResult,
  readBackfillState,
  runBackfillStep,
} from "./sync/backfill";
export { type BookCaptureOptions, type BookCaptureOutcome, captureBooks } from "./sync/books";
export {
  DEFAULT_HISTORY_REFRESH_MS,
  type HistoryProgress,
  type HistoryStepResult,
  readHistoryProgress,
  runHistoryStep,
} from "./sync/history";
export { rebuildResolutions, recordResolutions } from "./sync/resolutions";
export type { RunKind } from "./sync/run-history";
export { runSync, type SyncDeps, type SyncRunSummary } from "./sync/run-sync";
export type { Feed } from "./write/spool";
