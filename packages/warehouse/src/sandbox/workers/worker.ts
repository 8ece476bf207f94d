/**
 * A sandbox worker: the process user SQL runs in on the embedded engine.
 *
 * It opens chDB on its own directory, whose tables are attached read-only from a frozen
 * snapshot of the warehouse (`snapshot.ts`), under an engine user that may only SELECT
 * from the market databases, with the limits in its settings profile and `readonly = 1`
 * (`engine-config.ts`). The server starts it confined where the machine allows
 * (`confinement.ts`): no environment, no network, an unprivileged user, and a file
 * system that holds the snapshot and nothing of the app's. It runs one user operation at
 * a time; the server kills it when an operation will not stop, and starts another.
 *
 * It imports only node's built-ins, chDB and the frame codec: it runs where nothing else
 * of the project is visible.
 */
import { hostname, setPriority } from "node:os";
import { Session } from "chdb";
import { encodeFrame, FrameReader, type WorkerRequest } from "./protocol";

const [path, configFile] = process.argv.slice(2);
if (!path || !configFile) {
  process.stderr.write("usage: worker <engine path> <config file>\n");
  process.exit(2);
}

// Below the server, so the health check and everyone else's requests come first on a busy machine.
try {
  setPriority(10);
} catch {
  // Not permitted here; the server still bounds each query.
}

const send = (header: object, payload?: Uint8Array) => process.stdout.write(encodeFrame(header, payload));

let session: Session;
let control: Session;
try {
  const connectionArgs = [`--config-file=${configFile}`];
  session = new Session(path, { connectionArgs });
  control = new Session(path, { connectionArgs });
  const engine = (await session.queryAsync("SELECT version()", { format: "TabSeparatedRaw" })).text().trim();
  send({ type: "ready", uid: process.getuid?.() ?? -1, hostname: hostname(), engine });
} catch (error) {
  send({ type: "fatal", message: messageOf(error) });
  process.exit(1);
}

interface Streaming {
  id: number;
  tag: string;
  isCancelled?: boolean;
  cancel(): void;
  /** Set while the stream waits for the server to ask for the next chunk. */
  resume?: () => void;
}

let streaming: Streaming | undefined;

/** The most one frame carries: what the pipe and the server hold for a reader that has stopped. */
const PIECE_BYTES = 1 << 20;

const reader = new FrameReader<WorkerRequest>(({ header }) => {
  switch (header.op) {
    case "text":
      void runText(header);
      return;
    case "stream":
      void runStream(header);
      return;
    case "more":
      if (streaming?.id === header.id) streaming.resume?.();
      return;
    case "cancel":
      if (streaming?.id === header.id) void cancel(streaming);
      return;
  }
});

process.stdin.on("data", (chunk: Buffer) => reader.push(chunk));
// The server went away: nothing more will be asked.
process.stdin.on("end", () => shutdown());
process.on("SIGTERM", () => shutdown());

async function runText(request: Extract<WorkerRequest, { op: "text" }>): Promise<void> {
  try {
    const result = request.params
      ? await session.queryBindAsync(request.sql, request.params, { format: request.format })
      : await session.queryAsync(request.sql, { format: request.format });
    send({ type: "text", id: request.id }, result.bytes());
  } catch (error) {
    await clearSession();
    sendError(request.id, error);
  }
}

/**
 * Streams a result a chunk at a time, each only when the server asks for it, so a reader
 * that stops reading holds at most one chunk here and one in the pipe. chDB's streaming
 * formats each block on its own: a header line repeats at the top of every chunk and is
 * dropped after the first, and the formats that are one document (Parquet, Arrow, JSON with
 * its `meta` and `statistics`, RowBinaryWithNamesAndTypes with its binary header) are
 * produced whole (measured: only Native, RowBinary and the line formats concatenate).
 */
