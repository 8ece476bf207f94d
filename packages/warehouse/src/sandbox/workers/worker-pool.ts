/**
 * The embedded engine's sandbox: a few confined worker processes, each a chDB engine on a
 * frozen snapshot of the market tables (`snapshot.ts`), leased one query at a time.
 *
 * Generations: a snapshot and the workers started on it. `refresh()` (the server calls it
 * after each sync run) takes a new snapshot and starts a new set of workers on it; leases
 * move to them as soon as one is ready, the old workers end once their query ends, and
 * the old snapshot is removed when its last worker has gone. Writes between refreshes
 * (the backfill) are picked up by the first lease after the snapshot is `maxStalenessMs`
 * old, which starts a refresh and, unless that is 0, runs on the current snapshot
 * meanwhile. A worker that is killed (a query that would not stop) or dies is replaced
 * in its generation.
 */
import { chown, mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Warehouse } from "../../client";
import type { EngineSession, SandboxEngine } from "../engine";
import { QueryEngineError } from "../errors";
import { FairGate } from "../fair-gate";
import type { Confinement } from "./confinement";
import { workerConfigXml, workerUsersXml } from "./engine-config";
import { dropSnapshot, dropStaleSnapshots, type Snapshot, takeSnapshot, writeWorkerTables } from "./snapshot";
import { WorkerProcess } from "./worker-process";

export interface WorkerPoolOptions {
  warehouse: Warehouse;
  /** The embedded warehouse's directory. */
  warehousePath: string;
  /** Where worker directories go (one per worker, removed when it ends). */
  workDirectory: string;
  databases: readonly string[];
  /** Databases of views (the catalogue views) the workers see too. */
  viewDatabases?: readonly string[];
  /** Engine settings of every user query (limits, output), put in the workers' profile. */
  settings: Record<string, string | number>;
  size: number;
  perOwner: number;
  maxServerMemoryBytes: number;
  /** How old a snapshot may get, once the warehouse has changed, before queries wait for a new one. */
  maxStalenessMs: number;
  confinement: Confinement;
  log: (level: "info" | "warn", message: string, fields?: Record<string, unknown>) => void;
}

interface Generation {
  snapshot: Snapshot;
  workers: Set<WorkerProcess>;
  idle: WorkerProcess[];
  /** Workers being started for this generation. */
  starting: number;
  isRetired: boolean;
}

const WORKER_DIR = dirname(fileURLToPath(import.meta.url));
/** After this many starts in a row fail, leases fail instead of waiting for a worker. */
const MAX_START_FAILURES = 3;

export class WorkerPool implements SandboxEngine {
  readonly kind = "chdb" as const;
  readonly confinement: string;
  readonly isConfined: boolean;
  private readonly gate: FairGate;
  private current: Generation | undefined;
  private rolling: Promise<void> | undefined;
  private readonly waitingForWorker: Array<() => void> = [];
  private startFailures = 0;
  private lastStartError: Error | undefined;
  private isClosed = false;
  private workerSerial = 0;
  /** Workers being started, so `close` can wait for them before removing their folders. */
  private readonly launches = new Set<Promise<unknown>>();

  private constructor(private readonly options: WorkerPoolOptions) {
    this.gate = new FairGate(options.size, options.perOwner);
    this.confinement = describe(options.confinement);
    this.isConfined = options.confinement.kind === "bubblewrap";
  }

  static async open(options: WorkerPoolOptions): Promise<WorkerPool> {
    await dropStaleSnapshots(options.warehousePath);
    await rm(options.workDirectory, { recursive: true, force: true });
    await mkdir(options.workDirectory, { recursive: true });
    const pool = new WorkerPool(options);
    try {
      await pool.roll();
      // The first worker proves the configuration: a failure here is a start-up error, not a query error.
      await pool.withWorker(async () => undefined);
    } catch (error) {
      await pool.close();
      throw error;
    }
    return pool;
  }

  async lease<T>(owner: string, work: (session: EngineSession) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.gate.enter(owner, signal);
    try {
      if (this.isStale()) {
        const rolled = this.roll();
        if (this.options.maxStalenessMs === 0) await rolled;
        else
          rolled.catch((error: Error) => this.options.log("warn", "sandbox snapshot failed", { error: error.message }));
      }
      return await this.withWorker((worker) => work(sessionOf(worker)));
    } finally {
      release();
    }
  }

