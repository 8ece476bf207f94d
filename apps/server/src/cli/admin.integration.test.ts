/**
 * Issue 13: `npm run admin` works beside a running server. Every command runs as an
 * operator runs it — `node --import tsx apps/server/src/cli/admin.ts …`, a child process
 * on the server's DATA_DIR — in three situations, in order, on one DATA_DIR:
 * 1. no server has run there: the CLI opens the stores itself;
 * 2. a server (a child process too) holds the stores: the CLI goes through its admin
 *    channel, which only the owner of DATA_DIR can enter;
 * 3. the server was stopped, and a killed server's socket lies where the channel was.
 * Each time the same script prints the same text with the same exit codes, and what one
 * situation did is visible in the next: keys made without the server work against it, and
 * an allow-list removal made through it takes effect on its very next request.
 */
import { spawn } from "node:child_process";
import { chmodSync, existsSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  call,
  killAllServers,
  REPO_ROOT,
  type ServerProcess,
  startServerProcess,
  tempDataDir,
  waitFor,
} from "../faults/server-process";

const ADMIN_CLI = join(REPO_ROOT, "apps/server/src/cli/admin.ts");
const USAGE = `Usage:
  npm run admin -- allow add EMAIL [--admin]
  npm run admin -- allow list
  npm run admin -- allow remove EMAIL
  npm run admin -- keys create --email EMAIL --name NAME`;

interface Printed {
  code: number | null;
  stdout: string;
  stderr: string;
}

let dataDir: string;
let socketPath: string;
let server: ServerProcess | undefined;

beforeAll(() => {
  dataDir = tempDataDir("admin-cli");
  // As `mkdir data` leaves it (mkdtemp's 0700 would keep other users out on its own).
  chmodSync(dataDir, 0o755);
  socketPath = join(dataDir, "run", "admin.sock");
});

afterAll(async () => {
  await server?.stop();
  await killAllServers();
  rmSync(dataDir, { recursive: true, force: true });
});

function admin(args: string[], options: { uid?: number } = {}): Promise<Printed> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  for (const name of ["DATABASE_URL", "CLICKHOUSE_URL", "CLICKHOUSE_CLUSTER", "ADMIN_EMAILS", "ALLOWED_EMAILS"]) {
    delete env[name];
  }
  const child = spawn(process.execPath, ["--import", "tsx", ADMIN_CLI, ...args], {
    cwd: REPO_ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.uid }),
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * The same script in each situation, on addresses of its own. Returns what each command
 * printed, with the situation's tag and the new key put back to placeholders so that the
 * three transcripts can be compared, and the key itself.
 */
async function script(tag: string): Promise<{ transcript: Printed[]; key: string }> {
  const user = `${tag}-user@cli.test`;
  const runs = [
    await admin(["allow", "add", user]),
    await admin(["allow", "add", `${tag}-boss@cli.test`, "--admin"]),
    await admin(["keys", "create", "--email", user, "--name", `${tag} key`]),
    await admin(["keys", "create", "--email", `${tag}-stranger@cli.test`, "--name", "x"]),
    await admin(["allow", "remove", `${tag}-ghost@cli.test`]),
    await admin(["allow", "remove", `${tag}-boss@cli.test`]),
  ];
  const key = /^(ep_live_\S+)$/m.exec(runs[2]!.stdout)?.[1];
  expect(key, runs[2]!.stdout + runs[2]!.stderr).toBeDefined();
  const placeholders = (text: string) => text.replaceAll(tag, "TAG").replaceAll(key!, "KEY");
  return {
    transcript: runs.map((run) => ({ ...run, stdout: placeholders(run.stdout), stderr: placeholders(run.stderr) })),
    key: key!,
  };
}

/** What the script prints, whoever runs the commands. */
const EXPECTED: Printed[] = [
  { code: 0, stdout: "TAG-user@cli.test is allow-listed.\n", stderr: "" },
  { code: 0, stdout: "TAG-boss@cli.test is allow-listed as an admin.\n", stderr: "" },
  { code: 0, stdout: 'Created API key "TAG key" for TAG-user@cli.test. It is shown this once:\n\nKEY\n\n', stderr: "" },
  {
    code: 2,
    stdout: "",
    stderr: `TAG-stranger@cli.test is not allow-listed; add it first with: allow add TAG-stranger@cli.test\n\n${USAGE}\n`,
  },
  { code: 2, stdout: "", stderr: `TAG-ghost@cli.test is not on the allow-list.\n\n${USAGE}\n` },
  { code: 0, stdout: "TAG-boss@cli.test is no longer allow-listed.\n", stderr: "" },
];

