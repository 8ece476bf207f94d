/**
 * The sandbox that runs user SQL: validation against an allow-list with ClickHouse's own
 * parser, dedicated read-only connections, the service's row and time limits,
 * cancellation in the engine and bounded downloads. Plain functions with no HTTP; the
 * routes, `query_runs` recording and saved queries build on these.
 */
export {
  ALLOWED_TABLE_FUNCTIONS,
  type AllowListPolicy,
  DENIED_FUNCTIONS,
  MARKET_DATABASES,
} from "./allow-list";
export { cancelUserQuery, runningUserQueries } from "./cancel";
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
  EXPORT_FORMATS,
  type ExportFormat,
  MAX_EXPORT_ROWS,
  type StreamUserQueryOptions,
  streamUserQuery,
  type UserQueryExport,
} from "./export";
export {
  DEFAULT_ROW_LIMIT,
  MAX_ROW_LIMIT,
  type QueryColumn,
  type RunUserQueryOptions,
  rowsAsObjects,
  runUserQuery,
  type UserQueryResult,
} from "./run";
export {
  DEFAULT_SANDBOX_LIMITS,
  openSandbox,
  type Sandbox,
  type SandboxLimits,
  type SandboxTarget,
  type SandboxUserOptions,
  sandboxSettings,
  sandboxUserDdl,
} from "./sandbox";
export { MAX_QUERY_LENGTH, type ValidatedStatement, validateUserSql } from "./validate";
