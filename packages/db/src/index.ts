export { type AppDatabase, type AppDatabaseOptions, type AppDb, openAppDatabase, queryRows } from "./client";
export {
  type AllowListEntry,
  addToAllowList,
  isAllowListed,
  joinWaitlist,
  listAllowList,
  normalizeEmail,
  removeFromAllowList,
} from "./repositories/allow-list";
export * as schema from "./schema";