/** `allow list` as (e-mail, role, added by), in its order (newest first). */
async function allowList(): Promise<string[]> {
  const listed = await admin(["allow", "list"]);
  expect(listed).toMatchObject({ code: 0, stderr: "" });
  return listed.stdout
    .trimEnd()
    .split("\n")
    .map((line) => {
      const [email, role, createdAt, addedBy] = line.split("\t");
      expect(Number.isNaN(Date.parse(createdAt ?? ""))).toBe(false);
      return `${email} ${role} ${addedBy}`;
    });
}

const runQuery = (key: string) =>
  call(server!, "/api/query", { body: { query: "SELECT 1 AS one" }, as: { bearer: key } });

let offlineKey: string;

describe("npm run admin", () => {
  it("opens the stores itself when no server owns DATA_DIR", async () => {
    expect(await admin(["allow", "list"])).toEqual({ code: 0, stdout: "The allow-list is empty.\n", stderr: "" });
    const { transcript, key } = await script("offline");
    expect(transcript).toEqual(EXPECTED);
    offlineKey = key;
    expect(await allowList()).toEqual(["offline-user@cli.test user cli"]);
  }, 180_000);

  it("runs every command in the server that owns DATA_DIR, with the same output", async () => {
    server = await startServerProcess({ dataDir });
    expect(server.output()).toContain('"msg":"admin channel open"');
    const directory = statSync(join(dataDir, "run"));
    const socket = statSync(socketPath);
    expect(socket.isSocket()).toBe(true);
    expect(directory.mode & 0o777).toBe(0o700);
    expect(socket.mode & 0o777).toBe(0o600);
    expect([directory.uid, socket.uid]).toEqual([process.getuid?.(), process.getuid?.()]);

    const { transcript, key } = await script("online");
    expect(transcript).toEqual(EXPECTED);
    expect(server.output().match(/"msg":"admin command"/g)).toHaveLength(6);
    expect(await allowList()).toEqual(["online-user@cli.test user cli", "offline-user@cli.test user cli"]);

    // Keys from either path open the API of the running server.
    expect((await runQuery(key)).status).toBe(200);
    expect((await runQuery(offlineKey)).status).toBe(200);
    // The removal ran in the server, which forgot the caller it had resolved at once.
    expect(await admin(["allow", "remove", "offline-user@cli.test"])).toEqual({
      code: 0,
      stdout: "offline-user@cli.test is no longer allow-listed.\n",
      stderr: "",
    });
    expect(await runQuery(offlineKey)).toMatchObject({ status: 403, body: { error: { code: "forbidden" } } });
    expect((await runQuery(key)).status).toBe(200);
  }, 240_000);

  it.runIf(process.getuid?.() === 0)(
    "keeps other users out of the server's admin channel",
    async () => {
      // The server runs as root here, so "someone else" is nobody (65534), on a DATA_DIR they may enter.
      const stranger = await admin(["allow", "add", "intruder@cli.test", "--admin"], { uid: 65534 });
      expect(stranger).toEqual({
        code: 1,
        stdout: "",
        stderr: `A server owns ${dataDir}, but its admin channel (${socketPath}) is not open to this user; run the command as the user the server runs as.\n`,
      });
      expect(await allowList()).not.toContain("intruder@cli.test admin cli");
    },
    60_000,
  );

  it("opens the stores itself again once the server has stopped, past a killed server's socket", async () => {
    expect(await server!.stop()).toEqual({ code: 0, signal: null });
    server = undefined;
    expect(existsSync(socketPath)).toBe(false);
    await leaveDeadSocket(socketPath);

    const { transcript } = await script("stopped");
    expect(transcript).toEqual(EXPECTED);
    expect(statSync(socketPath).isSocket()).toBe(true);
    expect(await allowList()).toEqual(["stopped-user@cli.test user cli", "online-user@cli.test user cli"]);
  }, 180_000);
});

/** A socket no process listens on any more, as `kill -9` of a server leaves it. */
async function leaveDeadSocket(path: string): Promise<void> {
  const holder = spawn(process.execPath, ["-e", "require('node:net').createServer().listen(process.argv[1])", path], {
    stdio: "ignore",
  });
  await waitFor(() => existsSync(path), { what: `a socket at ${path}`, intervalMs: 20 });
  const exited = new Promise((done) => holder.once("exit", done));
  holder.kill("SIGKILL");
  await exited;
}
