/**
 * The server's handle on one sandbox worker process: starting it, asking it for text or a
 * stream, and stopping what it runs — politely (KILL QUERY inside the worker) and, when
 * that does not take, by killing the process. A computation inside a single block (one
 * huge string operation) ignores both the engine's time limit and KILL QUERY until the
 * block ends; only the process's end stops it, and the warehouse is untouched by it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import type { EngineStream } from "../engine";
import { QueryEngineError } from "../errors";
import { type Confinement, launchCommand, type WorkerLaunch } from "./confinement";
import { encodeFrame, FrameReader, type WorkerReply, type WorkerRequest } from "./protocol";

export class WorkerStartError extends Error {
  override readonly name = "WorkerStartError";
}

export interface WorkerIdentity {
  pid: number;
  uid: number;
  hostname: string;
  engine: string;
}

const START_TIMEOUT_MS = 30_000;
/** How long a polite stop may take before the process is killed. */
export const STOP_GRACE_MS = 1_500;

type Pending = {
  onText?: (payload: Buffer) => void;
  onChunk?: (payload: Buffer) => void;
  onEnd: () => void;
  onError: (error: Error) => void;
};

export class WorkerProcess {
  readonly exited: Promise<void>;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private isExited = false;
  private isKilled = false;
  private stderrTail = "";

  private constructor(
    private readonly child: ChildProcess,
    readonly identity: WorkerIdentity,
    exited: Promise<void>,
  ) {
    this.exited = exited;
  }