async function runStream(request: Extract<WorkerRequest, { op: "stream" }>): Promise<void> {
  try {
    await useDatabase(request.database ?? DEFAULT_DATABASE);
  } catch (error) {
    sendError(request.id, error);
    return;
  }
  if (!isStreamable(request.format)) return runWhole(request);
  const repeatedLines = headerLines(request.format);
  const stream = request.params
    ? session.queryStreamBind(request.sql, request.params, { format: request.format })
    : session.queryStream(request.sql, { format: request.format });
  const current: Streaming = { id: request.id, tag: request.tag, cancel: () => stream.cancel() };
  streaming = current;
  // One byte past the budget, so the reader sees that the result went on.
  let allowance = request.maxBytes === undefined ? Number.POSITIVE_INFINITY : request.maxBytes + 1;
  const blocks = stream[Symbol.asyncIterator]();
  let index = 0;
  try {
    let step = await blocks.next();
    reading: while (!step.done) {
      let bytes: Buffer = Buffer.from(step.value.raw());
      if (index++ > 0) bytes = dropLines(bytes, repeatedLines);
      // The next block is fetched while this one crosses: a result that ends here ends
      // without the server having to ask again (one pipe round trip less per query).
      const following = blocks.next();
      // Its failure is read where it is awaited; here it must not count as unhandled.
      following.catch(() => undefined);
      // A block can be hundreds of megabytes: it crosses in pieces, each when asked for.
      for (let offset = 0; offset < bytes.length; offset += PIECE_BYTES) {
        const piece = bytes.subarray(offset, Math.min(offset + PIECE_BYTES, offset + allowance));
        allowance -= piece.length;
        const asked = new Promise<void>((resume) => {
          current.resume = resume;
        });
        send({ type: "chunk", id: request.id }, piece);
        const isLastPiece = offset + PIECE_BYTES >= bytes.length;
        const first = isLastPiece
          ? await Promise.race([
              asked.then(() => "asked"),
              following.then(
                (next) => (next.done ? "end" : "more data"),
                () => "failed",
              ),
            ])
          : await asked.then(() => "asked");
        if (first === "more data") await asked;
        current.resume = undefined;
        if (current.isCancelled) break reading;
        if (allowance <= 0) {
          await cancel(current);
          break reading;
        }
      }
      step = await following;
    }
    if (step.done !== true) {
      // Left early: let the block in flight land before the stream is closed under it.
      await blocks.return?.(undefined).catch(() => undefined);
    }
    if (current.isCancelled) await clearSession();
    send({ type: "end", id: request.id });
  } catch (error) {
    await clearSession();
    sendError(request.id, error);
  } finally {
    if (streaming === current) streaming = undefined;
  }
}

/**
 * A stream that failed or was cancelled leaves what it had formatted (its header, a
 * partial block) on the session, and chDB hands it to the next query on that session
 * (measured: the next result began with the failed query's names and types). A statement
 * of our own after it takes the leftovers.
 */
async function clearSession(): Promise<void> {
  await session.queryAsync("SELECT 1", { format: "TabSeparated" }).catch(() => undefined);
}

const DEFAULT_DATABASE = "default";
let currentDatabase = DEFAULT_DATABASE;

/** Makes `database` the one unqualified table names are read from (the server names only allowed ones). */
async function useDatabase(database: string): Promise<void> {
  if (database === currentDatabase) return;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(database)) throw new Error(`invalid database name ${database}`);
  await session.queryAsync(`USE ${database}`, { format: "TabSeparated" });
  currentDatabase = database;
}

/** Formats whose blocks, streamed one by one, join into the whole answer (with their header lines dropped). */
function isStreamable(format: string): boolean {
  return (
    format === "Native" ||
    format === "RowBinary" ||
    /^(JSON(Compact)?(Strings)?EachRow|TabSeparated|TSV|CSV)/.test(format)
  );
}

async function runWhole(request: Extract<WorkerRequest, { op: "stream" }>): Promise<void> {
  const current: Streaming = { id: request.id, tag: request.tag, cancel: () => {} };
  streaming = current;
  try {
    const options = { format: request.format };
    const result = request.params
      ? await session.queryBindAsync(request.sql, request.params, options)
      : await session.queryAsync(request.sql, options);
    const bytes = Buffer.from(result.bytes());
    for (let offset = 0; offset < bytes.length && !current.isCancelled; offset += PIECE_BYTES) {
      await new Promise<void>((resume) => {
        current.resume = resume;
        send({ type: "chunk", id: request.id }, bytes.subarray(offset, offset + PIECE_BYTES));
      });
    }
    send({ type: "end", id: request.id });
  } catch (error) {
    sendError(request.id, error);
  } finally {
    if (streaming === current) streaming = undefined;
  }
}

/** Stops the engine query of the current stream: by its tag from the control session, then the stream itself. */
async function cancel(current: Streaming): Promise<void> {
  current.isCancelled = true;
  const tag = current.tag.replaceAll("\\", "\\\\").replaceAll("'", "\\'");
  await control
    .queryAsync(`KILL QUERY WHERE startsWith(query, '${tag}') ASYNC`, { format: "TabSeparated" })
    .catch(() => undefined);
  current.cancel();
  // A stream waiting for the server's next `more` has nothing in flight: let it see the cancel.
  current.resume?.();
}

function headerLines(format: string): number {
  if (format.endsWith("WithNamesAndTypes")) return 2;
  if (format.endsWith("WithNames")) return 1;
  return 0;
}

function dropLines(bytes: Buffer, count: number): Buffer {
  let start = 0;
  for (let line = 0; line < count; line++) {
    const end = bytes.indexOf(10, start);
    if (end === -1) return Buffer.alloc(0);
    start = end + 1;
  }
  return bytes.subarray(start);
}

function sendError(id: number, error: unknown): void {
  const message = messageOf(error);
  const code = /Code: (\d+)/.exec(message.slice(0, 200))?.[1];
  const name = /\(([A-Z_]{3,64})\)\s{0,8}$/.exec(message.slice(-200))?.[1];
  send({
    type: "error",
    id,
    message: message.slice(0, 20_000),
    ...(code ? { code: Number(code) } : {}),
    ...(name ? { name } : {}),
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function shutdown(): void {
  try {
    streaming?.cancel();
    session.close();
    control.close();
  } finally {
    process.exit(0);
  }
}
