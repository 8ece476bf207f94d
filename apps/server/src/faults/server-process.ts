/**
 * The fault suite's handle on the REAL server: `node --import tsx apps/server/src/main.ts`
 * as a child process with its own environment, so a test can `kill -9` it, restart it on
 * the same stores and watch it fail to start, exactly as an operator would.
 *
 * The server is told `PORT=0` and the test reads the port it got from its "listening" log
 * line, so no free-port probe can race another process on this machine. Every child is
 * tracked and `killAllServers()` (call it in `afterAll`) SIGKILLs, by pid, whatever a
 * failed test left running.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { SessionTokens } from "@epicenter/contracts";
import { seedAppDatabase } from "@epicenter/db/testing";
import { seedWarehouse } from "@epicenter/warehouse/testing";
import { latestMailTo, tokenOf } from "../testing/sign-in";

export const REPO_ROOT = resolve(fileURLToPath(new URL("../../../../", import.meta.url)));
const MAIN = join(REPO_ROOT, "apps/server/src/main.ts");

/** Start-up of a server (chDB + PGlite, migrations) takes ~10 s here, longer on a busy machine. */
export const START_TIMEOUT_MS = 120_000;

const live = new Set<ChildProcess>();

/**
 * A new DATA_DIR whose embedded stores are copies of the run's migrated templates, as a
 * server that has started once leaves them (a fresh PGlite costs every start ~5 s more).
 */
export function tempDataDir(label: string): string {
  const dataDir = mkdtempSync(join(tmpdir(), `epicenter-fault-${label}-`));
  seedWarehouse(join(dataDir, "warehouse"));
  seedAppDatabase(join(dataDir, "app"));
  return dataDir;
}

export interface ServerProcess {
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  readonly outboxDir: string;
  readonly pid: number;
  /** Everything the process wrote so far (stdout then stderr interleaved, trimmed to the last 256 KB). */
  output(): string;
  /** Resolves when the process has exited, with its exit code (null when killed by a signal). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** `kill -9`: no shutdown hook runs. */
  kill9(): Promise<void>;
  /** SIGTERM (the graceful path), then waits for the exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function serverEnv(dataDir: string, env: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = { ...process.env };
  // The test runner's own settings must not leak into the server under test.
  for (const name of ["DATABASE_URL", "CLICKHOUSE_URL", "CLICKHOUSE_CLUSTER", "SMTP_URL", "SEISMO_BASE_URL"]) {
    delete inherited[name];
  }
  return {
    ...inherited,
    // As `npm start` sets it: chDB calls hold libuv threads (see the sandbox's notes).
    UV_THREADPOOL_SIZE: "16",
    PORT: "0",
    DATA_DIR: dataDir,
    SYNC_INTERVAL_SECONDS: "0",
    LOG_LEVEL: "info",
    ...env,
  };
}

function track(child: ChildProcess) {
  live.add(child);
  let text = "";
  const append = (chunk: Buffer) => {
    text += chunk.toString("utf8");
    if (text.length > 512 * 1024) text = text.slice(-256 * 1024);
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    child.once("exit", (code, signal) => {
      live.delete(child);
      done({ code, signal });
    });
  });
  return { exited, output: () => text };
}

/** Starts the server on `dataDir` and resolves once `/health` answers 200. */
export async function startServerProcess(options: {
  dataDir: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}): Promise<ServerProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", MAIN], {
    cwd: REPO_ROOT,
    env: serverEnv(options.dataDir, options.env ?? {}),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const { exited, output } = track(child);
  const deadline = Date.now() + (options.timeoutMs ?? START_TIMEOUT_MS);
  let port: number | undefined;
  try {
    while (port === undefined) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`server exited with ${child.exitCode ?? child.signalCode} before listening:\n${output()}`);
      }
      if (Date.now() > deadline) throw new Error(`server did not listen in time:\n${output()}`);
      const match = /"port":(\d+)[^\n]*"msg":"listening"/.exec(output());
      if (match) port = Number(match[1]);
      else await delay(100);
    }
    const url = `http://127.0.0.1:${port}`;
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output()}`);
        const response = await fetch(`${url}/health`).catch(() => undefined);
        return response?.status === 200;
      },
      { timeoutMs: Math.max(5_000, deadline - Date.now()), what: `health of the server on ${url}` },
    );
    return {
      url,
      port,
      dataDir: options.dataDir,
      outboxDir: join(options.dataDir, "outbox"),
      pid: child.pid as number,
      output,
      exited,
      async kill9() {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
        await exited;
      },
      async stop() {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
        return exited;
      },
    };
  } catch (error) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
    throw error;
  }
}

/** Runs the server expecting it NOT to start: its exit code and what it printed. */
export async function runUntilExit(options: {
  dataDir: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", MAIN], {
    cwd: REPO_ROOT,
    env: serverEnv(options.dataDir, { LOG_LEVEL: "warn", ...options.env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk;
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk;
  });
  const { exited } = track(child);
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? START_TIMEOUT_MS);
  const { code, signal } = await exited;
  clearTimeout(timer);
  if (signal) throw new Error(`the server was still running after the time limit (killed):\n${stdout}\n${stderr}`);
  return { code, stdout, stderr };
}

/** SIGKILLs, by pid, every server child still running (for `afterAll`). */
export async function killAllServers(): Promise<void> {
  const waits: Promise<unknown>[] = [];
  for (const child of live) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    waits.push(new Promise((done) => child.once("exit", done)));
    child.kill("SIGKILL");
  }
  await Promise.all(waits);
}

export function delay(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

/** Polls `check` until it is true; never a fixed sleep. */
export async function waitFor(
  check: () => Promise<boolean> | boolean,
  options: { timeoutMs?: number; intervalMs?: number; what: string },
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${options.what}`);
    await delay(options.intervalMs ?? 200);
  }
}