  async refresh(): Promise<void> {
    await this.roll();
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    this.gate.close();
    await this.rolling?.catch(() => undefined);
    const generation = this.current;
    this.current = undefined;
    for (const wake of this.waitingForWorker.splice(0)) wake();
    if (generation) await this.retire(generation);
    while (this.launches.size > 0) await Promise.all([...this.launches]);
    await rm(this.options.workDirectory, { recursive: true, force: true });
  }

  private isStale(): boolean {
    const current = this.current;
    if (!current || this.isClosed) return false;
    if (this.options.warehouse.writes === current.snapshot.writes) return false;
    return Date.now() - current.snapshot.takenAt >= this.options.maxStalenessMs;
  }

  /** Takes a snapshot and moves to a generation of workers on it; concurrent calls share one roll. */
  private roll(): Promise<void> {
    this.rolling ??= (async () => {
      try {
        const snapshot = await takeSnapshot(
          this.options.warehouse,
          this.options.warehousePath,
          this.options.databases,
          this.options.viewDatabases,
        );
        const previous = this.current;
        const generation: Generation = { snapshot, workers: new Set(), idle: [], starting: 0, isRetired: false };
        this.current = generation;
        for (let index = 0; index < this.options.size; index++) this.startWorker(generation);
        if (previous) void this.retire(previous);
      } finally {
        this.rolling = undefined;
      }
    })();
    return this.rolling;
  }

  /** Runs `work` on an idle worker of the current generation, waiting for one if need be. */
  private async withWorker<T>(work: (worker: WorkerProcess) => Promise<T>): Promise<T> {
    for (;;) {
      if (this.isClosed) throw new Error("the sandbox is closed");
      const generation = this.current;
      const worker = generation?.idle.pop();
      if (generation && worker) {
        try {
          return await work(worker);
        } finally {
          this.giveBack(generation, worker);
        }
      }
      if (this.startFailures >= MAX_START_FAILURES) {
        throw new QueryEngineError(
          `The query engine could not be started: ${this.lastStartError?.message ?? "unknown error"}.`,
          "ENGINE_UNAVAILABLE",
        );
      }
      await new Promise<void>((wake) => this.waitingForWorker.push(wake));
    }
  }

  private track(work: Promise<unknown>): void {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.launches.add(settled);
    void settled.then(() => this.launches.delete(settled));
  }

  private giveBack(generation: Generation, worker: WorkerProcess): void {
    if (!worker.isAlive) return; // its exit handler starts a replacement
    if (generation.isRetired) {
      generation.workers.delete(worker);
      void this.endWorker(generation, worker);
      return;
    }
    generation.idle.push(worker);
    this.wakeOne();
  }

  private wakeOne(): void {
    this.waitingForWorker.shift()?.();
  }

  private startWorker(generation: Generation): void {
    generation.starting += 1;
    const serial = ++this.workerSerial;
    const directory = join(this.options.workDirectory, `worker-${serial}`);
    const launched = this.launch(generation, directory);
    this.track(launched);
    void launched.then(
      (worker) => {
        generation.starting -= 1;
        this.startFailures = 0;
        if (generation.isRetired || this.isClosed) {
          this.track(worker.close().then(() => rm(directory, { recursive: true, force: true })));
          return;
        }
        generation.workers.add(worker);
        generation.idle.push(worker);
        void worker.exited.then(() => this.onWorkerExit(generation, worker, directory));
        this.wakeOne();
      },
      (error: Error) => {
        generation.starting -= 1;
        void rm(directory, { recursive: true, force: true });
        if (this.isClosed) return;
        this.startFailures += 1;
        this.lastStartError = error;
        this.options.log("warn", "sandbox worker failed to start", { error: error.message });
        if (this.startFailures < MAX_START_FAILURES && !generation.isRetired && !this.isClosed) {
          setTimeout(() => this.startWorker(generation), 500 * this.startFailures).unref();
        } else {
          for (const wake of this.waitingForWorker.splice(0)) wake();
        }
      },
    );
  }