  static start(confinement: Confinement, launch: WorkerLaunch, onLog: (line: string) => void): Promise<WorkerProcess> {
    const { command, args, options } = launchCommand(confinement, launch);
    const child = spawn(command, args, options);
    return new Promise((resolve, reject) => {
      let worker: WorkerProcess | undefined;
      let stderr = "";
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new WorkerStartError(`the sandbox worker did not start within ${START_TIMEOUT_MS / 1000} s`));
      }, START_TIMEOUT_MS);
      let markExited = () => {};
      const exited = new Promise<void>((done) => (markExited = done));
      const reader = new FrameReader<WorkerReply>(({ header, payload }) => {
        if (!worker) {
          clearTimeout(timer);
          if (header.type === "ready") {
            worker = new WorkerProcess(
              child,
              { pid: child.pid ?? -1, uid: header.uid, hostname: header.hostname, engine: header.engine },
              exited,
            );
            resolve(worker);
          } else {
            child.kill("SIGKILL");
            const reason = header.type === "fatal" ? header.message : `unexpected ${header.type}`;
            // The engine says why on stderr; the exception only that it failed.
            setTimeout(() => reject(new WorkerStartError(`${reason} ${lastLines(stderr)}`.trim())), 50);
          }
          return;
        }
        worker.onReply(header, payload);
      });
      child.stdout?.on("data", (chunk: Buffer) => reader.push(chunk));
      child.stderr?.on("data", (chunk: Buffer) => {
        const text = chunk.toString("utf8");
        if (worker) worker.onStderr(text, onLog);
        else stderr = (stderr + text).slice(-4_000);
      });
      child.on("error", (error) => {
        clearTimeout(timer);
        reject(new WorkerStartError(`the sandbox worker could not be started: ${error.message}`));
      });
      child.on("exit", (code, signal) => {
        clearTimeout(timer);
        markExited();
        if (worker) worker.onExit(code, signal);
        else
          reject(new WorkerStartError(`the sandbox worker exited on start (${signal ?? code}): ${lastLines(stderr)}`));
      });
    });
  }

  /** False from the moment it is killed, before the exit is reported, so no one leases a dying worker. */
  get isAlive(): boolean {
    return !this.isExited && !this.isKilled;
  }

  /** Runs `sql` to completion and returns its output (validation and small answers). */
  queryText(sql: string, format: string, params?: Record<string, unknown>): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      let result: Buffer = Buffer.alloc(0);
      this.pending.set(id, {
        onText: (payload) => {
          result = payload;
        },
        onEnd: () => resolve(result),
        onError: reject,
      });
      this.send({ op: "text", id, sql, format, ...(params ? { params } : {}) });
    });
  }

  /** Starts `sql` and hands out its output chunk by chunk, each only when asked for. */
  stream(
    sql: string,
    format: string,
    tag: string,
    options: { maxBytes?: number; params?: Readonly<Record<string, string>>; database?: string } = {},
  ): EngineStream {
    const id = this.nextId++;
    const chunks: Buffer[] = [];
    let waiter: { resolve: () => void } | undefined;
    let isDone = false;
    let failure: Error | undefined;
    let isStopping = false;
    let settled!: () => void;
    const isSettled = new Promise<void>((resolve) => (settled = resolve));
    const wake = () => {
      const next = waiter;
      waiter = undefined;
      next?.resolve();
    };
    this.pending.set(id, {
      onChunk: (payload) => {
        chunks.push(payload);
        wake();
      },
      onEnd: () => {
        isDone = true;
        settled();
        wake();
      },
      onError: (error) => {
        failure = error;
        isDone = true;
        settled();
        wake();
      },
    });
    this.send({ op: "stream", id, sql, format, tag, ...options });
    const stop = async () => {
      if (isDone) return;
      isStopping = true;
      this.send({ op: "cancel", id });
      const stopped = await Promise.race([
        isSettled.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), STOP_GRACE_MS).unref()),
      ]);
      if (!stopped) {
        this.kill();
        await this.exited;
      }
    };
    const askForMore = () => {
      if (!isDone && !isStopping) this.send({ op: "more", id });
    };
    return {
      async *[Symbol.asyncIterator]() {
        let isFirst = true;
        try {
          for (;;) {
            if (!isFirst && chunks.length === 0) askForMore();
            isFirst = false;
            while (chunks.length === 0 && !isDone) await new Promise<void>((resolve) => (waiter = { resolve }));
            const chunk = chunks.shift();
            if (chunk) {
              yield chunk;
              continue;
            }
            if (failure) throw failure;
            return;
          }
        } finally {
          // A reader that leaves early must not leave the worker waiting for `more`.
          await stop();
        }
      },
      stop,
    };
  }

  /** Ends the process at once, whatever it is doing; every operation in flight fails. */
  kill(): void {
    this.isKilled = true;
    if (!this.isExited) this.child.kill("SIGKILL");
  }

  /** Asks the process to finish and waits for it, killing it if it does not. */
  async close(): Promise<void> {
    if (this.isExited) return;
    this.child.stdin?.end();
    const ended = await Promise.race([
      this.exited.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000).unref()),
    ]);
    if (!ended) {
      this.kill();
      await this.exited;
    }
  }

  private send(request: WorkerRequest): void {
    if (this.isExited) {
      const pending = this.pending.get(request.id);
      this.pending.delete(request.id);
      pending?.onError(this.exitError());
      return;
    }
    this.child.stdin?.write(encodeFrame(request));
  }

  private onReply(reply: WorkerReply, payload: Buffer): void {
    const pending = "id" in reply ? this.pending.get(reply.id) : undefined;
    if (!pending) return;
    switch (reply.type) {
      case "ready":
      case "fatal":
        return;
      case "text":
        pending.onText?.(payload);
        this.pending.delete(reply.id);
        pending.onEnd();
        return;
      case "chunk":
        pending.onChunk?.(payload);
        return;
      case "end":
        this.pending.delete(reply.id);
        pending.onEnd();
        return;
      case "error": {
        this.pending.delete(reply.id);
        const error = new Error(reply.message) as Error & { code?: number; type?: string };
        if (reply.code !== undefined) error.code = reply.code;
        if (reply.name !== undefined) error.type = reply.name;
        pending.onError(error);
        return;
      }
    }
  }

  private onStderr(text: string, onLog: (line: string) => void): void {
    this.stderrTail = (this.stderrTail + text).slice(-4_000);
    for (const line of text.split("\n")) {
      // Stack frames of the engine's own messages say nothing an operator can act on.
      if (line.trim() !== "" && !/^\d+\. /.test(line.slice(0, 12))) onLog(line.slice(0, 500));
    }
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.isExited = true;
    this.exitReason = signal ?? `exit ${code}`;
    const error = this.exitError();
    for (const pending of this.pending.values()) pending.onError(error);
    this.pending.clear();
  }

  private exitReason = "";

  private exitError(): Error {
    return new QueryEngineError(
      `The query engine process stopped (${this.exitReason || "exited"}) while running this query.`,
      "ENGINE_PROCESS_EXITED",
    );
  }
}

function lastLines(text: string): string {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "" && !/^\d+\. /.test(line.slice(0, 12)))
    .slice(-5)
    .join(" | ");
}
