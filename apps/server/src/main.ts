/**
 * `npm start`: config → stores → app → listen on `HOST` (loopback unless the operator opens
 * it), plus the local admin channel through which `npm run admin` reaches this server
 * while it holds the stores. On SIGTERM or SIGINT the
 * server stops taking requests and admin commands, lets in-flight ones finish (up to a
 * bound), then closes both stores, so nothing committed is lost and the embedded engines
 * are shut cleanly.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { clickhouseRoot, createApp } from "./app";
import { type Config, ConfigError, parseConfig } from "./config";
import { appServices, openStores, StartupError } from "./deps";
import { createLogger } from "./logger";
import { openLocalAdminChannel } from "./services/admin/local-admin-channel";
import { runAdminCommand } from "./services/admin/local-admin-commands";
import { startScheduler } from "./services/sync/sync-runtime";

const SHUTDOWN_GRACE_MS = 10_000;
export const defaultWebRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "web", "dist");

export interface RunningServer {
  port: number;
  /** The ClickHouse interface's own port, when `CLICKHOUSE_HTTP_PORT` is set. */
  clickhousePort?: number;
  stop(): Promise<void>;
}

export async function startServer(config: Config, options: { webRoot?: string } = {}): Promise<RunningServer> {
  const logger = createLogger(config.logLevel);
  const stores = await openStores(config, logger);
  const scheduler = startScheduler(config, stores.warehouse, logger, () => {
    // One refresh per cycle, not one per venue: the venue that finishes last asks for it.
    const states = Object.values(scheduler?.state() ?? {});
    if (states.some((state) => state.status === "syncing")) return;
    stores.sandbox.refresh().catch((error: unknown) => logger.warn({ err: error }, "sandbox snapshot failed"));
  });
  const app = createApp({
    config,
    ...stores,
    ...appServices(config, logger),
    ...(scheduler ? { syncState: () => scheduler.state() } : {}),
    logger,
    clock: () => new Date(),
    webRoot: options.webRoot ?? defaultWebRoot,
  });

  // Open before "listening" is logged, so a started server is one the CLI can reach.
  const adminChannel = await openLocalAdminChannel({
    dataDir: config.dataDir,
    run: (command) =>
      runAdminCommand({ db: stores.appDatabase.db, adminEmails: config.adminEmails, clock: () => new Date() }, command),
    logger,
  });

  const { server, port } = await listen(app.fetch, config.host, config.port);
  logger.info({ host: config.host, port, url: config.publicUrl }, "listening");
  const clickhouse =
    config.clickhouseHttpPort === undefined
      ? undefined
      : await listen(clickhouseRoot(app), config.host, config.clickhouseHttpPort);
  if (clickhouse) logger.info({ host: config.host, port: clickhouse.port }, "ClickHouse HTTP interface listening");

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      logger.info("shutting down: finishing in-flight requests");
      const adminChannelClosed = adminChannel?.close();
      await Promise.all([drain(server), clickhouse ? drain(clickhouse.server) : undefined]);
      await adminChannelClosed;
      // A run cut short here cleans up after itself; the next start finds nothing half-written.
      await scheduler?.stop({ abort: true });
      await stores.close();
      logger.info("stopped");
    })();
    return stopping;
  };
  return { port, ...(clickhouse ? { clickhousePort: clickhouse.port } : {}), stop };
}

type Listening = ReturnType<typeof serve>;

/** Both ports bind `HOST` (loopback by default; the operator opens it with `HOST=0.0.0.0`). */
async function listen(fetch: Parameters<typeof serve>[0]["fetch"], host: string, port: number) {
  const server = serve({ fetch, port, hostname: host });
  const bound = await new Promise<number>((resolve, reject) => {
    server.once("listening", () => {
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : port);
    });
    // An address this machine does not have, or a port in use: say which variables to change.
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new StartupError(
          `Cannot listen on ${host} port ${port} (HOST, PORT or CLICKHOUSE_HTTP_PORT): ${error.message}`,
        ),
      ),
    );
  });
  return { server, port: bound };
}

/** Stops taking connections and lets in-flight requests finish, up to the grace period. */
function drain(server: Listening): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      if ("closeAllConnections" in server) server.closeAllConnections();
      resolve();
    }, SHUTDOWN_GRACE_MS);
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    if ("closeIdleConnections" in server) server.closeIdleConnections();
  });
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = parseConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  let running: RunningServer;
  try {
    running = await startServer(config);
  } catch (error) {
    if (error instanceof StartupError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      void running.stop().then(() => process.exit(0));
    });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await main();
}