/** The last non-empty line a process printed. */
export function lastLine(text: string): string {
  return (
    text
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean)
      .at(-1) ?? ""
  );
}

// ── HTTP, as a client of the running server ──

export interface Caller {
  /** Sent as `Authorization: Bearer …` (a session token) or `X-API-Key` (an API key). */
  bearer?: string;
  apiKey?: string;
}

export async function call(
  server: { url: string },
  path: string,
  init: { method?: string; body?: unknown; as?: Caller; signal?: AbortSignal } = {},
): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = {};
  if (init.body !== undefined) headers["content-type"] = "application/json";
  if (init.as?.bearer) headers.authorization = `Bearer ${init.as.bearer}`;
  if (init.as?.apiKey) headers["x-api-key"] = init.as.apiKey;
  const response = await fetch(`${server.url}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers,
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    ...(init.signal ? { signal: init.signal } : {}),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body };
}

/** Signs `email` in through the real magic-link flow, reading the link from the server's outbox. */
export async function signInOverHttp(server: ServerProcess, email: string): Promise<SessionTokens> {
  const asked = await call(server, "/api/auth/magic-link", { body: { email } });
  if (asked.status !== 200) throw new Error(`magic link for ${email}: ${asked.status} ${JSON.stringify(asked.body)}`);
  const token = tokenOf(latestMailTo(server.outboxDir, email).link);
  const verified = await call(server, "/api/auth/verify", { body: { token } });
  if (verified.status !== 200)
    throw new Error(`verify for ${email}: ${verified.status} ${JSON.stringify(verified.body)}`);
  return verified.body as SessionTokens;
}

/** A new API key for the signed-in user, as the product's "Create key" does. */
export async function createApiKeyOverHttp(server: ServerProcess, session: SessionTokens, name: string) {
  const created = await call(server, "/api/keys/create", {
    body: { name, user_id: session.user.id },
    as: { bearer: session.access_token },
  });
  if (created.status !== 201) throw new Error(`create key: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body as { id: string; key: string };
}