  private onWorkerExit(generation: Generation, worker: WorkerProcess, directory: string): void {
    const wasMember = generation.workers.delete(worker);
    const idleAt = generation.idle.indexOf(worker);
    if (idleAt !== -1) generation.idle.splice(idleAt, 1);
    void rm(directory, { recursive: true, force: true });
    // A killed or crashed worker of the live generation is replaced.
    if (wasMember && !generation.isRetired && !this.isClosed) this.startWorker(generation);
    if (generation.isRetired && generation.workers.size === 0 && generation.starting === 0) {
      void dropSnapshot(generation.snapshot);
    }
  }

  private async launch(generation: Generation, directory: string): Promise<WorkerProcess> {
    const engineDir = join(directory, "engine");
    const confDir = join(directory, "conf");
    await mkdir(engineDir, { recursive: true });
    await mkdir(confDir, { recursive: true });
    const usersFile = join(confDir, "users.xml");
    const configFile = join(confDir, "config.xml");
    await writeFile(
      usersFile,
      workerUsersXml(this.options.settings, [...this.options.databases, ...(this.options.viewDatabases ?? [])]),
    );
    await writeFile(
      configFile,
      workerConfigXml({
        usersFile,
        snapshotRoot: dirname(generation.snapshot.directory),
        maxServerMemoryBytes: this.options.maxServerMemoryBytes,
      }),
    );
    await writeWorkerTables(engineDir, generation.snapshot);
    // Outside bubblewrap the worker runs as another user: its engine directory is its own.
    const { kind, uid } = this.options.confinement;
    if (kind === "user" && uid !== undefined) await chownTree(engineDir, uid);
    return WorkerProcess.start(
      this.options.confinement,
      {
        node: [process.execPath, "--import", TSX_LOADER, join(WORKER_DIR, "worker.ts"), engineDir, configFile],
        readOnly: [...CODE_PATHS, confDir, generation.snapshot.directory],
        readWrite: [engineDir],
      },
      (line) => this.options.log("warn", "sandbox worker", { line }),
    );
  }

  private async retire(generation: Generation): Promise<void> {
    generation.isRetired = true;
    const idle = generation.idle.splice(0);
    for (const worker of idle) generation.workers.delete(worker);
    await Promise.all(idle.map((worker) => this.endWorker(generation, worker)));
    // Busy workers end when their query does (`giveBack`).
    if (generation.workers.size === 0 && generation.starting === 0) await dropSnapshot(generation.snapshot);
  }

  private async endWorker(generation: Generation, worker: WorkerProcess): Promise<void> {
    await worker.close();
    if (generation.workers.size === 0 && generation.starting === 0) await dropSnapshot(generation.snapshot);
  }
}

function sessionOf(worker: WorkerProcess): EngineSession {
  return {
    queryText: async (sql, options = {}) =>
      (await worker.queryText(sql, options.format ?? "TabSeparatedRaw", options.params)).toString("utf8"),
    stream: (sql, { format, queryId: _queryId, ...options }) =>
      worker.stream(sql, format, sql.slice(0, sql.indexOf("*/") + 2), options),
  };
}

function describe(confinement: Confinement): string {
  switch (confinement.kind) {
    case "bubblewrap":
      return `worker processes in bubblewrap (no network, no environment, only the snapshot${confinement.uid === undefined ? "" : `, user ${confinement.uid}`})`;
    case "user":
      return `worker processes as user ${confinement.uid} with no environment (install bubblewrap to hide the file system too)`;
    case "none":
      return "worker processes with no environment, not confined (install bubblewrap to confine user SQL)";
  }
}

async function chownTree(path: string, uid: number): Promise<void> {
  await chown(path, uid, uid);
  for (const entry of await readdir(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) await chownTree(child, uid);
    else await chown(child, uid, uid);
  }
}

const require = createRequire(import.meta.url);
const TSX_DIR = dirname(require.resolve("tsx/package.json"));
const TSX_LOADER = pathToFileURL(join(TSX_DIR, "dist", "loader.mjs")).href;
/** The node_modules folder a package was installed in (`…/node_modules/chdb` → `…/node_modules`). */
const modulesOf = (name: string) => dirname(dirname(require.resolve(`${name}/package.json`)));
/** What the worker's code needs to see: node_modules (chDB, tsx), its own folder, and the package files that make it ESM. */
const CODE_PATHS = [
  ...new Set([modulesOf("tsx"), modulesOf("chdb")]),
  WORKER_DIR,
  join(WORKER_DIR, "..", "..", "..", "package.json"),
  join(WORKER_DIR, "..", "..", "..", "..", "..", "package.json"),
];
