/**
 * The local admin channel: how `npm run admin` reaches a server that owns `DATA_DIR`. The
 * embedded stores admit one process, so while a server runs the CLI cannot open them;
 * it sends its command here instead, and the server runs it (`runAdminCommand`) on the
 * stores it holds and answers with the text the CLI prints. Both ends live in this file.
 *
 * It is a Unix domain socket, `$DATA_DIR/run/admin.sock` (mode 0600) in a directory of
 * mode 0700 owned by the server's user, rather than a 127.0.0.1 port and a secret file:
 * - the kernel decides who gets in, at connect(2): only the user who owns `DATA_DIR` (and
 *   root, who could read any secret file too) can pass the directory. That check is the
 *   authentication, with no secret to generate, store, compare or leak;
 * - nothing listens on the network, not even on loopback, where every local user can
 *   connect and try;
 * - a killed server's socket refuses connections, while a killed server's port can be
 *   taken by another user's process, which the CLI would then hand the secret.
 * The directory is what keeps others out, not the socket's own mode: the socket exists
 * before it can be chmod'ed, and some kernels ignore a socket's mode (unix(7)).
 *
 * One JSON line each way: the command (`ZAdminCommand`, at most 4 KiB), then the answer
 * (`ZChannelAnswer`), then the server closes the connection. A socket left by a killed
 * server is told apart by connecting to it: the CLI then opens the stores itself, and the
 * next server replaces it; a clean stop removes it.
 *
 * A Unix socket path holds at most 103 bytes on macOS (107 on Linux), and Node silently
 * cuts a longer one; under a `DATA_DIR` that deep the channel stays off and the server's
 * log and the CLI say why.
 */
import { chmodSync, lstatSync, mkdirSync, rmSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { dirname, join } from "node:path";
import type { Logger } from "pino";
import { z } from "zod";
import { type AdminCommand, AdminCommandRefused, ZAdminCommand } from "./local-admin-commands";

const SOCKET_PATH_MAX_BYTES = 103;
const COMMAND_MAX_BYTES = 4096;
/** A connection that has not sent its command by then is dropped. */
const COMMAND_WAIT_MS = 5_000;
/** How long the CLI waits for the server to run the command and answer. */
const ANSWER_WAIT_MS = 60_000;
/** How long a stopping server lets commands in progress finish. */
const CLOSE_GRACE_MS = 10_000;

export const ZChannelAnswer = z.discriminatedUnion("outcome", [
  z.object({ outcome: z.literal("done"), output: z.string() }),
  /** The command cannot be done as asked (`AdminCommandRefused`): the CLI prints its usage. */
  z.object({ outcome: z.literal("refused"), message: z.string() }),
  z.object({ outcome: z.literal("failed"), message: z.string() }),
]);
export type ChannelAnswer = z.infer<typeof ZChannelAnswer>;

export function localAdminSocketPath(dataDir: string): string {
  return join(dataDir, "run", "admin.sock");
}

/** Why the channel cannot exist under `dataDir`, if it cannot. */
export function socketPathProblem(dataDir: string): string | undefined {
  const path = localAdminSocketPath(dataDir);
  const bytes = Buffer.byteLength(path);
  if (bytes <= SOCKET_PATH_MAX_BYTES) return undefined;
  return `its socket path ${path} is ${bytes} bytes, longer than the ${SOCKET_PATH_MAX_BYTES} a Unix socket path may have; use a shorter DATA_DIR`;
}

// ── The server's end ──

export interface LocalAdminChannel {
  readonly path: string;
  /** Stops taking commands, lets those in progress answer (bounded), removes the socket. */
  close(): Promise<void>;
}

/**
 * Opens the channel for the server that owns `dataDir`; undefined, after a warning in the
 * log, when it cannot (the server runs on without it: only the CLI needs it).
 */
export async function openLocalAdminChannel(options: {
  dataDir: string;
  run: (command: AdminCommand) => Promise<string>;
  logger: Logger;
}): Promise<LocalAdminChannel | undefined> {
  const { logger } = options;
  const path = localAdminSocketPath(options.dataDir);
  const off = (reason: string) => {
    logger.warn({ path }, `admin channel off: ${reason}; npm run admin cannot reach this server`);
    return undefined;
  };
  const tooLong = socketPathProblem(options.dataDir);
  if (tooLong) return off(tooLong);
  const unsafe = privateDirectoryProblem(dirname(path));
  if (unsafe) return off(unsafe);

  const connections = new Set<Socket>();
  const server = createServer((socket) => {
    connections.add(socket);
    socket.once("close", () => connections.delete(socket));
    serveOne(socket, options.run, logger);
  });
  try {
    await listen(server, path);
  } catch (error) {
    if (codeOf(error) !== "EADDRINUSE") return off(messageOf(error));
    if (await isAnswering(path)) return off("another server already answers on it");
    // Left by a server that was killed: nothing listens on it any more.
    rmSync(path, { force: true });
    try {
      await listen(server, path);
    } catch (again) {
      return off(messageOf(again));
    }
  }
  chmodSync(path, 0o600);
  logger.info({ path }, "admin channel open");

  let closing: Promise<void> | undefined;
  return {
    path,
    close() {
      closing ??= new Promise<void>((done) => {
        const timer = setTimeout(() => {
          for (const socket of connections) socket.destroy();
        }, CLOSE_GRACE_MS);
        // Closing the listening socket also removes its file.
        server.close(() => {
          clearTimeout(timer);
          done();
        });
      });
      return closing;
    },
  };
}

/** `run/` must be a real directory of ours that no one else can enter. */
function privateDirectoryProblem(directory: string): string | undefined {
  try {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    const stat = lstatSync(directory);
    if (!stat.isDirectory()) return `${directory} is not a directory`;
    if (process.getuid && stat.uid !== process.getuid()) return `${directory} belongs to another user`;
    chmodSync(directory, 0o700);
    return undefined;
  } catch (error) {
    return messageOf(error);
  }
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => reject(error);
    server.once("error", fail);
    server.listen({ path }, () => {
      server.off("error", fail);
      resolve();
    });
  });
}

