/**
 * Opens everything the server depends on, from the parsed config: both stores (migrated),
 * the logger and the clock. Shared by `main.ts`, the CLI and the demo, so they all run the
 * same code against the same stores.
 */
import { type AppDatabase, addToAllowList, openAppDatabase, upsertExampleQuery } from "@epicenter/db";
import { migrateWarehouse, openWarehouse, Sandbox, type SandboxOptions, type Warehouse } from "@epicenter/warehouse";
import type { Logger } from "pino";
import type { Config } from "./config";
import { secureDataDir } from "./data-dir";
import { createSignInLimits } from "./services/access/rate-limits";
import { createMailer } from "./services/mail/mailer";
import { createQueryAdmission } from "./services/queries/admission";
import { EXAMPLE_QUERIES } from "./services/queries/examples";
import { createQueryRunRecorder, type QueryRunRecorder } from "./services/queries/run-recorder";

export interface Stores {
  warehouse: Warehouse;
  appDatabase: AppDatabase;
  /** `query_runs`, written in small batches; flushed by `close()` before the database closes. */
  queryRuns: QueryRunRecorder;
  close(): Promise<void>;
}

/** The stores and the sandbox user SQL runs in, apart from the app's writers: what the server needs. */
export interface ServerStores extends Stores {
  sandbox: Sandbox;
}

/** Everything `createApp` needs beyond the stores, built from the config. */
export function appServices(config: Config, logger: Logger) {
  return {
    mailer: createMailer({ ...config.mail, outboxDir: config.outboxDir }, logger),
    signInLimits: createSignInLimits(),
    // A few queries run in the sandbox at once; up to this many may wait behind them.
    queryAdmission: createQueryAdmission(64),
  };
}

export const EMBEDDED_IN_USE = (path: string) =>
  `The embedded warehouse at ${path} cannot be opened; if another Epicenter process uses this DATA_DIR, stop it first`;

export class StartupError extends Error {
  override readonly name = "StartupError";
}

/**
 * Opens and migrates both stores, and unless `sandbox` is false (the CLI, which runs no
 * user SQL) the sandbox with its worker processes.
 */
export async function openStores(config: Config, logger: Logger, options: { sandbox: false }): Promise<Stores>;
export async function openStores(
  config: Config,
  logger: Logger,
  options?: { sandbox?: SandboxOptions },
): Promise<ServerStores>;
export async function openStores(
  config: Config,
  logger: Logger,
  options: { sandbox?: SandboxOptions | false } = {},
): Promise<Stores | ServerStores> {
  await secureDataDir(config.dataDir);
  let warehouse: Warehouse;
  try {
    warehouse = openWarehouse({ ...config.warehouse });
  } catch (error) {
    throw new StartupError(`${EMBEDDED_IN_USE(config.warehouse.path)} (${messageOf(error)})`);
  }
  try {
    const report = await migrateWarehouse(warehouse);
    logger.info(
      { engine: warehouse.kind, applied: report.applied.map((m) => m.version), version: report.current },
      "warehouse ready",
    );
  } catch (error) {
    await warehouse.close().catch(() => {});
    const where = config.warehouse.url
      ? `ClickHouse at ${redactUrl(config.warehouse.url)}`
      : `chDB at ${config.warehouse.path}`;
    throw new StartupError(`The warehouse (${where}) is not available: ${messageOf(error)}`);
  }

  let sandbox: Sandbox | undefined;
  if (options.sandbox !== false) {
    const sandboxLogger = logger.child({ area: "sandbox" });
    try {
      sandbox = await Sandbox.open(
        config.warehouse.url
          ? {
              warehouse,
              url: config.warehouse.url,
              ...(config.warehouse.sandboxUser
                ? { username: config.warehouse.sandboxUser, password: config.warehouse.sandboxPassword ?? "" }
                : {}),
            }
          : { warehouse, path: config.warehouse.path },
        { log: (level, message, fields) => sandboxLogger[level](fields ?? {}, message), ...options.sandbox },
      );
    } catch (error) {
      await warehouse.close().catch(() => {});
      throw new StartupError(`The query sandbox could not be opened: ${messageOf(error)}`);
    }
    if (!sandbox.isConfined) {
      sandboxLogger.warn(
        config.unconfinedSql === "allow"
          ? "user SQL is not confined (install bubblewrap); SANDBOX_UNCONFINED=allow lets everyone run it anyway"
          : "user SQL is not confined (install bubblewrap): only admins can run SQL until it is",
      );
    }
  }

  let appDatabase: AppDatabase;
  try {
    appDatabase = await openAppDatabase(config.appDatabase);
    // PGlite creates its files 0666 whatever the umask.
    if (appDatabase.kind === "pglite") await secureDataDir(config.dataDir);
    logger.info({ engine: appDatabase.kind }, "app database ready");
  } catch (error) {
    await sandbox?.close().catch(() => {});
    await warehouse.close().catch(() => {});
    const where = config.appDatabase.url
      ? `PostgreSQL at ${redactUrl(config.appDatabase.url)}`
      : `PGlite at ${config.appDatabase.path}`;
    throw new StartupError(`The app database (${where}) is not available: ${messageOf(error)}`);
  }

  for (const email of config.allowedEmails) await addToAllowList(appDatabase.db, email, "ALLOWED_EMAILS");
  for (const example of EXAMPLE_QUERIES) await upsertExampleQuery(appDatabase.db, example);

  const queryRuns = createQueryRunRecorder(appDatabase.db, logger);
  return {
    warehouse,
    ...(sandbox ? { sandbox } : {}),
    appDatabase,
    queryRuns,
    close: async () => {
      await queryRuns.close();
      // The workers end before the warehouse whose snapshots they read.
      await sandbox?.close().catch(() => {});
      await Promise.allSettled([warehouse.close(), appDatabase.close()]);
    },
  };
}

/**
 * The reason a store could not be opened, as one line. Drizzle wraps a driver failure in
 * "Failed query: <sql>\nparams: …" with the real reason (ECONNREFUSED, "database … does
 * not exist", a bad password) only in `cause`; the operator needs that reason, on the one
 * line the process prints before it exits (found by the fault suite: a PostgreSQL that
 * was down printed `Failed query: CREATE SCHEMA IF NOT EXISTS "drizzle"` and `params:`).
 */
function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return messageOf(error.errors[0]);
  if (error instanceof Error && error.message.startsWith("Failed query:") && error.cause !== undefined) {
    return messageOf(error.cause);
  }
  const text =
    error instanceof Error ? error.message || (error as { code?: string }).code || error.name : String(error);
  return text.replace(/\s*\n\s*/g, " ").trim();
}

export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(unparseable URL)";
  }
}
