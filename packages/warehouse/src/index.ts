export {
  openWarehouse,
  type QueryOptions,
  type QueryParams,
  type Warehouse,
  type WarehouseKind,
  type WarehouseOptions,
} from "./client";
export {
  createDatabase,
  createTable,
  type DdlContext,
  onCluster,
  quoteIdentifier,
  quoteString,
  storageTable,
  type TableSpec,
} from "./ddl";
export { type MigrationReport, migrateWarehouse } from "./migrate";
export { type WarehouseMigration, warehouseMigrations } from "./migrations";
export { BOOK_DEPTH, BOOK_LOOKBACK_MINUTES, MARKETS_LOOKBACK_HOURS } from "./migrations/0018-books";
export { STREAM_CHECKPOINT_MINUTES, STREAM_SESSION_SLACK_SECONDS } from "./migrations/0022-book-asof-stream";
export {
  EVENT_WINNER,
  RESOLUTION_COLUMN_NAMES,
  RESOLUTION_VENUES,
  type ResolutionScope,
  type ResolutionVenue,
  resolutionsSql,
} from "./resolutions";
export { tableRowCounts } from "./row-counts";
export * from "./sandbox";
export { fromDateTime64, isoTimeOf, toDateTime64 } from "./values";
