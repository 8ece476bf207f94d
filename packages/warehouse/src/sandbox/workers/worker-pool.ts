/**
 * The embedded engine's sandbox: a few confined worker processes, each a chDB engine on a
 * frozen snapshot of the market tables (`snapshot.ts`), leased one query at a time.
 *
 * Generations: a snapshot and the workers started on it. `refresh()` (the server calls it
 * after each sync cycle) takes a new snapshot and starts a new set of workers on it; the
 * current generation goes on serving until every new worker has started and warmed its
 * caches on the snapshot's tables, so no query waits for a worker or meets a cold one
 * (issue 24, #9). Then leases move to the new generation, the old workers end once their
 * query ends, and the old snapshot is removed when its last worker has gone, started or
 * not. Refreshes asked for while one is under way coalesce into one more, which is
 * skipped when nothing was written meanwhile. Writes between refreshes (the backfill) are
 * picked up by the first lease after the snapshot is `maxStalenessMs` old, which starts
 * a refresh and runs on the current snapshot meanwhile; at 0, a lease the serving
 * generation is behind waits for one that holds every write (a refresh under way may
 * already have taken its snapshot, and serves once its workers start). A worker that
 * is killed (a query that would not stop) or dies is replaced in its generation.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Warehouse } from "../../client";
import type { EngineSession, SandboxEngine } from "../engine";
import { QueryEngineError } from "../errors";
import { FairGate } from "../fair-gate";
import type { Confinement } from "./confinement";
import { workerConfigXml, workerUsersXml } from "./engine-config";
import { dropSnapshot, dropStaleSnapshots, type Snapshot, takeSnapshot, writeWorkerTables } from "./snapshot";
import { bundleWorker, CHDB_MODULES } from "./worker-bundle";
import { WorkerProcess } from "./worker-process";

export interface WorkerPoolOptions {
  warehouse: Warehouse;
  /** The embedded warehouse's directory. */
  warehousePath: string;
  /** Where worker directories go (one per worker, removed when it ends). */
  workDirectory: string;
  databases: readonly string[];
  /** Databases of views the workers see too: the catalogue views, and the market databases' own. */
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
  isDropped: boolean;
  /** Starts that failed in a row. */
  startFailures: number;
  /** Told when a worker of this generation has started or failed to (the roll waits on it). */
  onStart?: () => void;
}

/** After this many starts in a row fail, leases fail instead of waiting for a worker. */
const MAX_START_FAILURES = 3;

export class WorkerPool implements SandboxEngine {
  readonly kind = "chdb" as const;
  readonly confinement: string;
  readonly isConfined: boolean;
  private readonly gate: FairGate;
  private current: Generation | undefined;
  /** The generation a roll is starting, not serving yet. */
  private pending: Generation | undefined;
  private rolling: Promise<void> | undefined;
  /** The one roll that follows the one under way, shared by every refresh asked for meanwhile. */
  private nextRoll: Promise<void> | undefined;
  private readonly waitingForWorker: Array<() => void> = [];
  private lastStartError: Error | undefined;
  private isClosed = false;
  private workerSerial = 0;
  /** Workers being started, so `close` can wait for them before removing their folders. */
  private readonly launches = new Set<Promise<unknown>>();

  private constructor(
    private readonly options: WorkerPoolOptions,
    /** The worker's code, bundled once when the pool opens (`worker-bundle.ts`). */
    private readonly workerFile: string,
  ) {
    this.gate = new FairGate(options.size, options.perOwner);
    this.confinement = describe(options.confinement);
    this.isConfined = options.confinement.kind === "bubblewrap";
  }

