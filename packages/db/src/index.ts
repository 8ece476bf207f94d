export { type AccessChange, onAccessChange } from "./access-changes";
export { type AppDatabase, type AppDatabaseOptions, type AppDb, openAppDatabase, queryRows } from "./client";
export * from "./repositories/allow-list";
export * from "./repositories/api-keys";
export * from "./repositories/magic-links";
export * from "./repositories/saved-queries";
export * from "./repositories/sessions";
export * from "./repositories/users";
export * as schema from "./schema";