function isAnswering(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(path);
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", () => resolve(false));
  });
}

function serveOne(socket: Socket, run: (command: AdminCommand) => Promise<string>, logger: Logger): void {
  const answer = (reply: ChannelAnswer) => socket.end(`${JSON.stringify(reply)}\n`);
  const chunks: Buffer[] = [];
  let size = 0;
  socket.setTimeout(COMMAND_WAIT_MS, () => socket.destroy());
  // The CLI may go away at any point; there is nobody left to tell.
  socket.on("error", () => {});
  const onData = (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
    const received = Buffer.concat(chunks);
    const end = received.indexOf(0x0a);
    if (end === -1 && size <= COMMAND_MAX_BYTES) return;
    socket.off("data", onData);
    socket.setTimeout(0);
    if (end === -1 || end > COMMAND_MAX_BYTES) {
      answer({ outcome: "failed", message: `The command is larger than ${COMMAND_MAX_BYTES} bytes.` });
      return;
    }
    const command = ZAdminCommand.safeParse(parseJson(received.subarray(0, end).toString("utf8")));
    if (!command.success) {
      answer({
        outcome: "failed",
        message: `The server could not read the command: ${z.prettifyError(command.error)}`,
      });
      return;
    }
    logger.info(
      { command: command.data.command, email: "email" in command.data ? command.data.email : undefined },
      "admin command",
    );
    run(command.data).then(
      (output) => answer({ outcome: "done", output }),
      (error: unknown) => {
        if (error instanceof AdminCommandRefused) {
          answer({ outcome: "refused", message: error.message });
          return;
        }
        logger.error({ err: error, command: command.data.command }, "admin command failed");
        answer({ outcome: "failed", message: messageOf(error) });
      },
    );
  };
  socket.on("data", onData);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

// ── The CLI's end ──

/** The channel exists but this user may not use it; the CLI prints the message and exits 1. */
export class LocalAdminChannelError extends Error {
  override readonly name = "LocalAdminChannelError";
}

/** connect(2) errors that mean no server owns the directory: no socket, or a dead server's. */
const NO_SERVER = new Set(["ENOENT", "ECONNREFUSED", "ENOTSOCK"]);

/**
 * Sends `command` to the server that owns `dataDir` and resolves with its answer, or with
 * undefined when no server answers there: then the stores are free for the CLI to open.
 */
export function askRunningServer(dataDir: string, command: AdminCommand): Promise<ChannelAnswer | undefined> {
  if (socketPathProblem(dataDir)) return Promise.resolve(undefined);
  const path = localAdminSocketPath(dataDir);
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    const chunks: Buffer[] = [];
    let isConnected = false;
    socket.setTimeout(ANSWER_WAIT_MS, () => {
      socket.destroy(new LocalAdminChannelError(`The server on ${dataDir} did not answer within 60 s.`));
    });
    socket.once("connect", () => {
      isConnected = true;
      // Not `end()`: the server's side closes as soon as ours does, before it could answer.
      socket.write(`${JSON.stringify(command)}\n`);
    });
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.once("error", (error) => {
      const code = codeOf(error);
      if (!isConnected && code && NO_SERVER.has(code)) resolve(undefined);
      else if (!isConnected && (code === "EACCES" || code === "EPERM")) {
        reject(
          new LocalAdminChannelError(
            `A server owns ${dataDir}, but its admin channel (${path}) is not open to this user; run the command as the user the server runs as.`,
          ),
        );
      } else if (isConnected && !(error instanceof LocalAdminChannelError)) {
        reject(
          new LocalAdminChannelError(
            `The server on ${dataDir} closed the admin channel without an answer (${messageOf(error)}).`,
          ),
        );
      } else reject(error);
    });
    socket.once("close", (hadError) => {
      if (hadError) return;
      const answer = ZChannelAnswer.safeParse(parseJson(Buffer.concat(chunks).toString("utf8")));
      if (answer.success) resolve(answer.data);
      else reject(new LocalAdminChannelError(`The server on ${dataDir} closed the admin channel without an answer.`));
    });
  });
}

function codeOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
