/**
 * The real server in a child process (`node --import tsx apps/server/src/main.ts`), so a
 * load generator or a browser in this process does not share its event loop, and its
 * memory can be read from `/proc/<pid>/status` while it runs.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { promisify } from "node:util";

export async function freePort(): Promise<number> {
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

export interface ChildServer {
  baseUrl: string;
  pid: number;
  /** Resident memory of the server process, bytes (VmRSS). */
  rss(): number;
  isAlive(): boolean;
  output(): string;
  stop(): Promise<void>;
}

/** The environment every bench server gets: no scheduler, the bench's admin, quiet logs. */
export function serverEnv(dataDir: string, port: number, adminEmail: string): Record<string, string> {
  return {
    PORT: String(port),
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SYNC_INTERVAL_SECONDS: "0",
    ADMIN_EMAILS: adminEmail,
    // One log line per request at `info`; the bench keeps the server's output quiet.
    LOG_LEVEL: "warn",
    UV_THREADPOOL_SIZE: "16",
  };
}

export async function startChildServer(env: Record<string, string>): Promise<ChildServer> {
  let log = "";
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const baseUrl = `http://127.0.0.1:${env.PORT}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${log}`);
    if (Date.now() > deadline) throw new Error(`server not healthy after 120 s:\n${log}`);
    try {
      if ((await fetch(`${baseUrl}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const pid = child.pid as number;
  return {
    baseUrl,
    pid,
    rss: () => {
      try {
        const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
        return Number(kb ?? 0) * 1024;
      } catch {
        return 0;
      }
    },
    isAlive: () => child.exitCode === null && child.signalCode === null,
    output: () => log,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** `npm run admin -- keys create` in a child, exactly as an operator would; returns the key. */
export async function createApiKey(
  env: Record<string, string>,
  email: string,
  options: { allow?: boolean } = {},
): Promise<string> {
  if (options.allow) {
    await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "apps/server/src/cli/admin.ts", "allow", "add", email],
      { env: { ...process.env, ...env } },
    );
  }
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "apps/server/src/cli/admin.ts", "keys", "create", "--email", email, "--name", "bench"],
    { env: { ...process.env, ...env } },
  );
  const key = stdout
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .at(-1);
  if (!key || key.includes(" ")) throw new Error(`no key in the admin command's output:\n${stdout}`);
  return key;
}
