/**
 * The sandbox that runs user SQL: validation against an allow-list with ClickHouse's own
 * parser, confined engine processes over snapshots of the warehouse (or a read-only user
 * on a server), the service's row, byte and time limits, a fair share per caller,
 * cancellation that always takes, and bounded downloads. No HTTP; the routes, `query_runs`
 * recording and saved queries build on these.
 */
export {
  type AllowListPolicy,
  CATALOG_DATABASES,
  DENIED_CATEGORIES,
  isFunctionAllowed,
  MARKET_DATABASES,
} from "./allow-list";
export { AS_OF_DATABASES, AS_OF_TABLE_FUNCTIONS, AS_OF_VIEWS, nameAsOfArguments } from "./as-of";
export { VISIBLE_SETTINGS } from "./catalog-views";
export {
  QueryCancelledError,
  QueryEngineError,
  QueryMemoryError,
  type QueryPosition,
  QuerySyntaxError,
  QueryTimeoutError,
  QueryTooLargeError,
  SandboxError,
  type SandboxErrorKind,
  SandboxRefusal,
} from "./errors";
export {
  DownloadStalledError,
  type EngineOutputFormat,
  EXPORT_FORMATS,
  type ExportFormat,
  MAX_EXPORT_ROWS,
  type StreamUserQueryOptions,
  type UserQueryExport,
} from "./export";
export { ALLOWED_TABLE_FUNCTIONS, type FunctionClass, functionClass } from "./function-classes";
export type { RunUserQueryOptions, UserQueryJson, UserQueryResult } from "./run";
export {
  DEFAULT_SANDBOX_LIMITS,
  Sandbox,
  type SandboxLimits,
  type SandboxOptions,
  type SandboxOwner,
  type SandboxTarget,
  type SandboxUserOptions,
  sandboxSettings,
  sandboxUserDdl,
} from "./sandbox";
export { type SqlToken, tokenizeSql } from "./sql-text";
export type { QueryBinding, ValidatedStatement } from "./validate";
export { type ConfinementKind, chooseConfinement } from "./workers/confinement";
