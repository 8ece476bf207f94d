/**
 * A real app on real embedded stores in a temp directory, for integration tests that go
 * through `app.request()`. No mocks: chDB and PGlite are fast enough to use as they are.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { createApp } from "../app";
import { parseConfig } from "../config";
import { openStores, type Stores } from "../deps";

export interface TestApp {
  app: ReturnType<typeof createApp>;
  stores: Stores;
  dataDir: string;
  close(): Promise<void>;
}

export async function createTestApp(
  options: { env?: Record<string, string>; webRoot?: string; clock?: () => Date } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), "epicenter-app-test-"));
  const config = parseConfig({ DATA_DIR: dataDir, SYNC_INTERVAL_SECONDS: "0", ...options.env });
  const logger = pino({ level: "silent" });
  const stores = await openStores(config, logger);
  const app = createApp({
    config,
    ...stores,
    logger,
    clock: options.clock ?? (() => new Date()),
    ...(options.webRoot ? { webRoot: options.webRoot } : {}),
  });
  return {
    app,
    stores,
    dataDir,
    close: async () => {
      await stores.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
