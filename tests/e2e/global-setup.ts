/**
 * Starts the product for the end-to-end tier the way a user would meet it, and stops it
 * afterwards, once per lane (`./server.ts`):
 * - the replay server stands in for both upstream APIs;
 * - the archive is seeded before the servers open it (`./archive.ts`), by `npm test` ahead
 *   of the tier or here, and each lane's server opens a copy of its own (chDB allows one
 *   process per data dir, and tests write: pairs decided, queries saved, sessions);
 * - a scripted OpenAI-compatible model stands in for Seismo's provider;
 * - the real server (built SPA, embedded stores) runs on a free port with the scheduler
 *   syncing from the replay every minute, so tests can watch a sync land, and with the
 *   books and cross-venue workers between snapshots but not the backfill and history
 *   walks (`SYNC_WORKERS`), whose steps the seed ran and the integration tier tests whole.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startReplayServer } from "@epicenter/ingest";
import type { TestProject } from "vitest/node";
import { startFakeLlm } from "../../apps/server/src/testing/fake-llm";
import { seedArchive } from "./archive";
import { E2E_ARCHIVE_ENV, E2E_LANES, isSeeded } from "./prepared";
import type { E2eServer } from "./server";

export const E2E_ADMIN = "admin@e2e.test";
export const E2E_USER = "user@e2e.test";
/** Snapshot cadence of the e2e server: a sync right at start, then one every minute. */
export const E2E_SYNC_INTERVAL_SECONDS = 60;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(`${url}/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`server did not become healthy within 90 s:\n${output()}`);
}

/** Starts one lane's replay, model and server on the archive in `dataDir`; answers its stop. */
async function startLane(dataDir: string): Promise<{ server: E2eServer; stop: () => Promise<void> }> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const replay = await startReplayServer({});
  const llm = await startFakeLlm();
  let log = "";
  const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: baseUrl,
      SYNC_INTERVAL_SECONDS: String(E2E_SYNC_INTERVAL_SECONDS),
      SYNC_WORKERS: "books,crossvenue",
      POLYMARKET_API_URL: replay.url.polymarket,
      POLYMARKET_CLOB_URL: replay.url.polymarketClob,
      POLYMARKET_DATA_URL: replay.url.polymarketData,
      KALSHI_API_URL: replay.url.kalshi,
      SEISMO_BASE_URL: llm.url,
      SEISMO_MODEL: "fake-model",
      ADMIN_EMAILS: E2E_ADMIN,
      ALLOWED_EMAILS: E2E_USER,
      LOG_LEVEL: "warn",
      UV_THREADPOOL_SIZE: "16",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => {
    log += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    log += chunk;
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    }
    await llm.close();
    await replay.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(baseUrl, child, () => log);
  } catch (error) {
    await stop();
    throw error;
  }
  return { server: { baseUrl, dataDir, seismoLlmUrl: llm.url }, stop };
}

export default async function setup(project: TestProject) {
  const prepared = process.env[E2E_ARCHIVE_ENV];
  if (prepared && !isSeeded(prepared)) throw new Error(`${E2E_ARCHIVE_ENV}=${prepared} holds no finished seed`);
  // The first lane takes the seeded folder over (and removes it at the end); the others copy it first.
  const seeded = prepared ?? mkdtempSync(join(tmpdir(), "epicenter-e2e-"));
  if (!prepared) {
    const replay = await startReplayServer({});
    try {
      await seedArchive(seeded, replay);
    } finally {
      await replay.close();
    }
  }
  const dataDirs = [seeded];
  for (let lane = 1; lane < E2E_LANES; lane++) {
    const copy = mkdtempSync(join(tmpdir(), "epicenter-e2e-"));
    cpSync(seeded, copy, { recursive: true });
    dataDirs.push(copy);
  }
  const lanes = await Promise.allSettled(dataDirs.map(startLane));
  const started = lanes.flatMap((lane) => (lane.status === "fulfilled" ? [lane.value] : []));
  const stopAll = () => Promise.all(started.map((lane) => lane.stop()));
  const failed = lanes.find((lane): lane is PromiseRejectedResult => lane.status === "rejected");
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  project.provide(
    "e2eServers",
    started.map((lane) => lane.server),
  );
  return async () => {
    await stopAll();
  };
}
