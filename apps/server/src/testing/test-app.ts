/**
 * A real app on real embedded stores in a temp directory, for integration tests that go
 * through `app.request()`. No mocks: chDB and PGlite are fast enough to use as they are.
 * chDB allows one data directory per process, so a test file opens one `TestApp` and
 * builds variants of the app over the same stores with `withApp`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { seedAppDatabase } from "@epicenter/db/testing";
import { Sandbox } from "@epicenter/warehouse";
import { seedWarehouse } from "@epicenter/warehouse/testing";
import pino from "pino";
import { type AppDeps, createApp } from "../app";
import { type Config, parseConfig } from "../config";
import { appServices, openStores, type ServerStores } from "../deps";
import { createSignInLimits } from "../services/access/rate-limits";

export interface TestApp {
  app: ReturnType<typeof createApp>;
  stores: ServerStores;
  config: Config;
  dataDir: string;
  outboxDir: string;
  /** Another app over the same stores, with some dependencies replaced. */
  withApp(overrides: Partial<AppDeps>): ReturnType<typeof createApp>;
  close(): Promise<void>;
}

export async function createTestApp(
  options: {
    env?: Record<string, string>;
    webRoot?: string;
    clock?: () => Date;
    sandboxPoolSize?: number;
    /** How old user SQL's snapshot may grow after a write; 0 (every write visible at once) by default. */
    sandboxStalenessMs?: number;
  } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), "epicenter-app-test-"));
  const config = parseConfig({ DATA_DIR: dataDir, SYNC_INTERVAL_SECONDS: "0", ...options.env });
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
  // Both stores start as copies of the run's migrated templates (`openStores` then finds
  // no migration to apply); the migrations are tested from nothing in their own suites.
  if (!config.warehouse.url) seedWarehouse(config.warehouse.path);
  if (!config.appDatabase.url && config.appDatabase.path) seedAppDatabase(config.appDatabase.path);
  // Every write is visible to the next query: tests insert, then query at once. So each
  // write a test queries after starts a new set of workers: two, not the server's three
  // (one caller holds one at a time, as on the server; the share has suites of its own).
  const stores = await openStores(config, logger, {
    sandbox: { maxStalenessMs: options.sandboxStalenessMs ?? 0, limits: { poolSize: options.sandboxPoolSize ?? 2 } },
  });
  const deps: AppDeps = {
    config,
    ...stores,
    ...appServices(config, logger),
    // Suites sign the same people in many times; the limits have tests of their own.
    signInLimits: createSignInLimits({ perAddress: 10_000, perIp: 10_000, waitlistPerHour: 10_000 }),
    logger,
    clock: options.clock ?? (() => new Date()),
    // Every answer in the suites is checked against its contract.
    validateResponses: true,
    ...(options.webRoot ? { webRoot: options.webRoot } : {}),
  };
  return {
    app: createApp(deps),
    stores,
    config,
    dataDir,
    outboxDir: config.outboxDir,
    withApp: (overrides) => createApp({ ...deps, ...overrides }),
    close: async () => {
      await stores.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A sandbox over the test app's warehouse whose workers run unconfined, as on a machine
 * without bubblewrap: the app then admits SQL from admins only. Closed by the caller.
 */
export function openUnconfinedSandbox(t: TestApp): Promise<Sandbox> {
  return Sandbox.open(
    {
      path: t.config.warehouse.path,
      warehouse: t.stores.warehouse,
      workDirectory: join(t.dataDir, "unconfined.sandbox"),
    },
    { confinement: "none", maxStalenessMs: 0 },
  );
}
