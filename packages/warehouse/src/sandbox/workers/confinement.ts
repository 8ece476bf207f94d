/**
 * How a sandbox worker process is confined, so that user SQL has no rights beyond the
 * snapshot it reads even if a check above it misses something (chDB's plain `file()`
 * function, for one, reads any path the process can: its local mode checks no grant and
 * no `user_files_path`, measured on chDB 26.7).
 *
 * The strongest the machine allows, chosen once:
 * - `bubblewrap`: the worker runs under `bwrap` in new namespaces (user, network, mount,
 *   process ids, hostname) with no capabilities and a file system of only the system
 *   libraries, node, node_modules, the worker's code, its snapshot (read-only) and its own
 *   engine directory: no `/etc`, no `DATA_DIR`, no app database, no outbox, no
 *   environment. Inside it the worker is user 65534 when the server runs as root.
 * - `none`: no bwrap; the worker still has an empty environment and the engine's grants,
 *   the server admits SQL people or models wrote from admins only (unless told otherwise)
 *   and logs a warning naming bubblewrap.
 *
 * There was a third, `user` (no bwrap, server as root: the worker as user 65534). It is
 * gone (issue 44): the snapshot's parts are the warehouse's own files, hard-linked, so the
 * worker could read them only if the data directory were opened to every user on the
 * host, and half of ordinary queries failed with "Permission denied" naming the path.
 */
import { execFile, type SpawnOptions } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { promisify } from "node:util";

export type ConfinementKind = "bubblewrap" | "none";

export const UNPRIVILEGED_ID = 65534;

export interface Confinement {
  kind: ConfinementKind;
  /** The user the worker runs as when the server drops privileges, else undefined. */
  uid: number | undefined;
  /** Path of bwrap when it is used. */
  bwrap: string | undefined;
}

export interface WorkerLaunch {
  /** node and its arguments, as the worker should run them. */
  node: string[];
  readOnly: string[];
  readWrite: string[];
}

const BWRAP_CANDIDATES = ["/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap"];
const SYSTEM_READ_ONLY = ["/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/etc/ld.so.cache"];

/** Picks the strongest confinement that works here (or the one asked for, if it works). */
export async function chooseConfinement(requested: ConfinementKind | "auto"): Promise<Confinement> {
  const isRoot = process.getuid?.() === 0;
  const uid = isRoot ? UNPRIVILEGED_ID : undefined;
  if (requested === "auto" || requested === "bubblewrap") {
    const bwrap = BWRAP_CANDIDATES.find((path) => existsSync(path));
    if (bwrap && (await bubblewrapWorks(bwrap, uid))) return { kind: "bubblewrap", uid, bwrap };
    if (requested === "bubblewrap")
      throw new Error("bubblewrap (bwrap) is not installed or cannot create namespaces here");
  }
  return { kind: "none", uid: undefined, bwrap: undefined };
}

/** The command, arguments and options that start one worker under `confinement`. */
export function launchCommand(
  confinement: Confinement,
  launch: WorkerLaunch,
): { command: string; args: string[]; options: SpawnOptions } {
  const env = { PATH: "/usr/bin:/bin", HOME: "/tmp", TMPDIR: "/tmp", UV_THREADPOOL_SIZE: "4" };
  const stdio: SpawnOptions["stdio"] = ["pipe", "pipe", "pipe"];
  if (confinement.kind !== "bubblewrap") {
    const ids = confinement.uid === undefined ? {} : { uid: confinement.uid, gid: confinement.uid };
    const [command, ...args] = launch.node as [string, ...string[]];
    return { command, args, options: { env, stdio, cwd: "/", ...ids } };
  }
  // bwrap must see the paths it binds, so it starts as the server's user; the worker
  // becomes 65534 inside its own user namespace, with no capabilities.
  const ids =
    confinement.uid === undefined
      ? []
      : ["--unshare-user", "--uid", String(confinement.uid), "--gid", String(confinement.uid)];
  const args = [
    ...SYSTEM_READ_ONLY.flatMap((path) => ["--ro-bind-try", path, path]),
    ...["--ro-bind-try", dirname(launch.node[0] as string), dirname(launch.node[0] as string)],
    ...["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"],
    ...["--ro-bind-try", "/sys/fs/cgroup", "/sys/fs/cgroup"],
    ...launch.readOnly.flatMap((path) => ["--ro-bind", path, path]),
    ...launch.readWrite.flatMap((path) => ["--bind", path, path]),
    ...["--unshare-all", ...ids, "--hostname", "epicenter-sandbox", "--die-with-parent", "--new-session"],
    "--clearenv",
    ...Object.entries(env).flatMap(([name, value]) => ["--setenv", name, value]),
    ...["--chdir", "/tmp", "--"],
    ...launch.node,
  ];
  return { command: confinement.bwrap as string, args, options: { env: {}, stdio, cwd: "/" } };
}

async function bubblewrapWorks(bwrap: string, uid: number | undefined): Promise<boolean> {
  const { command, args, options } = launchCommand(
    { kind: "bubblewrap", uid, bwrap },
    { node: [process.execPath, "-e", ""], readOnly: [], readWrite: [] },
  );
  try {
    await promisify(execFile)(command, args, { ...options, timeout: 10_000 } as Parameters<typeof execFile>[2]);
    return true;
  } catch {
    return false;
  }
}