  static async open(options: WorkerPoolOptions): Promise<WorkerPool> {
    await dropStaleSnapshots(options.warehousePath);
    await rm(options.workDirectory, { recursive: true, force: true });
    await mkdir(join(options.workDirectory, "code"), { recursive: true });
    const pool = new WorkerPool(options, await bundleWorker(join(options.workDirectory, "code")));
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
      if (this.options.maxStalenessMs === 0) {
        // Every write visible at once: wait for a generation that holds them all, the one a
        // refresh under way is starting (its snapshot may already be taken) or a new one.
        if (this.isBehind()) await this.roll();
      } else if (this.isStale()) {
        this.roll().catch((error: Error) =>
          this.options.log("warn", "sandbox snapshot failed", { error: error.message }),
        );
      }
      return await this.withWorker((worker) => work(sessionOf(worker)));
    } finally {
      release();
    }
  }

  /** Moves to a snapshot of the warehouse as it is now, unless nothing was written since the last. */
  async refresh(): Promise<void> {
    const newest = this.pending ?? this.current;
    if (!this.rolling && newest && this.options.warehouse.writes === newest.snapshot.writes) return;
    await this.roll();
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    this.gate.close();
    const pending = this.pending;
    this.pending = undefined;
    pending?.onStart?.();
    await this.rolling?.catch(() => undefined);
    await this.nextRoll?.catch(() => undefined);
    const generation = this.current;
    this.current = undefined;
    for (const wake of this.waitingForWorker.splice(0)) wake();
    if (generation) await this.retire(generation);
    if (pending) await this.retire(pending);
    while (this.launches.size > 0) await Promise.all([...this.launches]);
    await rm(this.options.workDirectory, { recursive: true, force: true });
  }

  /** Whether the generation serving misses a write. */
  private isBehind(): boolean {
    const current = this.current;
    return !this.isClosed && current !== undefined && this.options.warehouse.writes !== current.snapshot.writes;
  }

  private isStale(): boolean {
    const newest = this.pending ?? this.current;
    if (!newest || this.isClosed || this.nextRoll) return false;
    if (this.options.warehouse.writes === newest.snapshot.writes) return false;
    return Date.now() - newest.snapshot.takenAt >= this.options.maxStalenessMs;
  }

  /**
   * Takes a snapshot and moves to a generation of workers on it, once they have started.
   * A call while a roll is under way gets the one roll that follows it, whose snapshot
   * then holds every write made before the call.
   */
  private roll(): Promise<void> {
    if (!this.rolling) return this.startRoll();
    this.nextRoll ??= this.rolling
      .catch(() => undefined)
      .then(() => {
        this.nextRoll = undefined;
        const current = this.current;
        // Nothing written since the last snapshot: the generation serving is as fresh.
        if (this.isClosed || (current && this.options.warehouse.writes === current.snapshot.writes)) return;
        return this.rolling ?? this.startRoll();
      });
    return this.nextRoll;
  }

  private startRoll(): Promise<void> {
    const rolling = (async () => {
      try {
        const snapshot = await takeSnapshot(
          this.options.warehouse,
          this.options.warehousePath,
          this.options.databases,
          this.options.viewDatabases,
        );
        if (this.isClosed) {
          // Closed while the snapshot was taken: nothing will serve from it.
          await dropSnapshot(snapshot);
          return;
        }
        const generation: Generation = {
          snapshot,
          workers: new Set(),
          idle: [],
          starting: 0,
          isRetired: false,
          isDropped: false,
          startFailures: 0,
        };
        const previous = this.current;
        if (!previous) {
          // The first generation serves at once: its first lease waits for a worker, and
          // a start that fails there is the pool's start-up error.
          this.current = generation;
          for (let index = 0; index < this.options.size; index++) this.startWorker(generation);
          return;
        }
        this.pending = generation;
        const started = new Promise<void>((resolve) => {
          generation.onStart = () => {
            const isSettled = generation.workers.size >= this.options.size || generation.starting === 0;
            if (isSettled || this.isClosed) resolve();
          };
        });
        for (let index = 0; index < this.options.size; index++) this.startWorker(generation);
        await started;
        generation.onStart = undefined;
        if (this.pending !== generation) return; // closed meanwhile
        this.pending = undefined;
        if (generation.workers.size === 0) {
          // Not one worker started: the current generation goes on serving its older snapshot.
          await this.retire(generation);
          throw new Error(
            `no sandbox worker started on the new snapshot: ${this.lastStartError?.message ?? "unknown error"}`,
          );
        }
        this.current = generation;
        for (const wake of this.waitingForWorker.splice(0)) wake();
        await this.retire(previous);
      } finally {
        this.rolling = undefined;
      }
    })();
    this.rolling = rolling;
    return rolling;
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
      if ((generation?.startFailures ?? 0) >= MAX_START_FAILURES) {
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
    if (generation.isRetired || this.isClosed) {
      this.dropIfDone(generation);
      return;
    }
    generation.starting += 1;
    const serial = ++this.workerSerial;
    const directory = join(this.options.workDirectory, `worker-${serial}`);
    const launched = this.launch(generation, directory);
    this.track(launched);
    void launched.then(
      (worker) => {
        generation.starting -= 1;
        generation.startFailures = 0;
        if (generation.isRetired || this.isClosed) {
          this.track(
            worker
              .close()
              .then(() => rm(directory, { recursive: true, force: true }))
              .then(() => this.dropIfDone(generation)),
          );
          generation.onStart?.();
          return;
        }
        generation.workers.add(worker);
        generation.idle.push(worker);
        void worker.exited.then(() => this.onWorkerExit(generation, worker, directory));
        generation.onStart?.();
        if (generation === this.current) this.wakeOne();
      },
      (error: Error) => {
        generation.starting -= 1;
        void rm(directory, { recursive: true, force: true });
        generation.onStart?.();
        if (this.isClosed || generation.isRetired) {
          this.dropIfDone(generation);
          return;
        }
        generation.startFailures += 1;
        this.lastStartError = error;
        this.options.log("warn", "sandbox worker failed to start", { error: error.message });
        if (generation.startFailures < MAX_START_FAILURES) {
          setTimeout(() => this.startWorker(generation), 500 * generation.startFailures).unref();
        } else if (generation === this.current) {
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
    this.dropIfDone(generation);
  }

  /** Removes a retired generation's snapshot once none of its workers is running or starting. */
  private dropIfDone(generation: Generation): void {
    if (!generation.isRetired || generation.isDropped) return;
    if (generation.workers.size > 0 || generation.starting > 0) return;
    generation.isDropped = true;
    this.track(dropSnapshot(generation.snapshot));
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
    const worker = await WorkerProcess.start(
      this.options.confinement,
      {
        node: [process.execPath, this.workerFile, engineDir, configFile],
        readOnly: [CHDB_MODULES, this.workerFile, confDir, generation.snapshot.directory],
        readWrite: [engineDir],
      },
      (line) => this.options.log("warn", "sandbox worker", { line }),
    );
    // A worker that takes over from a serving generation first reads each table once, so
    // the first user queries on it do not pay for loading its parts' indexes and marks.
    if (generation === this.pending) {
      try {
        await warmUp(worker, generation.snapshot);
      } catch (error) {
        await worker.close();
        throw error;
      }
    }
    return worker;
  }

  private async retire(generation: Generation): Promise<void> {
    generation.isRetired = true;
    const idle = generation.idle.splice(0);
    // Busy workers end when their query does (`giveBack`), starting ones once started.
    await Promise.all(idle.map((worker) => this.endWorker(generation, worker)));
    this.dropIfDone(generation);
  }

  /** Ends a worker; it counts as one of its generation's until its process has gone. */
  private async endWorker(generation: Generation, worker: WorkerProcess): Promise<void> {
    await worker.close();
    generation.workers.delete(worker);
    this.dropIfDone(generation);
  }
}

async function warmUp(worker: WorkerProcess, snapshot: Snapshot): Promise<void> {
  for (const table of snapshot.tables) {
    await worker.queryText(`SELECT * FROM ${table.database}.${table.name} LIMIT 1`, "Null");
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
    case "none":
      return "worker processes with no environment, not confined (install bubblewrap to confine user SQL)";
  }
}
